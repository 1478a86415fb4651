import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.PORT ?? 8788);

/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; Playwright's own download is not used),
 * against the built Worker (scripts/serve-test.mjs), once with JavaScript and once without.
 */
export default defineConfig({
  testDir: "test/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A guard against a hang, not a timing: every step waits on the page. 30 s was reached by the axe
  // audit of seven pages on two cores shared with other work.
  timeout: 90_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true } },
    { name: "js-off", use: { javaScriptEnabled: false }, testIgnore: /(a11y|enhancement|html-valid)\.spec\.ts/ },
  ],
  webServer: {
    command: "node scripts/serve-test.mjs",
    url: `http://localhost:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(PORT) },
  },
});
