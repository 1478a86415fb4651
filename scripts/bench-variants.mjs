/**
 * node scripts/bench-variants.mjs name=path/to/index.js name=path/to/other.js … — several builds of
 * the Worker side by side, to find where a page's time goes by taking one part away (decisions 110
 * and 122). Each build runs under Miniflare on its own port (BENCH_PORT and the next ones) over a
 * fresh database with the demo hotels; the bare Remix page (bench/bare/, built first) on
 * BENCH_BARE_PORT. Each round asks the bare page, then every build's pages (the order of the builds
 * turned by one every round, so each build is asked in each place as often), and the run prints each page's median as a ratio to the bare page's
 * and to the first build's. The machine is shared: only the ratios of one run mean anything.
 * Beside each median of wall time it gives the median of the engine's CPU per request
 * (engineCpuReader in scripts/miniflare.mjs), which moves far less: two copies of one build differ
 * by 0.5 % over 800 rounds (decision 130).
 * With BENCH_FLOOR=1 the same-shape floor (bench/shape/build, as `npm run bench` or `npm run
 * bench:shape` and a build of bench/shape/ left it) runs too, on BENCH_BARE_PORT + 1, and each
 * page is also given as a ratio to it.
 * Knobs: BENCH_ROUNDS (200), BENCH_PAGES (booking,shell), BENCH_PORT (8791), BENCH_BARE_PORT (8792).
 * Make a build: change app/, `npm run build`, copy build/index.js away; repeat.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import { engineCpuReader, startPortico, startWorker } from "./miniflare.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8791);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 8792);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const DOMAIN = "taipei.localhost";
const agent = new Agent({ keepAlive: false });
/** Each server's engine CPU reader by port (scripts/miniflare.mjs), found once it listens. */
const cpuReaders = new Map();

const builds = process.argv.slice(2).map((arg) => {
  const [name, script] = arg.split("=");
  if (!name || !script) throw new Error(`expected name=path/to/index.js, got ${arg}`);
  return { name, script };
});
if (builds.length === 0) throw new Error("usage: node scripts/bench-variants.mjs name=build.js [name=build.js …]");

function get(port, path, host) {
  const cpuOf = cpuReaders.get(port);
  const cpuBefore = cpuOf ? cpuOf() : 0;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request({ host: "127.0.0.1", port, path, headers: { host: `${host}:${port}` }, agent }, (res) => {
      res.on("data", () => undefined);
      res.on("end", () =>
        resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, cpu: cpuOf ? cpuOf() - cpuBefore : NaN }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const PAGES = {
  booking: `/en-US/hxa/booking?start=${day(30)}&end=${day(32)}&adults=2&children=0&room=1`,
  shell: "/en-US/hxa/booking",
  home: "/en-US",
  search: `/api/ota/room/empty-by-date?domain=${DOMAIN}&lang=en-US&start_date=${day(30)}&end_date=${day(32)}`,
};
const pages = (process.env.BENCH_PAGES ?? "booking,shell").split(",").map((name) => [name, PAGES[name]]);

const require = createRequire(import.meta.url);
const built = spawnSync(process.execPath, [require.resolve("@remix-run/dev/dist/cli.js"), "build"], { cwd: "bench/bare", stdio: "ignore" });
if (built.status !== 0) throw new Error("bench/bare did not build");
const secret = randomBytes(32).toString("base64url");
const servers = [];
try {
  servers.push(await startWorker({ port: BARE_PORT, scriptPath: "bench/bare/build/index.js" }));
  const floor = process.env.BENCH_FLOOR === "1";
  if (floor) servers.push(await startWorker({ port: BARE_PORT + 1, scriptPath: "bench/shape/build/index.js" }));
  for (const [index, build] of builds.entries()) {
    build.port = PORT + index;
    servers.push(
      await startPortico({
        port: build.port,
        state: `.wrangler/variants-${build.port}`,
        vars: { SESSION_SECRET: secret },
        script: build.script,
      }),
    );
  }
  for (const port of [BARE_PORT, ...(floor ? [BARE_PORT + 1] : []), ...builds.map((build) => build.port)]) {
    const reader = engineCpuReader(port);
    if (reader) cpuReaders.set(port, reader);
  }
  /** Each page's wall time and engine CPU per request, by "bare", "floor" or "<build> <page>". */
  const samples = {};
  const record = (key, answer) => {
    samples[key] ??= { ms: [], cpu: [] };
    samples[key].ms.push(answer.ms);
    samples[key].cpu.push(answer.cpu);
  };
  const round = async (recording) => {
    const bare = await get(BARE_PORT, "/", "127.0.0.1");
    if (recording) record("bare", bare);
    if (floor) {
      const shape = await get(BARE_PORT + 1, PAGES.booking, "shape.localhost");
      if (shape.status !== 200) throw new Error(`the floor answered ${shape.status}`);
      if (recording) record("floor", shape);
    }
    const turn = recording % builds.length;
    for (const build of [...builds.slice(turn), ...builds.slice(0, turn)]) {
      for (const [page, path] of pages) {
        const answer = await get(build.port, path, DOMAIN);
        if (answer.status !== 200) throw new Error(`${build.name} ${page} answered ${answer.status}`);
        if (recording) record(`${build.name} ${page}`, answer);
      }
    }
  };
  for (let warm = 0; warm < 5; warm++) await round(0);
  for (let index = 1; index <= ROUNDS; index++) await round(index);
  const bare = median(samples.bare.ms);
  const floorMs = floor ? median(samples.floor.ms) : NaN;
  const bareCpu = median(samples.bare.cpu);
  const floorCpu = floor ? median(samples.floor.cpu) : NaN;
  console.log(
    `median of ${ROUNDS} interleaved rounds; bare page ${bare.toFixed(2)} ms (engine CPU ${bareCpu.toFixed(2)} ms)${floor ? `, floor ${floorMs.toFixed(2)} ms (${(floorMs / bare).toFixed(2)}x bare; engine CPU ${floorCpu.toFixed(2)} ms)` : ""}`,
  );
  console.log(
    `${"build page".padEnd(28)}${"ms".padStart(8)}${"x bare".padStart(9)}${`x ${builds[0].name}`.padStart(14)}${floor ? "x floor".padStart(10) : ""}${"CPU ms".padStart(10)}${`x ${builds[0].name}`.padStart(14)}${floor ? "x floor".padStart(10) : ""}`,
  );
  for (const [page] of pages) {
    const first = median(samples[`${builds[0].name} ${page}`].ms);
    const firstCpu = median(samples[`${builds[0].name} ${page}`].cpu);
    for (const build of builds) {
      const ms = median(samples[`${build.name} ${page}`].ms);
      const used = median(samples[`${build.name} ${page}`].cpu);
      console.log(
        `${`${build.name} ${page}`.padEnd(28)}${ms.toFixed(2).padStart(8)}${`${(ms / bare).toFixed(2)}x`.padStart(9)}${`${(ms / first).toFixed(3)}x`.padStart(14)}${floor ? `${(ms / floorMs).toFixed(2)}x`.padStart(10) : ""}` +
          `${used.toFixed(2).padStart(10)}${`${(used / firstCpu).toFixed(3)}x`.padStart(14)}${floor ? `${(used / floorCpu).toFixed(2)}x`.padStart(10) : ""}`,
      );
    }
  }
} finally {
  agent.destroy();
  for (const server of servers) await server.dispose();
}
