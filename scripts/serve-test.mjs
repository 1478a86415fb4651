/**
 * The server the browser tests run against: the built Worker on a fresh local D1 (its own state
 * folder, so a developer's `npm start` data is never touched), with the demo hotels loaded. It
 * signs with a random SESSION_SECRET of its own, so it needs no .dev.vars (a fresh clone, CI).
 */
import { spawnSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const wrangler = require.resolve("wrangler/bin/wrangler.js");
const tsx = require.resolve("tsx/cli");
const state = ".wrangler/test-state";
const port = process.env.PORT ?? "8788";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" };

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(state, { recursive: true, force: true });
run([wrangler, "d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
run([tsx, "scripts/hotel-import.ts", "--demo", "--persist-to", state]);
const secret = randomBytes(32).toString("base64url");
const devArgs = ["dev", "--port", port, "--ip", "127.0.0.1", "--persist-to", state, "--log-level", "warn", "--var", `SESSION_SECRET:${secret}`, "--var", "MAIL_OUTBOX_PAGE:true"];
const server = spawn(process.execPath, [wrangler, ...devArgs], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
