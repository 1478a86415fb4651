/**
 * npm run bench:forms — how long a guest waits on the two forms that matter, with JavaScript off
 * and on, on a slow phone: Chromium (CHROME_PATH, default /usr/bin/chromium) through Playwright,
 * with the network throttled by DevTools to 400 ms round trip and 400 kbit/s down and up (Slow
 * 4G as issue 26 defines it) and the CPU slowed down 4x (Emulation.setCPUThrottlingRate):
 *
 *   (a) search: on the booking page without parameters, new dates typed in, "Search" clicked,
 *       until the results of the new search are shown (an add-to-booking form for those dates);
 *   (b) place booking: on the checkout of one room (card payment, the sandbox gateway), "Place
 *       booking" clicked, until the pay page's first byte (its document; with JavaScript the
 *       POST's answer, which carries its data) and until its heading ("Payment due") is visible.
 *
 * With JavaScript on the page is first left to hydrate (the guest acts on the enhanced form).
 * Each step runs BENCH_FORMS_RUNS (2) times per mode, interleaved off, on, off, on, each in a new
 * browser context (empty cache), at the demo hotel taipei.localhost on a fresh database
 * (scripts/miniflare.mjs startPortico), each run a guest of its own (phone and email) and a stay of
 * its own. Every request the step starts before its end is logged (method, URL, type, from cache or
 * not); "round trips" is the longest chain of network requests (documents, data, scripts and
 * stylesheets, not photos nor the favicon) answered by the step's end, in which each starts after
 * the previous one ended: what the guest waited for in sequence, whatever ran beside it. The
 * table's "requests in all" counts every network request of the first run, photos included.
 *
 * Knobs: BENCH_PORT (8791), BENCH_FORMS_RUNS (2), BENCH_FORMS_RTT_MS (400), BENCH_FORMS_KBPS (400),
 * BENCH_FORMS_CPU (4), CHROME_PATH, BENCH_FORMS_FRAMES (a folder for the frames judged "on screen"). Builds first unless BENCH_FORMS_SKIP_BUILD=1 (npm run bench has built).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import jpeg from "jpeg-js";
import { chromium } from "playwright-core";
import { startPortico } from "./miniflare.mjs";

const PORT = process.env.BENCH_PORT ?? "8791";
const RUNS = Number(process.env.BENCH_FORMS_RUNS ?? 2);
const RTT_MS = Number(process.env.BENCH_FORMS_RTT_MS ?? 400);
const KBPS = Number(process.env.BENCH_FORMS_KBPS ?? 400);
const CPU = Number(process.env.BENCH_FORMS_CPU ?? 4);
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const ORIGIN = `http://taipei.localhost:${PORT}`;
const STEP_TIMEOUT_MS = 120_000;
/** BENCH_FORMS_FRAMES=dir: each step's frame judged "on screen", and the one before it, saved there to look at. */
const FRAMES_DIR = process.env.BENCH_FORMS_FRAMES;
if (FRAMES_DIR) mkdirSync(FRAMES_DIR, { recursive: true });

const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

function build() {
  const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  const result = spawnSync(process.execPath, [remix, "build"], { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("remix build failed");
}

/**
 * Every request of a page as DevTools sees it (redirects included, each hop its own entry), with
 * wall-clock times in ms: start, first byte (response headers), end; and whether the cache answered.
 */
async function recordRequests(cdp) {
  const entries = new Map();
  const all = [];
  let clockOffset = null; // wall ms - monotonic s * 1000
  const wall = (timestamp) => timestamp * 1000 + (clockOffset ?? 0);
  cdp.on("Network.requestWillBeSent", (event) => {
    if (clockOffset === null) clockOffset = event.wallTime * 1000 - event.timestamp * 1000;
    const previous = entries.get(event.requestId);
    if (previous && event.redirectResponse) {
      previous.firstByte ??= wall(event.timestamp);
      previous.end = wall(event.timestamp);
      previous.status = event.redirectResponse.status;
    }
    const entry = {
      method: event.request.method,
      url: event.request.url,
      type: event.type ?? "Other",
      start: wall(event.timestamp),
      firstByte: null,
      end: null,
      cached: false,
      status: null,
    };
    entries.set(event.requestId, entry);
    all.push(entry);
  });
  cdp.on("Network.requestServedFromCache", (event) => {
    const entry = entries.get(event.requestId);
    if (entry) entry.cached = true;
  });
  cdp.on("Network.responseReceived", (event) => {
    const entry = entries.get(event.requestId);
    if (!entry) return;
    entry.firstByte = wall(event.timestamp);
    entry.status = event.response.status;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) entry.cached = true;
  });
  cdp.on("Network.loadingFinished", (event) => {
    const entry = entries.get(event.requestId);
    if (entry) entry.end = wall(event.timestamp);
  });
  cdp.on("Network.loadingFailed", (event) => {
    const entry = entries.get(event.requestId);
    if (!entry) return;
    entry.end = wall(event.timestamp);
    entry.failed = event.errorText;
  });
  await cdp.send("Network.enable");
  /** Requests started from `from` until `until` (wall ms). */
  return { since: (from, until) => all.filter((entry) => entry.start >= from && entry.start <= until) };
}

/** What a page waits for before it can show itself: not images (lazy photos) nor the favicon ("Other"). */
const BLOCKING = new Set(["Document", "Fetch", "XHR", "Script", "Stylesheet"]);

/**
 * The longest chain of blocking network requests answered by `until` (their first byte; a document
 * may still stream), each starting after the previous one ended: the round trips the guest waited
 * for in sequence.
 */
function roundTrips(requests, until) {
  const network = requests
    .filter((entry) => !entry.cached && BLOCKING.has(entry.type) && entry.firstByte !== null && entry.firstByte <= until)
    .sort((a, b) => a.start - b.start);
  const depth = [];
  network.forEach((entry, index) => {
    let before = 0;
    for (let other = 0; other < index; other++)
      if (network[other].end !== null && network[other].end <= entry.start) before = Math.max(before, depth[other]);
    depth.push(before + 1);
  });
  return Math.max(0, ...depth);
}

async function newPage(browser, javaScriptEnabled) {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 412, height: 915 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const cdp = await context.newCDPSession(page);
  const log = await recordRequests(cdp);
  // Throttled from the first request: the guest is on this phone all along.
  const bytesPerSecond = (KBPS * 1000) / 8;
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: RTT_MS,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  return { context, page, log, cdp };
}

async function hydrated(page, javaScriptEnabled) {
  if (javaScriptEnabled) await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
}

/**
 * What the guest sees, frame by frame: Chromium's screencast of the viewport (frames come from the
 * compositor, with their own time stamps, whatever the page's main thread is doing). `shownAt()`
 * is the time (wall ms) of the first frame from `from` on in which 95 % of the pixels the step
 * changes (those that differ between the last frame before `from` and the settled one) have their
 * settled colour: when the step's answer was on screen, measured the same way with JavaScript off
 * (a new document) and on (the page redrawn in place).
 */
async function recordScreen(cdp) {
  const frames = [];
  const onFrame = (event) => {
    frames.push({ at: event.metadata.timestamp * 1000, data: event.data, cssHeight: event.metadata.deviceHeight });
    cdp.send("Page.screencastFrameAck", { sessionId: event.sessionId }).catch(() => undefined);
  };
  cdp.on("Page.screencastFrame", onFrame);
  // The look before the step: the screencast's first frame, waited for.
  const first = new Promise((resolve) => cdp.once("Page.screencastFrame", resolve));
  await cdp.send("Page.startScreencast", { format: "jpeg", quality: 90, everyNthFrame: 1 });
  await first;
  return {
    /** Resolves once no frame has come for `ms`. */
    async quiet(ms) {
      for (;;) {
        const count = frames.length;
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (frames.length === count) return;
      }
    },
    async shownAt(from, { top = 0 } = {}) {
      await cdp.send("Page.stopScreencast");
      cdp.off("Page.screencastFrame", onFrame);
      const last = frames.at(-1);
      const { width, height } = jpeg.decode(Buffer.from(last.data, "base64"), { useTArray: true });
      // Only the part of the viewport from `top` (CSS px) down: where the step's answer appears.
      const firstByte = Math.floor((top * height) / last.cssHeight) * width * 4;
      const decode = (frame) => jpeg.decode(Buffer.from(frame.data, "base64"), { useTArray: true }).data;
      const near = (a, b, at) => Math.abs(a[at] - b[at]) + Math.abs(a[at + 1] - b[at + 1]) + Math.abs(a[at + 2] - b[at + 2]) <= 48;
      const settled = decode(frames.at(-1));
      const before = frames.filter((frame) => frame.at < from).at(-1);
      // The pixels the step changes: those that differ between the look before the click and the settled one.
      const baseline = before ? decode(before) : null;
      const changed = [];
      for (let at = firstByte; at < settled.length; at += 4)
        if (!baseline || baseline.length !== settled.length || !near(baseline, settled, at)) changed.push(at);
      if (changed.length === 0) return from;
      for (const frame of frames) {
        if (frame.at < from) continue;
        const image = decode(frame);
        if (image.length !== settled.length) continue;
        const done = changed.reduce((count, at) => count + (near(image, settled, at) ? 1 : 0), 0);
        if (done / changed.length >= 0.95) {
          if (FRAMES_DIR) {
            const index = frames.indexOf(frame);
            const name = `${Date.now()}-${Math.round(frame.at - from)}ms`;
            writeFileSync(join(FRAMES_DIR, `${name}-shown.jpg`), Buffer.from(frame.data, "base64"));
            writeFileSync(join(FRAMES_DIR, `${name}-frame-before.jpg`), Buffer.from(frames[index - 1].data, "base64"));
          }
          return frame.at;
        }
      }
      return frames.at(-1).at;
    },
  };
}

/** After the step's end: its page left to settle (network quiet, then no new frame for a second), so the last frame is the settled look. */
async function settle(page, screen) {
  await page.waitForLoadState("networkidle");
  await screen.quiet(1000);
}

/** (a) A search on the booking page, until the new search's results are shown. */
async function searchStep(browser, javaScriptEnabled, offset) {
  const { context, page, log, cdp } = await newPage(browser, javaScriptEnabled);
  try {
    await page.goto(`${ORIGIN}/en-US/hxa/booking`, { waitUntil: "load" });
    await hydrated(page, javaScriptEnabled);
    const start = day(offset);
    const end = day(offset + 2);
    await page.locator("#search-start").fill(start);
    await page.locator("#search-end").fill(end);
    // The answer is what changes below the search form (the form itself changes at the click: focus, pressed button).
    const form = await page.locator(".booking-search").boundingBox();
    const screen = await recordScreen(cdp);
    const clicked = Date.now();
    await page.locator(".booking-search button[type=submit]").click({ noWaitAfter: true });
    await page.locator(`.booking-room .add-form[action*="start=${start}&end=${end}"]`).first().waitFor({ state: "visible" });
    const shown = Date.now();
    await settle(page, screen);
    const onScreen = await screen.shownAt(clicked, { top: form ? form.y + form.height : 0 });
    const requests = log.since(clicked - 5, shown);
    return { seconds: (shown - clicked) / 1000, onScreen: (onScreen - clicked) / 1000, requests, roundTrips: roundTrips(requests, shown) };
  } finally {
    await context.close();
  }
}

/** (b) "Place booking" on the checkout of one room, paid by card, until the pay page's first byte and heading. */
async function placeStep(browser, javaScriptEnabled, offset, guest) {
  const { context, page, log, cdp } = await newPage(browser, javaScriptEnabled);
  try {
    await page.goto(`${ORIGIN}/en-US/hxa/booking?start=${day(offset)}&end=${day(offset + 1)}`, { waitUntil: "load" });
    await hydrated(page, javaScriptEnabled);
    await page.locator(".booking-room .add-form button[type=submit]").first().click();
    await page.getByRole("link", { name: "Continue to checkout" }).click();
    await page.locator(".checkout-line").first().waitFor();
    await page.waitForLoadState("load");
    await hydrated(page, javaScriptEnabled);
    await page.locator("#booker_last_name").fill("Lin");
    await page.locator("#booker_first_name").fill("Mei");
    await page.locator("#booker_phone").fill(guest.phone);
    await page.locator("#booker_email").fill(guest.email);
    await page.locator("#occupant_name_0").fill("Mei Lin");
    await page.locator('input[name="payment"][value="1:credit"]').check();
    const screen = await recordScreen(cdp);
    const clicked = Date.now();
    await page.locator('button[name="intent"][value="order"]').click({ noWaitAfter: true });
    await page.locator("#main h1", { hasText: "Payment due" }).waitFor({ state: "visible" });
    const shown = Date.now();
    await settle(page, screen);
    const onScreen = await screen.shownAt(clicked);
    const requests = log.since(clicked - 5, shown);
    // The pay page's data: its document or its data, or with JavaScript the POST's answer that
    // hands it over (decision 127).
    const pay =
      requests.find(
        (entry) =>
          /\/pay\/\d+\//.test(entry.url) &&
          entry.method === "GET" &&
          entry.firstByte !== null &&
          (entry.type === "Document" || entry.url.includes(".data")),
      ) ?? requests.find((entry) => entry.method === "POST" && entry.url.includes("/checkout.data") && entry.firstByte !== null);
    if (!pay) throw new Error(`no request of the pay page among: ${requests.map((entry) => `${entry.method} ${entry.url}`).join(", ")}`);
    return {
      seconds: (shown - clicked) / 1000,
      onScreen: (onScreen - clicked) / 1000,
      firstByte: (pay.firstByte - clicked) / 1000,
      requests,
      roundTrips: roundTrips(requests, shown),
    };
  } finally {
    await context.close();
  }
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const cell = (values) => `${mean(values).toFixed(2)} (${values.map((value) => value.toFixed(2)).join(", ")})`;

function printRequests(title, requests) {
  console.log(`  ${title}`);
  for (const entry of requests) {
    const path = entry.url.replace(ORIGIN, "");
    const shown = path.length > 110 ? `${path.slice(0, 107)}...` : path;
    const when = entry.end === null ? "unfinished" : `${Math.round(entry.end - entry.start)} ms`;
    console.log(
      `    ${entry.method.padEnd(5)} ${String(entry.status ?? "-").padEnd(4)} ${entry.type.padEnd(11)} ${entry.cached ? "cache  " : "network"} ${when.padStart(8)}  ${shown}`,
    );
  }
}

async function main() {
  if (process.env.BENCH_FORMS_SKIP_BUILD !== "1") build();
  const server = await startPortico({
    port: PORT,
    state: `.wrangler/bench-forms-state-${PORT}`,
    vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
  });
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  const results = { search: { off: [], on: [] }, place: { off: [], on: [] } };
  const stamp = Date.now() % 1_000_000;
  try {
    let run = 0;
    for (let round = 0; round < RUNS; round++) {
      for (const mode of ["off", "on"]) {
        run += 1;
        const javaScriptEnabled = mode === "on";
        // A stay and a guest of its own per run: no run's booking changes another's page, and holds count per guest.
        const guest = {
          phone: `09${String(30_000_000 + ((stamp + run) % 10_000_000)).padStart(8, "0")}`,
          email: `forms-${stamp}-${run}@example.com`,
        };
        results.search[mode].push(await searchStep(browser, javaScriptEnabled, 40 + run * 3));
        results.place[mode].push(await placeStep(browser, javaScriptEnabled, 90 + run * 3, guest));
        console.log(
          `run ${round + 1}, JavaScript ${mode}: search ${results.search[mode].at(-1).seconds.toFixed(2)} s (on screen ${results.search[mode].at(-1).onScreen.toFixed(2)} s), place booking ${results.place[mode].at(-1).firstByte.toFixed(2)} s to the pay page's first byte, ${results.place[mode].at(-1).seconds.toFixed(2)} s to its heading (on screen ${results.place[mode].at(-1).onScreen.toFixed(2)} s)`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.dispose();
  }

  console.log(`\nRequests of each step's first run (after the click), Slow 4G (${RTT_MS} ms, ${KBPS} kbit/s) and ${CPU}x CPU slowdown:`);
  for (const [step, title] of [
    ["search", "search"],
    ["place", "place booking"],
  ]) {
    for (const mode of ["off", "on"]) printRequests(`${title}, JavaScript ${mode}:`, results[step][mode][0].requests);
  }
  console.log(
    `\nForms on a slow phone: seconds from the click, mean of ${RUNS} runs (each run); round trips in sequence (requests in all)`,
  );
  const rows = [
    ["search: results shown", results.search, "seconds"],
    ["search: results on screen", results.search, "onScreen"],
    ["place booking: pay page first byte", results.place, "firstByte"],
    ["place booking: pay page heading", results.place, "seconds"],
    ["place booking: pay page on screen", results.place, "onScreen"],
  ];
  console.log(
    `${"step".padEnd(38)}${"JS off s".padStart(28)}${"JS on s".padStart(28)}${"round trips off".padStart(18)}${"on".padStart(10)}`,
  );
  for (const [label, step, key] of rows) {
    const trips = (mode) =>
      `${step[mode].map((entry) => entry.roundTrips).join("/")} (${step[mode][0].requests.filter((entry) => !entry.cached && !entry.url.startsWith("data:")).length})`;
    console.log(
      `${label.padEnd(38)}${cell(step.off.map((entry) => entry[key])).padStart(28)}${cell(step.on.map((entry) => entry[key])).padStart(28)}${trips("off").padStart(18)}${trips("on").padStart(10)}`,
    );
  }
}

await main();
