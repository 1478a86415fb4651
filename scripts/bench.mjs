/**
 * npm run bench — Lighthouse (mobile profile: simulated Slow 4G, 4x CPU slowdown) on the demo
 * hotel's home, a room page and the events page, plus the gzipped bytes of HTML, CSS and JS each
 * page loads. Uses Debian's Chromium (CHROME_PATH, default /usr/bin/chromium). Starts its own
 * server on a fresh database unless BENCH_URL is given (e.g. BENCH_URL=http://taipei.localhost:8787).
 */
import { spawn } from "node:child_process";
import { request } from "node:http";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const PORT = process.env.BENCH_PORT ?? "8791";
const BASE = process.env.BENCH_URL ?? `http://taipei.localhost:${PORT}`;
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";

/** Node does not resolve *.localhost: connect to 127.0.0.1 and send the Host header. */
function get(url) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: target.port || 80, path: target.pathname + target.search, headers: { host: target.host } },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function waitForServer() {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await get(`${BASE}/api/health`)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no server at ${BASE}`);
}

async function bytesOf(path) {
  const page = await get(`${BASE}${path}`);
  const html = page.body.toString("utf8");
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]);
  const js = [
    ...[...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((match) => match[1]),
    ...[...html.matchAll(/import\s*(?:[^"']*from\s*)?["']([^"']+\.js)["']/g)].map((match) => match[1]),
  ];
  const gz = async (urls) => {
    let total = 0;
    for (const url of new Set(urls)) total += gzipSync((await get(new URL(url, BASE).toString())).body).length;
    return total;
  };
  const inlineScripts = [...html.matchAll(/<script(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join("");
  return {
    html: gzipSync(page.body).length,
    css: await gz(css),
    js: (await gz(js)) + (inlineScripts ? gzipSync(inlineScripts).length : 0),
  };
}

async function main() {
  let server;
  if (!process.env.BENCH_URL) {
    server = spawn(process.execPath, ["scripts/serve-test.mjs"], { env: { ...process.env, PORT }, stdio: ["ignore", "ignore", "inherit"] });
  }
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  try {
    await waitForServer();
    const sitemap = (await get(`${BASE}/sitemap.xml`)).body.toString("utf8");
    const room = /\/room\/(\d+)</.exec(sitemap)?.[1];
    const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
    const pages = [
      ["home", "/"],
      ["room", `/room/${room}`],
      ["events", "/event"],
      ["booking", `/hxa/booking?start=${day(30)}&end=${day(32)}&adults=2&children=0&room=1`],
    ];
    console.log(`Lighthouse ${"mobile"} on ${BASE} (Chromium: ${CHROME})`);
    console.log("page     perf  LCP ms   FCP ms   TBT ms  CLS     HTML gz  CSS gz  JS gz   HTML+CSS gz");
    for (const [name, path] of pages) {
      const result = await lighthouse(`${BASE}${path}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
      const audits = result.lhr.audits;
      const score = Math.round((result.lhr.categories.performance.score ?? 0) * 100);
      const bytes = await bytesOf(path);
      const ms = (id) => String(Math.round(audits[id].numericValue)).padStart(6);
      console.log(
        `${name.padEnd(8)} ${String(score).padStart(4)}  ${ms("largest-contentful-paint")}   ${ms("first-contentful-paint")}   ${ms("total-blocking-time")}  ${audits["cumulative-layout-shift"].numericValue.toFixed(3)}  ${String(bytes.html).padStart(7)}  ${String(bytes.css).padStart(6)}  ${String(bytes.js).padStart(5)}   ${String(bytes.html + bytes.css).padStart(8)}`,
      );
    }
  } finally {
    await chrome.kill();
    server?.kill("SIGTERM");
  }
}

await main();
