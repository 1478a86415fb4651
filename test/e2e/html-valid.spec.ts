import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { fetchText, hotelUrl, placeOrder, taipeiDay } from "./helpers";

/**
 * Every page is valid HTML as the Nu HTML Checker (npm `vnu-jar`, run with Java) reads it: the
 * markup the server sends, before any script runs. Pages are read as a guest's browser gets them,
 * the booking pages with their deferred scripts included (app/platform/defer-hydration.server.ts).
 */
const vnuJar = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");

type VnuMessage = { type: string; url: string; message: string; extract?: string; lastLine?: number };

function vnuErrors(pages: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), "portico-vnu-"));
  try {
    const files = Object.entries(pages).map(([name, html]) => {
      const file = join(dir, `${name}.html`);
      writeFileSync(file, html);
      return file;
    });
    const run = spawnSync("java", ["-jar", vnuJar, "--errors-only", "--format", "json", ...files], { encoding: "utf8" });
    if (run.error) throw new Error(`Java is needed to check HTML (apt-get install default-jre-headless): ${run.error.message}`);
    const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    return messages
      .filter((message) => message.type === "error")
      .map((message) => `${message.url.split("/").pop()}:${message.lastLine ?? "?"}: ${message.message} ${message.extract ?? ""}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("every kind of page is valid HTML (0 errors in the Nu HTML Checker)", async ({ page }) => {
  const start = taipeiDay(40);
  const end = taipeiDay(42);
  const paths: Record<string, [string | null, string]> = {
    home: ["taipei", "/"],
    "home-en": ["taipei", "/en-US"],
    "home-layout-300": ["taipei", "/?preview=layout_300"],
    "home-layout-1000": ["taipei", "/ja-JP?preview=layout_1000"],
    room: ["taipei", "/room/16"],
    events: ["taipei", "/event"],
    about: ["taipei", "/about"],
    facilities: ["taipei", "/facilities"],
    follow: ["taipei", "/follow"],
    "not-found": ["taipei", "/en-US/nope"],
    "not-found-zh": ["taipei", "/a/b"],
    news: ["taipei", "/news"],
    "empty-event": ["taipei", "/event?id=abc"],
    booking: ["taipei", "/hxa/booking"],
    "booking-results": ["taipei", `/en-US/hxa/booking?start=${start}&end=${end}&room=1&adults=2`],
    "booking-200": ["lakeside", `/en-US/hxa/booking?start=${start}&end=${end}&preview=booking_200`],
    camp: ["camp", "/"],
  };
  // After the booking: the order page and its cancellation page, by the emailed links.
  const placed = await placeOrder("remittance", 8, 46);
  paths.order = ["taipei", `/en-US/hxa/orders/${placed.order_doc}?valid_hash=${encodeURIComponent(placed.order.valid_hash)}`];
  paths["order-cancel"] = ["taipei", `/hxa/orders/${placed.order_doc}/cancel?cancel_hash=${encodeURIComponent(placed.order.cancel_hash)}`];
  // An unpaid order with a rail ticket, by its cancel link: each ticket's steps (decision 140).
  const railed = await placeOrder("remittance", 8, 26, {
    rail_item_list: [
      { direction: "outbound", date: taipeiDay(26), train_no: "0806", origin: "1070", destination: "1000", passengers: { adult: 2 } },
    ],
  });
  const ticket = (railed.order as { rail_item_list?: { rail_id: number }[] }).rail_item_list?.[0]?.rail_id ?? 0;
  const railPage = `/en-US/hxa/orders/${railed.order_doc}?cancel_hash=${encodeURIComponent(railed.order.cancel_hash)}`;
  paths["order-rail"] = ["taipei", railPage];
  paths["order-rail-change"] = ["taipei", `${railPage}&rail=${ticket}&rail_step=change`];
  paths["order-rail-change-confirm"] = ["taipei", `${railPage}&rail=${ticket}&rail_step=change&date=${taipeiDay(26)}&train=0826`];
  paths["order-rail-passengers"] = ["taipei", `${railPage}&rail=${ticket}&rail_step=passengers&adult=3&child=0&senior=0&disabled=0`];
  paths["order-rail-refund"] = ["taipei", `${railPage}&rail=${ticket}&rail_step=refund`];
  const pages: Record<string, string> = {};
  for (const [name, [hotel, path]] of Object.entries(paths)) {
    const response = await fetchText(hotel, path);
    expect(response.body, `${name} (${path}) is an HTML page`).toMatch(/^<!DOCTYPE html>/i);
    pages[name] = response.body;
    if (name.startsWith("order-rail-")) expect(response.body, `${name} shows its step`).toContain('id="rail-step"');
  }

  // Checkout needs a cart: add a room in the browser, then read the checkout's HTML with its cookies
  // (fetched from the page, since Node does not resolve *.localhost).
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${start}&end=${end}`));
  await page.locator(".add-form").first().locator("button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  const checkout = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, html: await response.text() };
  }, `/en-US/hxa/checkout?start=${start}&end=${end}`);
  expect(checkout.status).toBe(200);
  pages.checkout = checkout.html;

  // The account service's own pages, the sign-in failure page, and a signed-in member's header and orders.
  const login = await fetchText("taipei", "/en-US/hxa/login?back=/en-US");
  const authorize = new URL(String(login.headers.location));
  pages["account-sign-in"] = (await fetchText("taipei", `${authorize.pathname}${authorize.search}`)).body;
  pages["account-sign-up"] = (await fetchText("taipei", `/account/signup${authorize.search}`)).body;
  pages["sign-in-failed"] = (await fetchText("taipei", "/en-US/hxa/oauth/callback?error=exchange")).body;
  await page.goto(hotelUrl("taipei", "/en-US/hxa/login?back=/en-US/about"));
  await page.getByLabel("Email").fill("traveler@portico.example");
  await page.getByLabel("Password").fill("portico-demo-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".member-menu summary")).toBeVisible();
  for (const [name, path] of [
    ["signed-in", "/en-US/about"],
    ["my-orders", "/en-US/hxa/orders"],
  ] as const) {
    pages[name] = await page.evaluate(async (url) => (await fetch(url)).text(), path);
  }

  expect(vnuErrors(pages)).toEqual([]);
});
