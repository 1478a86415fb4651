/**
 * npm run bench:bytes — the bytes each page loads, gzipped, beside the budgets of design.md
 * (decision 161): the booking results page and the booking shell within the framework's JavaScript
 * plus 15 KB of ours (101,000 bytes) and 20,000 bytes of HTML + CSS; the home page within 50,000
 * bytes of HTML + CSS and no JavaScript. Same measure as `npm run bench` (scripts/page-bytes.mjs).
 *
 * Builds (unless BENCH_BYTES_SKIP_BUILD=1), starts the built Worker under Miniflare on a fresh
 * database with the demo hotels (BENCH_BYTES_PORT, default 8796), asks taipei's pages in en-US and
 * prints, per page, the totals, then each file and each inline script. BENCH_BYTES_JSON=<file>
 * also writes the numbers as JSON, to compare a change with the run before it. Exits 1 when a
 * page is over its budget.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { startPortico } from "./miniflare.mjs";
import { bytesOf } from "./page-bytes.mjs";

const PORT = Number(process.env.BENCH_BYTES_PORT ?? 8796);
const BASE = `http://taipei.localhost:${PORT}`;
const LANG = "en-US";
const agent = new Agent({ keepAlive: true });

/** Node does not resolve *.localhost: connect to 127.0.0.1 and send the Host header. */
function get(url) {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: target.port, path: target.pathname + target.search, headers: { host: target.host }, agent },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          else resolve({ body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const day = (offset) => new Date(Date.now() + 8 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const BOOKING_BUDGET = { js: 101_000, htmlCss: 20_000 };
const PAGES = [
  ["home", `/${LANG}`, { js: 0, htmlCss: 50_000 }],
  ["booking", `/${LANG}/hxa/booking?start=${day(30)}&end=${day(32)}&adults=2&children=0&room=1`, BOOKING_BUDGET],
  ["shell", `/${LANG}/hxa/booking`, BOOKING_BUDGET],
];

const pad = (value, width) => String(value).padStart(width);

/** Each inline script's gzipped size and its start, to see what the hydration data is. */
function inlineParts(html) {
  return [...html.matchAll(/<script(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1])
    .filter((text) => text.length > 0)
    .map((text) => ({ bytes: gzipSync(text).length, raw: text.length, start: text.slice(0, 60).replace(/\s+/g, " ") }));
}

async function main() {
  if (process.env.BENCH_BYTES_SKIP_BUILD !== "1") {
    const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
    const copied = spawnSync(process.execPath, ["scripts/copy-fonts.mjs"], { stdio: "inherit" });
    const built = copied.status === 0 && spawnSync(process.execPath, [remix, "build"], { stdio: ["ignore", "ignore", "inherit"] });
    if (!built || built.status !== 0) throw new Error("the build failed");
  }
  const server = await startPortico({
    port: PORT,
    state: `.wrangler/bench-bytes-state-${PORT}`,
    vars: { SESSION_SECRET: randomBytes(32).toString("base64url") },
  });
  const results = {};
  let over = false;
  try {
    for (const [name, path, budget] of PAGES) {
      const bytes = await bytesOf(get, BASE, path);
      const htmlCss = bytes.html + bytes.css;
      const fits = bytes.js <= budget.js && htmlCss <= budget.htmlCss;
      over ||= !fits;
      results[name] = { path, html: bytes.html, css: bytes.css, htmlCss, js: bytes.js, inline: bytes.inline };
      console.log(`\n${name}  ${path}  ${fits ? "within budget" : "OVER BUDGET"}`);
      console.log(`  HTML ${pad(bytes.html, 7)}   CSS ${pad(bytes.css, 7)}   HTML+CSS ${pad(htmlCss, 7)} (budget ${budget.htmlCss})`);
      console.log(`  JS   ${pad(bytes.js, 7)}   of it inline ${pad(bytes.inline, 6)}            (budget ${budget.js})`);
      for (const file of bytes.cssFiles) console.log(`    css ${pad(file.bytes, 7)}  ${file.url}`);
      for (const file of [...bytes.jsFiles].sort((a, b) => b.bytes - a.bytes)) console.log(`    js  ${pad(file.bytes, 7)}  ${file.url}`);
      for (const part of inlineParts(bytes.body)) console.log(`    inl ${pad(part.bytes, 7)}  (${part.raw} raw) ${part.start}`);
    }
  } finally {
    agent.destroy();
    await server.dispose();
  }
  if (process.env.BENCH_BYTES_JSON) writeFileSync(process.env.BENCH_BYTES_JSON, `${JSON.stringify(results, null, 2)}\n`);
  if (over) process.exitCode = 1;
}

await main();
