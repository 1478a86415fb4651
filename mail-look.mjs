import { chromium } from "playwright-core";
const [, , url, out] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
const page = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
await page.goto(url);
await page.waitForLoadState("networkidle");
console.log(await page.evaluate(() => document.documentElement.scrollWidth), await page.locator("img").first().getAttribute("src"));
await page.screenshot({ path: out, fullPage: true });
await browser.close();
