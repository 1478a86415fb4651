import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl, placeOrder } from "./helpers";

// Issue 25 item 7: the HTML email as a guest's phone shows it (the development outbox serves it as sent).
test("an order's email fits a 360 px phone, with a button for each action and the hotel's logo", async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const offset = javaScriptEnabled ? 75 : 76;
  const order = await placeOrder("credit", 1, offset);
  const list = (await fetchText("taipei", `/dev/outbox?to=${encodeURIComponent(`mei+${offset}@example.com`)}`)).body;
  const id = /<article class="mail" data-kind="order_confirmation"[\s\S]*?href="\/dev\/outbox\/(\d+)"/.exec(list)?.[1];
  expect(id, `the confirmation of ${order.order_doc} is in the outbox`).toBeDefined();
  const text = /<pre[^>]*>([\s\S]*?)<\/pre>/.exec(list)?.[1] ?? "";

  // From the origin the order was placed on (the API calls above use plain localhost), as its links are.
  await page.goto(hotelUrl(null, `/dev/outbox/${id}`));
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "the message is no wider than the phone").toBeLessThanOrEqual(
    360,
  );
  // One button for each action: pay, view and cancel, each a tap target of a button's size.
  for (const name of [/^Pay NT\$[\d,]+ now$/, /^View your booking$/, /^Cancel your booking$/]) {
    const button = page.getByRole("link", { name });
    await expect(button).toHaveCount(1);
    const box = await button.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
  }
  // No URL is printed in the HTML; the plain-text part still carries each one.
  expect(await page.locator("body").innerText()).not.toMatch(/https?:\/\//);
  for (const href of await page.locator("a[href^='http']").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""))) {
    expect(text.replace(/&amp;/g, "&")).toContain(href);
  }
  // The logo: an absolute URL on the site's origin that loads, named by the hotel, and a PNG (Gmail
  // and Outlook do not show SVG: the hotel's logo-dark.svg is replaced by the PNG beside it).
  const logo = page.locator("img").first();
  const site = new URL((await page.getByRole("link", { name: /^View your booking$/ }).getAttribute("href")) ?? "").origin;
  await expect(logo).toHaveAttribute("src", `${site}/demo/taipei/logo-dark.png`);
  await expect(logo).toHaveAttribute("alt", /\S/);
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const image = await page.request.get(`${site}/demo/taipei/logo-dark.png`);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(await logo.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().height)).toBe(48);
  // Every style is inline: no <style> or stylesheet for a client to drop.
  await expect(page.locator("style, link[rel=stylesheet]")).toHaveCount(0);
});
