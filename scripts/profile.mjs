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
 *   npm run profile -- --pdf [lang]                  the booking confirmation PDF, in each language or one
 *   npm run profile -- /en-US/hxa/orders/X/confirmation.pdf   the same, in the path's language
 *
 * A confirmation PDF needs an order the request may see: the fresh database has none, so the
 * profile first places one (POST /api/ota/order/personal-new, one room for one night at the demo
 * hotel) and asks /{lang}/hxa/orders/{its number}/confirmation.pdf with its signed view link
 * (?valid_hash=…, app/features/orders/access.server.ts); whatever order number the path names is
 * replaced by it. Any answer other than 200 application/pdf stops the profile (it would measure an
 * error page). For each language it reports the Worker's CPU per PDF, and the isolate's V8 heap
 * before and right after a burst of ten PDFs asked at once, and two seconds later.
 *
 * Knobs: PROFILE_PORT (8793), PROFILE_INSPECTOR_PORT (9230), PROFILE_REQUESTS (300; 30 for PDFs),
 * PROFILE_WARMUP (20; 3 for PDFs), PROFILE_HOST (taipei.localhost), PROFILE_TOP (30; 12 for PDFs).
 * The build left behind is unminified: `npm run build` before deploying.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import WebSocket from "ws";
import { startPortico } from "./miniflare.mjs";

const LANGUAGES = ["zh-TW", "en-US", "zh-CN", "ja-JP", "ko-KR"];
/** The demo hotels' main language: its paths carry no prefix. */
const MAIN_LANGUAGE = "zh-TW";
const PDF_PATH = /^(?:\/([a-z]{2}-[A-Z]{2}))?\/([^/]+)\/orders\/([^/]+)\/confirmation\.pdf/;

const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const args = process.argv.slice(2);
/** The languages whose confirmation PDF is profiled (--pdf [lang], or a PDF path); none for a page. */
const pdfLanguages =
  args[0] === "--pdf"
    ? args[1]
      ? [args[1]]
      : LANGUAGES
    : PDF_PATH.test(args[0] ?? "")
      ? [PDF_PATH.exec(args[0])[1] ?? MAIN_LANGUAGE]
      : [];
for (const lang of pdfLanguages) if (!LANGUAGES.includes(lang)) throw new Error(`--pdf: ${lang} is not one of ${LANGUAGES.join(", ")}`);
const pdf = pdfLanguages.length > 0;
const pagePath = args[0] ?? `/en-US/hxa/booking?start=${day(30)}&end=${day(32)}&adults=2&children=0&room=1`;

const PORT = Number(process.env.PROFILE_PORT ?? 8793);
const INSPECTOR_PORT = Number(process.env.PROFILE_INSPECTOR_PORT ?? 9230);
const REQUESTS = Number(process.env.PROFILE_REQUESTS ?? (pdf ? 30 : 300));
const WARMUP = Number(process.env.PROFILE_WARMUP ?? (pdf ? 3 : 20));
const HOST = process.env.PROFILE_HOST ?? "taipei.localhost";
const TOP = Number(process.env.PROFILE_TOP ?? (pdf ? 12 : 30));
const OUT = process.env.PROFILE_OUT ?? ".wrangler/profile.cpuprofile";

function build() {
  const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  const result = spawnSync(process.execPath, [remix, "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SERVER_MINIFY: "0" },
  });
  if (result.status !== 0) throw new Error("remix build failed");
}

const agent = new Agent({ keepAlive: false });
/** Node does not resolve *.localhost: connect to 127.0.0.1 and send the Host header. Resolves { status, type, bytes, body }. */
function call(path, { method = "GET", body } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers = {
      host: `${HOST}:${PORT}`,
      ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
    };
    const req = request({ host: "127.0.0.1", port: PORT, path, method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const all = Buffer.concat(chunks);
        resolve({
          status: res.statusCode,
          type: res.headers["content-type"] ?? "",
          cache: res.headers["x-pdf-cache"] ?? "",
          bytes: all.length,
          body: all,
        });
      });
    });
    req.on("error", reject);
    req.end(payload);
  });
}
/** Counts of the PDF cache's answers (x-pdf-cache), to show that what was measured was built. */
const cacheAnswers = new Map();
/** A PDF asked: its status; a cache HIT or MISS is counted. */
const getCounted = async (path) => {
  const answer = await call(path);
  if (answer.cache) cacheAnswers.set(answer.cache, (cacheAnswers.get(answer.cache) ?? 0) + 1);
  return answer.status;
};

/** An order the profile may see, placed through the back end as the checkout places it: its number and view link. */
async function placeOrder(offset = 0) {
  const start = day(45 + (offset % 300));
  const end = day(46 + (offset % 300));
  const search = await call(`/api/ota/room/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${end}&lang=en-US`);
  const rooms = JSON.parse(search.body.toString("utf8")).data?.rooms ?? [];
  const room = rooms.find((candidate) => candidate.price_set.some((plan) => !plan.members_only));
  if (!room) throw new Error(`no room to book at ${HOST} on ${start}`);
  const plan = room.price_set.find((candidate) => !candidate.members_only);
  const created = await call("/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    body: {
      domain: HOST,
      booker_first_name: "Mei",
      booker_last_name: "Lin",
      booker_phone: "0912345678",
      booker_email: `profile+${offset}@example.com`,
      booking_from: "HXA",
      check_in_day: start,
      check_out_day: end,
      pay_way: "remittance",
      payment_vendor: 8,
      pay_option: "all",
      orders: [{ room_class_id: room.room_class_id, proposal_id: plan.proposal_id, num: 1, occupant_name: "Mei Lin" }],
      adults_count: Math.min(2, room.people ?? 2),
      children_count: 0,
    },
  });
  if (created.status !== 201) throw new Error(`placing an order failed: ${created.status} ${created.body.toString("utf8").slice(0, 300)}`);
  const { order_doc: doc, order } = JSON.parse(created.body.toString("utf8")).data;
  return { doc, hash: order.valid_hash };
}

/** The confirmation PDF's path in a language, for the placed order; the product (hxa) from the given path if any. */
function pdfPath(lang, order) {
  const product = PDF_PATH.exec(args[0] ?? "")?.[2] ?? "hxa";
  const prefix = lang === MAIN_LANGUAGE ? "" : `/${lang}`;
  return `${prefix}/${product}/orders/${encodeURIComponent(order.doc)}/confirmation.pdf?valid_hash=${encodeURIComponent(order.hash)}`;
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
      new Promise((resolve, reject) => {
        id += 1;
        const timer = setTimeout(() => reject(new Error(`the inspector did not answer ${method}`)), 120_000);
        waiting.set(id, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
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

/**
 * Warm-up, then PROFILE_REQUESTS requests under V8's sampling profiler; the profile. `pathAt(i)` is
 * the i-th request's path: for PDFs each one names another order, so every PDF measured is built
 * (the edge cache of decision 113 would otherwise answer all but the first).
 */
async function profile(inspector, pathAt) {
  for (let index = 0; index < WARMUP; index += 1) await getCounted(pathAt(index));
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.send("Profiler.start");
  for (let index = 0; index < REQUESTS; index += 1) await getCounted(pathAt(WARMUP + index));
  const { result } = await inspector.send("Profiler.stop");
  return result.profile;
}

/**
 * The isolate's V8 heap in MB (used of total): before, right after ten requests at once, and two
 * seconds later. workerd's inspector does not answer HeapProfiler.collectGarbage, so no GC is forced.
 */
async function heapAfterBurst(inspector, pathAt) {
  const heap = async () => {
    const { result } = await inspector.send("Runtime.getHeapUsage");
    return { used: result.usedSize / 1024 / 1024, total: result.totalSize / 1024 / 1024 };
  };
  const before = await heap();
  const statuses = await Promise.all(Array.from({ length: 10 }, (_, index) => getCounted(pathAt(WARMUP + REQUESTS + index))));
  if (statuses.some((status) => status !== 200)) throw new Error(`the burst answered ${statuses.join(", ")}`);
  const after = await heap();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return { before, after, later: await heap() };
}

/** The output file of one profile: PROFILE_OUT, with the language before the extension for PDFs. */
const outFor = (lang) => (lang ? OUT.replace(/(\.cpuprofile)?$/, `-${lang}$1`) : OUT);

build();
const server = await startPortico({
  port: PORT,
  state: ".wrangler/profile-state",
  vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
  inspectorPort: INSPECTOR_PORT,
});
try {
  // One order per PDF asked (the first check, the warm-up, the profile and the burst): each language's PDF of each is built once.
  const orders = [];
  if (pdf) for (let index = 0; index < 1 + WARMUP + REQUESTS + 10; index += 1) orders.push(await placeOrder(index));
  const order = orders[0] ?? null;
  const targets = pdf
    ? pdfLanguages.map((lang) => ({ lang, path: pdfPath(lang, order), pathAt: (index) => pdfPath(lang, orders[1 + index]) }))
    : [{ lang: null, path: pagePath, pathAt: () => pagePath }];
  const inspector = await inspect();
  const rows = [];
  for (const { lang, path, pathAt } of targets) {
    const first = await call(path);
    if (first.status >= 500) throw new Error(`${path} answered ${first.status}`);
    if (pdf && (first.status !== 200 || !first.type.startsWith("application/pdf")))
      throw new Error(`${path} answered ${first.status} ${first.type}, not a PDF`);
    const result = await profile(inspector, pathAt);
    writeFileSync(outFor(lang), JSON.stringify(result));
    const { total, self, inclusive } = summarize(result);
    console.log(
      `\n${path} on ${HOST} (HTTP ${first.status}, ${first.type.split(";")[0]}, ${first.bytes} bytes), ${REQUESTS} requests profiled`,
    );
    console.log(
      `Worker CPU per request, sampled (the profiler slows it down; compare shares, not times): ${(total / REQUESTS).toFixed(2)} ms`,
    );
    printTop("Own time per request", self);
    printTop("With what they call, per request", inclusive);
    console.log(`\nWhole profile: ${outFor(lang)} (DevTools, Performance, "Load profile")`);
    if (pdf) rows.push({ lang, bytes: first.bytes, cpu: total / REQUESTS, heap: await heapAfterBurst(inspector, pathAt) });
  }
  inspector.close();
  if (pdf) {
    console.log(
      `\nConfirmation PDF of order ${order.doc}: Worker CPU per PDF (sampled, ${REQUESTS} PDFs each), V8 heap of the isolate in MB around a burst of ten at once`,
    );
    console.log(
      `${"language".padEnd(10)}${"bytes".padStart(9)}${"CPU ms/PDF".padStart(12)}${"heap before".padStart(15)}${"after ten".padStart(15)}${"2 s later".padStart(15)}`,
    );
    const mb = ({ used, total }) => `${used.toFixed(1)}/${total.toFixed(1)}`.padStart(15);
    for (const { lang, bytes, cpu, heap } of rows) {
      console.log(
        `${lang.padEnd(10)}${String(bytes).padStart(9)}${cpu.toFixed(1).padStart(12)}${mb(heap.before)}${mb(heap.after)}${mb(heap.later)}`,
      );
    }
    console.log("(heap: used/total MB of the Worker's isolate, all languages in one isolate one after the other)");
    console.log(
      `PDF cache answers (x-pdf-cache) of the PDFs measured: ${[...cacheAnswers].map(([answer, n]) => `${answer} ${n}`).join(", ")}`,
    );
  }
} finally {
  agent.destroy();
  await server.dispose();
}
