#!/usr/bin/env node
/**
 * Draws a PNG beside each hotel's SVG dark logo, for email (decision 083: Gmail and Outlook do not
 * show SVG images; an email names /demo/<hotel>/logo-dark.png when the hotel's logo is
 * /demo/<hotel>/logo-dark.svg and the PNG exists).
 *
 *   node scripts/logo-png.mjs [public/demo/<hotel>/logo-dark.svg ...]
 *
 * Without arguments, every public/demo/<hotel>/logo-dark.svg. Each PNG is drawn by Chromium at twice
 * the SVG's size (a 48 px tall logo in the email stays sharp on a phone), on a transparent background.
 * Uses playwright-core and Chromium (CHROMIUM_PATH or /usr/bin/chromium), as the browser tests do.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEMO = join(ROOT, "public", "demo");
const SCALE = 2;

const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(DEMO)
        .map((hotel) => join(DEMO, hotel, "logo-dark.svg"))
        .filter((file) => existsSync(file));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  for (const file of files) {
    const svg = readFileSync(file, "utf8");
    const size = /<svg[^>]*\swidth="(\d+(?:\.\d+)?)"[^>]*\sheight="(\d+(?:\.\d+)?)"/.exec(svg);
    if (!size) throw new Error(`${file}: the <svg> element needs a width and a height`);
    const [width, height] = [Math.ceil(Number(size[1])), Math.ceil(Number(size[2]))];
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: SCALE });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    const out = file.replace(/\.svg$/, ".png");
    await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width, height } });
    await page.close();
    console.log(`${out} (${width * SCALE}×${height * SCALE})`);
  }
} finally {
  await browser.close();
}
