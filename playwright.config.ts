import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.PORT ?? 8788);
/**
 * Browser workers, each against a server of its own on PORT + its parallel index (its own Miniflare
 * and D1): no test sees another worker's orders, emails or sign-in attempts. E2E_WORKERS=1 runs one
 * worker and one server on PORT, as before (decision 145).
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
/** The server of the worker that loads this file (the runner itself has no index: the first). */
const WORKER_PORT = PORT + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
/**
 * Debian's headless shell (apt-get install chromium-headless-shell) when it is there: the same
 * Chromium build without the full browser's window machinery, as Playwright itself runs headless
 * tests. It took 0.53 of the full browser's wall time for the same 51 tests (decision 158), where
 * the browser is three quarters of the layer's CPU. Otherwise the full browser; CHROMIUM_PATH wins.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

/**
 * Browser tests in Debian's Chromium (its headless shell, or /usr/bin/chromium; Playwright's own download is not used),
 * against the built Worker (scripts/serve-test.mjs): every test with JavaScript, and again without
 * it the tests tagged @js-matters, where JavaScript changes what the browser does (decision 145).
 */
export default defineConfig({
  testDir: "test/e2e",
  // Files are shared out to the workers whole; the tests of a file run in order on one server.
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  // A guard against a hang, not a timing: every step waits on the page. 30 s was reached by the axe
  // audit of seven pages on two cores shared with other work.
  timeout: 90_000,
  // The same guard for each expectation's wait on the page (Playwright's 5 s): a server-rendered
  // navigation under load on two shared cores once took longer than that (after-booking, JS off).
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${WORKER_PORT}`,
    launchOptions: {
      executablePath: CHROMIUM,
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
  webServer: Array.from({ length: WORKERS }, (_, index) => ({
    command: "node scripts/serve-test.mjs",
    url: `http://localhost:${PORT + index}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(PORT + index) },
  })),
});
