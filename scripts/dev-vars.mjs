/**
 * Creates .dev.vars (the local secrets `wrangler dev` reads) from .dev.vars.example when it is
 * missing, with a random SESSION_SECRET, so a fresh clone starts without a committed secret.
 * An existing .dev.vars is left alone.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const target = ".dev.vars";
if (!existsSync(target)) {
  const example = readFileSync(".dev.vars.example", "utf8");
  const secret = randomBytes(32).toString("base64url");
  const local = example
    .replace(/^# The value below is public.*$/m, "# Created by `npm start` with a random SESSION_SECRET of this machine's own.")
    .replace(/^SESSION_SECRET=.*$/m, `SESSION_SECRET="${secret}"`);
  writeFileSync(target, local, { mode: 0o600 });
  console.log(`Created ${target} with a random SESSION_SECRET`);
}
