/**
 * npm run profile — where the Worker's CPU goes on one page (decision 046).
 *
 * Builds Portico without minifying the server (SERVER_MINIFY=0, so the profile names functions),
 * starts it under Miniflare on a fresh database with the demo hotels and V8's inspector open,
 * asks the page PROFILE_WARMUP times, then PROFILE_REQUESTS times while V8's sampling profiler
 * runs, and prints the heaviest functions per request: by their own time, and with what they call.
 * The whole profile is written to PROFILE_OUT (default .wrangler/profile.cpuprofile), which
 * Chromium's DevTools open (Performance, "Load profile").
 *
 *   npm run profile                                  booking results, 30 days ahead, 2 nights
 *   npm run profile -- /en-US/hxa/booking?start=x    any path of the demo hotel taipei.localhost
 *
 * Knobs: PROFILE_PORT (8793), PROFILE_INSPECTOR_PORT (9230), PROFILE_REQUESTS (300),
 * PROFILE_WARMUP (20), PROFILE_HOST (taipei.localhost), PROFILE_TOP (30).
 * The build left behind is unminified: `npm run build` before deploying.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import WebSocket from "ws";
import { startPortico } from "./miniflare.mjs";

const PORT = Number(process.env.PROFILE_PORT ?? 8793);
const INSPECTOR_PORT = Number(process.env.PROFILE_INSPECTOR_PORT ?? 9230);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? 300);
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 20);
const HOST = process.env.PROFILE_HOST ?? "taipei.localhost";
const TOP = Number(process.env.PROFILE_TOP ?? 30);
const OUT = process.env.PROFILE_OUT ?? ".wrangler/profile.cpuprofile";

const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const path = process.argv[2] ?? `/en-US/hxa/booking?start=${day(30)}&end=${day(32)}&adults=2&children=0&room=1`;

function build() {
  const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  const result = spawnSync(process.execPath, [remix, "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SERVER_MINIFY: "0" },
  });
  if (result.status !== 0) throw new Error("remix build failed");
}

const agent = new Agent({ keepAlive: false });
/** Node does not resolve *.localhost: connect to 127.0.0.1 and send the Host header. */
function get() {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: PORT, path, headers: { host: `${HOST}:${PORT}` }, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A Chrome DevTools Protocol session with the Worker's isolate. */
async function inspect() {
  const socket = new WebSocket(`ws://127.0.0.1:${INSPECTOR_PORT}/core:user:portico`);
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  let id = 0;
  const waiting = new Map();
  socket.on("message", (message) => {
    const reply = JSON.parse(String(message));
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        id += 1;
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Self and inclusive milliseconds per request of each function in a V8 CPU profile. */
function summarize(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const sampled = new Map();
  profile.samples.forEach((nodeId, index) => sampled.set(nodeId, (sampled.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
  const name = ({ callFrame }) =>
    `${callFrame.functionName || "(anonymous)"} ${callFrame.url.split("/").pop()}:${callFrame.lineNumber + 1}`;
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = sampled.get(node.id) ?? 0;
    if (ms === 0) continue;
    total += ms;
    self.set(name(node), (self.get(name(node)) ?? 0) + ms);
    const seen = new Set();
    for (let at = node.id; at !== undefined; at = parents.get(at)) {
      const key = name(nodes.get(at));
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  return { total, self, inclusive };
}

function printTop(title, entries) {
  console.log(`\n${title}`);
  for (const [key, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${(ms / REQUESTS).toFixed(3).padStart(9)} ms  ${key}`);
}

build();
const server = await startPortico({
  port: PORT,
  state: ".wrangler/profile-state",
  vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
  inspectorPort: INSPECTOR_PORT,
});
try {
  const status = await get();
  if (status >= 500) throw new Error(`${path} answered ${status}`);
  for (let index = 0; index < WARMUP; index += 1) await get();
  const inspector = await inspect();
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.send("Profiler.start");
  for (let index = 0; index < REQUESTS; index += 1) await get();
  const { result } = await inspector.send("Profiler.stop");
  inspector.close();
  writeFileSync(OUT, JSON.stringify(result.profile));
  const { total, self, inclusive } = summarize(result.profile);
  console.log(`${path} on ${HOST} (HTTP ${status}), ${REQUESTS} requests profiled`);
  console.log(
    `Worker CPU per request, sampled (the profiler slows it down; compare shares, not times): ${(total / REQUESTS).toFixed(2)} ms`,
  );
  printTop("Own time per request", self);
  printTop("With what they call, per request", inclusive);
  console.log(`\nWhole profile: ${OUT} (DevTools, Performance, "Load profile")`);
} finally {
  agent.destroy();
  await server.dispose();
}
