/**
 * The server the browser tests run against: the built Worker run by Miniflare's API
 * (scripts/miniflare.mjs) on a fresh D1 of its own (.wrangler/test-state, so a developer's
 * `npm start` data is never touched), with the demo hotels loaded. It signs with a random
 * SESSION_SECRET of its own, so it needs no .dev.vars (a fresh clone, CI).
 */
import { randomBytes } from "node:crypto";
import { startPortico } from "./miniflare.mjs";

const port = process.env.PORT ?? "8788";
const server = await startPortico({
  port,
  state: `.wrangler/test-state-${port}`,
  // FEATURE_REPAY on: the browser tests pay the rest of a deposit booking through {master}/payment.
  // The development outbox page (/dev/outbox): the browser tests read the emails there.
  vars: { SESSION_SECRET: randomBytes(32).toString("base64url"), FEATURE_REPAY: "true", MAIL_OUTBOX_PAGE: "true" },
});
console.log(`Portico (built Worker, Miniflare) on http://localhost:${port}`);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.dispose().finally(() => process.exit(0));
  });
}
