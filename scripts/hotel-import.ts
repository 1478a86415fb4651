/**
 * npm run hotel:import -- <hotel.json> [more.json] [--remote] [--if-changed] [--persist-to DIR] [--day YYYY-MM-DD] [--allow-test-gateway]
 *   --allow-test-gateway: a staging site may use the built-in test gateway ("sandbox") on a public
 *   domain (its Worker must also set ALLOW_TEST_GATEWAY); without it such a file is refused
 *   --if-changed: load only hotels this database lacks, or whose file changed since it was last
 *   loaded here (npm start's seed: demo bookings survive a restart, a changed demo file is not missed)
 *   --reset-desk-changes: overwrite the nights staff changed at the desk too (decision 155); without
 *   it those nights are kept as the desk left them, and the import says how many
 * npm run hotel:import -- --demo            loads every file in demo/hotels/
 * npm run hotel:import -- --demo --sql-out FILE   writes the SQL to FILE instead (the test server loads it)
 *
 * Validates each hotel file (errors name the field) and loads it into the local D1 database, or the
 * remote one with --remote. File format: docs/hotel-file.md.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { todayIn, isIsoDate } from "~/domain/dates";
import { validateHotelFile, type HotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";
import { hashPassword } from "~/backend/account/passwords";
import { INVITE_LINK_HOURS } from "~/backend/desk/invite-link";
import { localizePath } from "~/i18n/languages";
import { randomToken, sha256Hex } from "~/lib/crypto";

interface Options {
  files: string[];
  remote: boolean;
  ifAbsent: boolean;
  persistTo?: string;
  day?: string;
  sqlOut?: string;
  allowTestGateway: boolean;
  resetDeskChanges: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { files: [], remote: false, ifAbsent: false, allowTestGateway: false, resetDeskChanges: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? "";
    if (arg === "--remote") options.remote = true;
    else if (arg === "--if-changed" || arg === "--if-absent") options.ifAbsent = true;
    else if (arg === "--demo") {
      const dir = resolve("demo/hotels");
      options.files.push(
        ...readdirSync(dir)
          .filter((name) => name.endsWith(".json"))
          .sort()
          .map((name) => join(dir, name)),
      );
    } else if (arg === "--persist-to") options.persistTo = argv[++index];
    else if (arg === "--day") options.day = argv[++index];
    else if (arg === "--sql-out") options.sqlOut = argv[++index];
    else if (arg === "--allow-test-gateway") options.allowTestGateway = true;
    else if (arg === "--reset-desk-changes") options.resetDeskChanges = true;
    else if (arg.startsWith("--")) fail(`unknown option ${arg}`);
    else options.files.push(resolve(arg));
  }
  if (options.files.length === 0) fail("give at least one hotel file (or --demo)");
  if (options.day !== undefined && !isIsoDate(options.day)) fail("--day must be a date YYYY-MM-DD");
  return options;
}

/**
 * The desk owner's invitation (decision 149): a one-time link, printed for whoever runs the import
 * to hand over. It works only if the import created the owner (an existing staff member is kept).
 */
async function ownerInvitation(file: HotelFile): Promise<{ hash: string; expires: string }> {
  const token = randomToken();
  const path = localizePath("/desk/invitation", file.hotel.main_lang);
  console.log(
    `${file.hotel.domain}: the desk's owner ${file.desk.owner?.email ?? ""}, if new, is invited (${INVITE_LINK_HOURS} h): https://${file.hotel.domain}${path}?token=${token}`,
  );
  return { hash: await sha256Hex(token), expires: new Date(Date.now() + INVITE_LINK_HOURS * 3_600_000).toISOString() };
}

function fail(message: string): never {
  console.error(`hotel:import: ${message}`);
  process.exit(1);
}

const require = createRequire(import.meta.url);
const wranglerBin = require.resolve("wrangler/bin/wrangler.js");

function wrangler(args: string[], options: Options): string {
  const target = options.remote ? ["--remote"] : ["--local", ...(options.persistTo ? ["--persist-to", options.persistTo] : [])];
  const result = spawnSync(process.execPath, [wranglerBin, "d1", "execute", "DB", ...target, ...args], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    fail("wrangler d1 execute failed (are the migrations applied? npm run db:migrate)");
  }
  return result.stdout;
}

/** Nights (room and plan rows) staff changed at the desk, by domain: what this import keeps or resets. */
function deskChangedNights(options: Options, domains: string[]): Map<string, number> {
  const list = domains.map((domain) => `'${domain.replace(/'/g, "''")}'`).join(", ");
  const out = wrangler(
    [
      "--json",
      "--command",
      `SELECT h.domain, (SELECT count(*) FROM room_nights n JOIN room_classes r ON r.id = n.room_class_id WHERE r.hotel_id = h.id AND n.changed_at IS NOT NULL) + (SELECT count(*) FROM plan_nights n JOIN rate_plans p ON p.id = n.rate_plan_id WHERE p.hotel_id = h.id AND n.changed_at IS NOT NULL) AS changed FROM hotels h WHERE h.domain IN (${list})`,
    ],
    options,
  );
  const parsed = JSON.parse(out.slice(out.indexOf("["))) as { results: { domain: string; changed: number }[] }[];
  return new Map(parsed.flatMap((batch) => batch.results.map((row) => [row.domain, row.changed] as const)));
}

function existingDomains(options: Options): Set<string> {
  const out = wrangler(["--json", "--command", "SELECT domain FROM hotels"], options);
  const start = out.indexOf("[");
  const parsed = JSON.parse(out.slice(start)) as { results: { domain: string }[] }[];
  return new Set(parsed.flatMap((batch) => batch.results.map((row) => row.domain)));
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const hotels: { path: string; file: HotelFile }[] = [];
  let invalid = false;
  for (const path of options.files) {
    let input: unknown;
    try {
      input = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      console.error(`${path}: not a readable JSON file (${(error as Error).message})`);
      invalid = true;
      continue;
    }
    const result = validateHotelFile(input, { allowTestGateway: options.allowTestGateway });
    if (!result.success) {
      invalid = true;
      for (const error of result.errors) console.error(`${path}: ${error}`);
    } else hotels.push({ path, file: result.file });
  }
  if (invalid) fail("nothing was loaded: fix the fields named above");

  // What each hotel's file was when this local database last loaded it (a hash per domain).
  const statePath = resolve(options.persistTo ?? ".wrangler/state", "imported-hotels.json");
  const loadedHashes: Record<string, string> = (() => {
    try {
      return JSON.parse(readFileSync(statePath, "utf8")) as Record<string, string>;
    } catch {
      return {};
    }
  })();
  const hashOf = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
  const present = options.ifAbsent ? existingDomains(options) : new Set<string>();
  const unchanged = (entry: { path: string; file: HotelFile }) =>
    present.has(entry.file.hotel.domain) && loadedHashes[entry.file.hotel.domain] === hashOf(entry.path);
  const toLoad = hotels.filter((entry) => !unchanged(entry));
  for (const entry of hotels) {
    if (unchanged(entry)) console.log(`${entry.file.hotel.domain}: already loaded and unchanged, kept as it is`);
  }
  if (toLoad.length === 0) return;

  const statements: string[] = [];
  for (const { file } of toLoad) {
    const passwordHashes = new Map<string, string>();
    for (const member of file.members) {
      if (member.password) passwordHashes.set(member.email, await hashPassword(member.password));
    }
    const owner = file.desk.owner;
    if (owner?.demo_password) passwordHashes.set(owner.email, await hashPassword(owner.demo_password));
    const invite = owner && !owner.demo_password ? await ownerInvitation(file) : null;
    const loadDay = options.day ?? todayIn(file.hotel.time_zone);
    statements.push(
      ...hotelFileToSql(file, {
        loadDay,
        passwordHashes,
        ownerInviteHash: invite?.hash,
        ownerInviteExpires: invite?.expires,
        resetDeskChanges: options.resetDeskChanges,
      }),
    );
  }
  if (options.sqlOut) {
    writeFileSync(resolve(options.sqlOut), `${statements.join("\n")}\n`);
    return;
  }
  const changed = deskChangedNights(
    options,
    toLoad.map(({ file }) => file.hotel.domain),
  );
  mkdirSync(".wrangler/tmp", { recursive: true });
  const sqlPath = resolve(".wrangler/tmp", `hotel-import-${Date.now()}.sql`);
  writeFileSync(sqlPath, `${statements.join("\n")}\n`);
  wrangler(["--yes", "--file", sqlPath], options);
  if (!options.remote) {
    for (const { path, file } of toLoad) loadedHashes[file.hotel.domain] = hashOf(path);
    mkdirSync(dirname(statePath), { recursive: true });
    writeFileSync(statePath, `${JSON.stringify(loadedHashes, null, 2)}\n`);
  }
  for (const { file } of toLoad) {
    const desk = changed.get(file.hotel.domain) ?? 0;
    const deskNote = options.resetDeskChanges
      ? `${desk} night(s) changed at the desk reset to the file`
      : `${desk} night(s) changed at the desk kept (--reset-desk-changes to overwrite them)`;
    console.log(
      `${file.hotel.domain}: loaded (${file.room_classes.length} room classes, ${file.rate_plans.length} rate plans; ${deskNote})`,
    );
  }
}

await main();
