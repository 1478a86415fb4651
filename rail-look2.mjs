import { chromium } from "playwright-core";
const [, , js, lang, url, sel, out] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
const ctx = await browser.newContext({ javaScriptEnabled: js === "on", viewport: { width: 360, height: 800 } });
const page = await ctx.newPage();
await page.goto(url);
await page.locator(sel).first().screenshot({ path: out });
console.log(await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close();
