/**
 * npm run rail:import -- <dir> [--remote] [--persist-to DIR] [--sql-out FILE]
 *
 * Loads THSR's stations, general timetable and origin–destination fares into D1 from the JSON TDX
 * publishes (/api/basic/v2/Rail/THSR/Station, GeneralTimetable, ODFare), saved in <dir> as
 * Station.json, GeneralTimetable.json and ODFare.json (any of the three may be left out). The
 * timetable and fares are replaced whole; stations are updated in place (decision 119). The demo's
 * sample is demo/thsr-sample/ (made up, labelled so); `npm start` loads it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { parseGeneralTimetable, parseOdFares, parseStations, railDataToSql, TdxFormatError, type RailData } from "~/backend/rail/tdx";

function fail(message: string): never {
  console.error(`rail:import: ${message}`);
  process.exit(1);
}

const argv = process.argv.slice(2);
let dir: string | undefined;
let remote = false;
let persistTo: string | undefined;
let sqlOut: string | undefined;
for (let index = 0; index < argv.length; index++) {
  const arg = argv[index] ?? "";
  if (arg === "--remote") remote = true;
  else if (arg === "--persist-to") persistTo = argv[++index];
  else if (arg === "--sql-out") sqlOut = argv[++index];
  else if (arg.startsWith("--")) fail(`unknown option ${arg}`);
  else if (dir === undefined) dir = resolve(arg);
  else fail(`one folder only (also got ${arg})`);
}
if (!dir) fail("give the folder holding Station.json, GeneralTimetable.json and ODFare.json (e.g. demo/thsr-sample)");

function read(name: string): unknown | undefined {
  const path = join(dir ?? ".", name);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    fail(`${path}: not a readable JSON file (${(error as Error).message})`);
  }
}

let data: RailData;
try {
  const stations = read("Station.json");
  const timetable = read("GeneralTimetable.json");
  const fares = read("ODFare.json");
  if (stations === undefined && timetable === undefined && fares === undefined) {
    fail(`${dir} holds none of Station.json, GeneralTimetable.json, ODFare.json`);
  }
  data = {
    stations: stations === undefined ? [] : parseStations(stations),
    trains: timetable === undefined ? [] : parseGeneralTimetable(timetable),
    fares: fares === undefined ? [] : parseOdFares(fares),
  };
} catch (error) {
  if (error instanceof TdxFormatError) fail(`${error.message}; nothing was loaded`);
  throw error;
}

const sql = `${railDataToSql(data).join("\n")}\n`;
if (sqlOut) {
  writeFileSync(resolve(sqlOut), sql);
} else {
  mkdirSync(".wrangler/tmp", { recursive: true });
  const sqlPath = resolve(".wrangler/tmp", `rail-import-${Date.now()}.sql`);
  writeFileSync(sqlPath, sql);
  const wranglerBin = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");
  const target = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  const result = spawnSync(process.execPath, [wranglerBin, "d1", "execute", "DB", ...target, "--yes", "--file", sqlPath], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    fail("wrangler d1 execute failed (are the migrations applied? npm run db:migrate)");
  }
}
console.log(
  `rail: ${data.stations.length} stations, ${data.trains.length} trains, ${data.fares.length} fares ${sqlOut ? `written to ${sqlOut}` : "loaded"}`,
);
