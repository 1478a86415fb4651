// Screenshots of the 13 page layouts and the 2 booking layouts for hotel owners choosing one (docs/layouts/).
// Usage: npm run screenshots   (BASE_URL defaults to the taipei demo on a running dev server)
/* global document, window, getComputedStyle -- page.evaluate callbacks run in the browser */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const BASE_URL = (process.env.BASE_URL || "http://taipei.localhost:8787").replace(/\/$/, "");
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "docs", "layouts");
const PHONE = { width: 412, height: 915 };
const DESKTOP = { width: 1280, height: 800 };
const MAX_PHONE_HEIGHT = 2400;

/** Layout ids and names, read from app/layouts/designs.ts so the README never drifts from it. */
async function layouts() {
  const source = await readFile(join(root, "app", "layouts", "designs.ts"), "utf8");
  const found = [...source.matchAll(/^\s*(layout_\d+):\s*\{\s*id:\s*"layout_\d+",\s*name:\s*"([^"]+)"/gm)].map(([, id, name]) => ({
    id,
    name,
  }));
  if (found.length === 0) throw new Error("no layouts found in app/layouts/designs.ts");
  return found.sort((a, b) => Number(a.id.slice(7)) - Number(b.id.slice(7)));
}

/** Booking layout ids and names, read from the first line of their stylesheets ("/* booking_100: a room list … *\/"). */
async function bookingLayouts() {
  const source = await readFile(join(root, "app", "layouts", "templates.ts"), "utf8");
  const ids = /BOOKING_LAYOUTS = \[([^\]]*)\]/.exec(source)?.[1].match(/booking_\d+/g) ?? [];
  if (ids.length === 0) throw new Error("no booking layouts found in app/layouts/templates.ts");
  return Promise.all(
    ids.map(async (id) => {
      const css = await readFile(join(root, "app", "layouts", "themes", `${id}.css`), "utf8");
      return { id, name: /^\/\*\s*booking_\d+:\s*(.*?)\s*\*\//.exec(css)?.[1] ?? id };
    }),
  );
}

/** The booking page with a search done: two weeks ahead, one night, 2 adults in 1 room. */
function bookingPath(id) {
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `/en-US/hxa/booking?start=${day(14)}&end=${day(15)}&adults=2&children=0&room=1&preview=${id}`;
}

/** Scrolls through the page so lazy images load, then back to the top. */
async function loadLazyImages(page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 600) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    window.scrollTo(0, 0);
  });
  await page.evaluate(() =>
    Promise.race([
      new Promise((resolve) => setTimeout(resolve, 3000)),
      Promise.all(
        [...document.images]
          .filter((image) => !image.complete)
          .map(
            (image) =>
              new Promise((resolve) => {
                image.onload = image.onerror = resolve;
              }),
          ),
      ),
    ]),
  );
}

async function shoot(browser, url, viewport, path, fullPage) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  // A rebuild of the dev server can answer one request without its stylesheets: retry until styled.
  for (let attempt = 1; ; attempt++) {
    const response = await page.goto(url, { waitUntil: "load" });
    if (!response || !response.ok()) throw new Error(`${url}: HTTP ${response?.status()}`);
    const styled = await page.evaluate(() => getComputedStyle(document.querySelector(".site-header") ?? document.body).display === "flex");
    if (styled) break;
    if (attempt === 5) throw new Error(`${url}: stylesheets did not load`);
    await page.waitForTimeout(2000);
  }
  if (fullPage) await loadLazyImages(page);
  const height = fullPage ? Math.min(MAX_PHONE_HEIGHT, await page.evaluate(() => document.documentElement.scrollHeight)) : viewport.height;
  await page.screenshot({ path, fullPage, clip: { x: 0, y: 0, width: viewport.width, height } });
  await context.close();
}

const list = await layouts();
const bookingList = await bookingLayouts();
await mkdir(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  for (const { id } of list) {
    const url = `${BASE_URL}/en-US?preview=${id}`;
    await shoot(browser, url, PHONE, join(outDir, `${id}-phone.png`), true);
    await shoot(browser, url, DESKTOP, join(outDir, `${id}-desktop.png`), false);
    console.log(`${id}: ok`);
  }
  for (const { id } of bookingList) {
    const url = `${BASE_URL}${bookingPath(id)}`;
    await shoot(browser, url, PHONE, join(outDir, `${id}-phone.png`), true);
    await shoot(browser, url, DESKTOP, join(outDir, `${id}-desktop.png`), false);
    console.log(`${id}: ok`);
  }
} finally {
  await browser.close();
}

const screenshots = ({ id, name }) => [
  `### ${id}: ${name}`,
  "",
  `| Phone | Desktop |`,
  `| --- | --- |`,
  `| <img src="${id}-phone.png" alt="${id} on a phone" width="206"> | <img src="${id}-desktop.png" alt="${id} on a desktop" width="640"> |`,
  "",
];
const readme = [
  "# Page and booking layouts",
  "",
  `The ${list.length} page layouts and ${bookingList.length} booking layouts, as rendered by \`scripts/screenshot-layouts.mjs\` from the taipei demo (\`${BASE_URL}\`).`,
  "Phone: 412 px wide, full page (cut at 2400 px). Desktop: 1280 × 800, first screen.",
  "",
  "## Page layouts",
  "",
  "From `/en-US?preview=<layout>`. Each has its own theme (`app/layouts/themes/<layout>.css`), header, hero and order of home sections (`app/layouts/designs.ts`).",
  "",
  ...list.flatMap(screenshots),
  "## Booking layouts",
  "",
  "The booking page with a search done (two weeks ahead, one night, 2 adults, 1 room), from `/en-US/hxa/booking?start=…&end=…&adults=2&children=0&room=1&preview=<layout>`.",
  "Each has its own stylesheet (`app/layouts/themes/<layout>.css`), linked on the booking, checkout, payment and receipt pages with the hotel's page layout.",
  "",
  ...bookingList.flatMap(screenshots),
].join("\n");
await writeFile(join(outDir, "README.md"), readme);
console.log(`wrote ${(list.length + bookingList.length) * 2} screenshots and README.md to ${outDir}`);
