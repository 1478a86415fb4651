import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.PORT ?? 8788);

/**
 * Browser tests in Debian's Chromium (/usr/bin/chromium; Playwright's own download is not used),
 * against the built Worker (scripts/serve-test.mjs): every test with JavaScript, and again without
 * it the tests tagged @js-matters, where JavaScript changes what the browser does (decision 145).
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
    // Only where JavaScript changes the page under test: a hydrating page (booking, checkout, rail)
    // that the test acts on, or the pay page's script to the gateway. Pages that ship no JavaScript,
    // and pages only read, are the same without it: one run tests them (decision 145).
    { name: "js-off", use: { javaScriptEnabled: false }, grep: /@js-matters/ },
  ],
  webServer: {
    command: "node scripts/serve-test.mjs",
    url: `http://localhost:${PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(PORT) },
  },
});
