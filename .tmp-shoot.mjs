import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
const day = (o) => new Date(Date.now() + 8 * 3600e3 + o * 864e5).toISOString().slice(0, 10);
for (const lang of ["en-US", "zh-TW"]) {
  const prefix = lang === "zh-TW" ? "" : `/${lang}`;
  const ctx = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: false, locale: lang });
  const page = await ctx.newPage();
  // campsite booking with results
  await page.goto(`http://camp.localhost:8787${prefix}/hxa/booking?start=${day(20)}&end=${day(21)}&adults=2&children=0&room=1`);
  await page.screenshot({ path: `/tmp/shots/camp-${lang}.png`, fullPage: false });
  // sign-in page
  await page.goto(`http://taipei.localhost:8787${prefix}/hxa/login`);
  await page.waitForLoadState();
  await page.screenshot({ path: `/tmp/shots/signin-${lang}.png` });
  // book at lakeside and land on pay page
  await page.goto(`http://lakeside.localhost:8787${prefix}/hxa/booking?start=${day(25)}&end=${day(26)}&adults=2&children=0&room=1`);
  await page.locator(".add-form button[type=submit]").first().click();
  await page.locator(".cart a.button, a[href*='checkout']").first().click();
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill(lang === "en-US" ? "0912000111" : "0912000222");
  await page.locator("#booker_email").fill(`shot-${lang}@example.com`);
  await page.locator("#occupant_name_0").fill("Mei Lin");
  await page.locator('input[name="payment"]').first().check();
  await page.locator('button[name="intent"][value="order"]').click();
  await page.waitForLoadState();
  await page.screenshot({ path: `/tmp/shots/pay-${lang}.png`, fullPage: true });
  console.log(lang, page.url());
  await ctx.close();
}
const ctx = await browser.newContext({ viewport: { width: 360, height: 800 } });
const page = await ctx.newPage();
await page.goto("http://localhost:8787/dev/outbox");
const link = page.locator("a").filter({ hasText: /shot-zh-TW|訂房|Booking/ }).first();
console.log(await page.locator("a").count());
await page.screenshot({ path: `/tmp/shots/outbox.png` });
await browser.close();
