/**
 * Creates .dev.vars (the local secrets `wrangler dev` reads) from .dev.vars.example when it is
 * missing, with a random SESSION_SECRET, so a fresh clone starts without a committed secret.
 * An existing .dev.vars is left alone, except that a development setting added since it was
 * made (MAIL_OUTBOX_PAGE, the /dev/outbox page) is appended.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

const target = ".dev.vars";
if (!existsSync(target)) {
  const example = readFileSync(".dev.vars.example", "utf8");
  const secret = randomBytes(32).toString("base64url");
  const local = example
    .replace(/^# The value below is public.*$/m, "# Created by `npm start` with a random SESSION_SECRET of this machine's own.")
    .replace(/^SESSION_SECRET=.*$/m, `SESSION_SECRET="${secret}"`);
  writeFileSync(target, local, { mode: 0o600 });
  console.log(`Created ${target} with a random SESSION_SECRET`);
} else if (!/^MAIL_OUTBOX_PAGE=/m.test(readFileSync(target, "utf8"))) {
  appendFileSync(
    target,
    '\n# The development page listing the email outbox (/dev/outbox); never set in production.\nMAIL_OUTBOX_PAGE="true"\n',
  );
  console.log(`Added MAIL_OUTBOX_PAGE to ${target}`);
}
