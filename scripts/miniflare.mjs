/**
 * The built Worker run by Miniflare's own API (no `wrangler dev` process): its bindings, variables
 * and static assets (public/, with run_worker_first) as wrangler.toml declares them, and a fresh
 * D1 database with every migration and the demo hotels loaded. Used by the browser tests' server
 * (scripts/serve-test.mjs) and the benches. `npm start` stays on `wrangler dev`. MINIFLARE_LOG
 * (INFO, DEBUG, VERBOSE) prints the engine's own log (requests, the Worker's console), for a bench
 * that needs to be looked into; none by default.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";

const require = createRequire(import.meta.url);

/** Runs SQL text statement by statement (triggers included), in batches. */
async function runSql(db, sql) {
  const statements = unstable_splitSqlQuery(sql).filter((statement) => statement.trim() !== "");
  for (let at = 0; at < statements.length; at += 200) {
    await db.batch(statements.slice(at, at + 200).map((statement) => db.prepare(statement)));
  }
}

/** The demo hotels as the import command writes them (hotel files validated, passwords hashed). */
function demoSql(dir) {
  const out = join(dir, "demo-hotels.sql");
  const tsx = require.resolve("tsx/cli");
  const result = spawnSync(process.execPath, [tsx, "scripts/hotel-import.ts", "--demo", "--sql-out", out], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("the demo hotels did not validate");
  // The rail sample (demo/thsr-sample, decision 119): timetable and fares for the demo's rail tickets.
  const rail = join(dir, "demo-rail.sql");
  const railResult = spawnSync(process.execPath, [tsx, "scripts/rail-import.ts", "demo/thsr-sample", "--sql-out", rail], {
    stdio: "inherit",
  });
  if (railResult.status !== 0) throw new Error("the rail sample did not load");
  return `${readFileSync(out, "utf8")}\n${readFileSync(rail, "utf8")}`;
}

function options({ state, vars, port, inspectorPort, script = "build/index.js" }) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
  return {
    ...workerOptions,
    name: "portico",
    // One bundled module (remix build); listed, not walked: the bundle holds a dynamic import().
    modules: [{ type: "ESModule", path: resolve(script) }],
    bindings: { ...workerOptions.bindings, ...vars },
    d1Persist: join(state, "d1"),
    cachePersist: false,
    host: "127.0.0.1",
    port,
    ...(process.env.MINIFLARE_LOG ? { log: new Log(LogLevel[process.env.MINIFLARE_LOG] ?? LogLevel.DEBUG) } : {}),
    // V8's inspector on this port (npm run profile); none by default.
    ...(inspectorPort ? { inspectorPort } : {}),
  };
}

/**
 * Starts the built Worker on 127.0.0.1:`port` over a new database in `state` (deleted first).
 * `vars` override wrangler.toml's variables (SESSION_SECRET, bench knobs); `inspectorPort` opens
 * V8's inspector (npm run profile); `script` is the built Worker (build/index.js unless another
 * build is compared, scripts/bench-variants.mjs). Resolves once it serves.
 */
export async function startPortico({ port, state, vars = {}, inspectorPort, script }) {
  rmSync(state, { recursive: true, force: true });
  mkdirSync(state, { recursive: true });
  // Loaded before the port opens: whoever waits for the server finds every demo hotel there.
  const loader = new Miniflare({ ...options({ state, vars, port: 0 }) });
  try {
    const db = await loader.getD1Database("DB");
    for (const file of readdirSync("migrations")
      .filter((name) => name.endsWith(".sql"))
      .sort()) {
      await runSql(db, readFileSync(join("migrations", file), "utf8"));
    }
    await runSql(db, demoSql(state));
  } finally {
    await loader.dispose();
  }
  const server = new Miniflare(options({ state, vars, port: Number(port), inspectorPort, script }));
  await server.ready;
  return server;
}

/**
 * Several Workers built elsewhere (the bench's bare page and same-shape floor) on one port, in one
 * engine: each { name, scriptPath, routes?, bindings?, d1Databases? (binding names, in memory) }; a
 * request goes to the Worker whose route (e.g. "shape.localhost/*") matches its Host, else to the
 * first.
 */
export async function startWorkers({ port, workers }) {
  const compatibilityDate = unstable_getMiniflareWorkerOptions("wrangler.toml").workerOptions.compatibilityDate;
  const server = new Miniflare({
    workers: workers.map(({ name, scriptPath, routes, bindings, d1Databases }) => ({
      name,
      modules: [{ type: "ESModule", path: resolve(scriptPath) }],
      compatibilityDate,
      ...(routes ? { routes } : {}),
      ...(bindings ? { bindings } : {}),
      ...(d1Databases ? { d1Databases } : {}),
    })),
    host: "127.0.0.1",
    port: Number(port),
  });
  await server.ready;
  return server;
}

/** A Worker built elsewhere (the bench's bare Remix app): its script and assets, no bindings. */
export async function startWorker({ port, scriptPath, assets }) {
  const server = new Miniflare({
    name: "bare",
    modules: [{ type: "ESModule", path: resolve(scriptPath) }],
    compatibilityDate: unstable_getMiniflareWorkerOptions("wrangler.toml").workerOptions.compatibilityDate,
    ...(assets ? { assets: { directory: resolve(assets), binding: "ASSETS" } } : {}),
    host: "127.0.0.1",
    port: Number(port),
  });
  await server.ready;
  return server;
}

/**
 * A reader of the CPU time, in ms, that the engine listening on `port` has used: each Miniflare
 * runs its own workerd, and every Worker and Durable Object of it runs on that process's main
 * thread, so the thread's CPU time read before and after a request is what the request cost the
 * engine, D1 included. On a shared machine it moves far less than wall time (decision 130). Null
 * where it cannot be read (no `ss`, no /proc: not Linux).
 */
export function engineCpuReader(port) {
  try {
    const listening = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const pid = /pid=(\d+)/.exec(listening)?.[1];
    if (!pid) return null;
    const file = `/proc/${pid}/task/${pid}/schedstat`;
    const read = () => Number(readFileSync(file, "utf8").split(" ")[0]) / 1e6;
    return Number.isFinite(read()) ? read : null;
  } catch {
    return null;
  }
}
