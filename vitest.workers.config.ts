import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * Worker + D1 tests, inside workerd with a real D1. The migrations are read once here and applied
 * by test/worker/setup.ts. `main` is the built Worker (npm run build), so SELF.fetch exercises the
 * same code `npm start` serves. SESSION_SECRET is a binding of its own (random per run): tests
 * need no .dev.vars, and never sign with the public development value. What `npm start` adds to
 * .dev.vars for development (the outbox page) is switched off here, so the Worker runs as deployed.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
  return {
    resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
    plugins: [
      cloudflareTest({
        main: "./build/index.js",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, SESSION_SECRET: randomBytes(32).toString("base64url"), MAIL_OUTBOX_PAGE: "false" },
        },
      }),
    ],
    test: {
      include: ["test/worker/**/*.test.ts"],
      // Each test waits on the Worker's answers, never on a clock; this is only a guard against a
      // hang. Vitest's 5 s was reached by tests of ~1 s on two cores shared with other work.
      testTimeout: 60_000,
      // Two Miniflares (one per worker), each running its share of the files one after another in
      // one isolate and one D1 (decision 164): the built Worker is imported once per worker, not once
      // per file. Files keep to their own hotels (their own domains) and never count another file's
      // rows. WORKER_ISOLATE=1 gives each file a Miniflare of its own again (to tell a leak between
      // files from a fault of the file).
      maxWorkers: Math.max(2, availableParallelism() - 1),
      isolate: process.env.WORKER_ISOLATE === "1",
      setupFiles: ["test/worker/setup.ts"],
      // Back ends that fail, served from Node for test/worker/backend-down.test.ts; pdftotext for the tests that read a PDF.
      globalSetup: ["test/worker/broken-backends.global.ts", "test/worker/pdf-text.global.ts"],
      // Remix's runtime is CommonJS: bundled once so tests can use app modules that import it (cookies).
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie"] } } },
    },
  };
});
