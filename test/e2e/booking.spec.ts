import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { apiCall, hotelUrl, placeOrder, taipeiDay, waitForHydration } from "./helpers";

/** The demo city hotel's room classes, as its file defines them. */
const TAIPEI_ROOMS = (
  JSON.parse(readFileSync(new URL("../../demo/hotels/taipei.json", import.meta.url), "utf8")) as {
    room_classes: { room_code: string; total_rooms: number }[];
  }
).room_classes;

const TEXT = {
  "en-US": {
    confirmed: "Booking confirmed",
    transfer: "Bank transfer details",
    discount: "Discount WELCOME10",
    notEnough: "Not enough rooms",
    bankTransfer: "Bank transfer",
    country: ["Country", "Taiwan"],
  },
  "zh-TW": {
    confirmed: "訂房完成",
    transfer: "匯款資訊",
    discount: "優惠 WELCOME10",
    notEnough: "房間數量不足",
    bankTransfer: "銀行匯款",
    country: ["國家", "台灣"],
  },
} as const;

for (const lang of ["en-US", "zh-TW"] as const) {
  test(`a guest books two rooms with a coupon, from search to confirmation (${lang}) @js-matters`, async ({ page, javaScriptEnabled }) => {
    const offset = (lang === "en-US" ? 60 : 70) + (javaScriptEnabled ? 0 : 5);
    const start = taipeiDay(offset);
    const end = taipeiDay(offset + 2);
    const prefix = lang === "zh-TW" ? "" : `/${lang}`;
    let reloads = 0;
    page.on("load", () => reloads++);
    // A page whose server HTML and hydrated render differ (a translation, a date) logs an error.
    const pageErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));

    // Search
    await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking`));
    await page.locator("#search-start").fill(start);
    await page.locator("#search-end").fill(end);
    await page.locator("#search-adults").fill("3");
    await page.locator("#search-room").fill("2");
    await page.locator(".booking-search button[type=submit]").click();
    await expect(page).toHaveURL(new RegExp(`start=${start}&end=${end}&room=2&adults=3`));

    // Filter: breakfast plans only
    await page.locator(".booking-filters summary").click();
    await page.locator('.booking-filters input[name="meals"]').check();
    await page.locator(".booking-filters button[type=submit]").click();
    await expect(page).toHaveURL(/meals=1/);
    await expect(page.locator(".booking-results > .booking-room").first()).toBeVisible();

    // Two room lines. Scripts start once the page has loaded; wait for them so the enhanced
    // forms are what is tested here (before that, the same forms post without JavaScript).
    if (javaScriptEnabled) await waitForHydration(page);
    const loadsBeforeCart = reloads;
    await page.locator(".booking-results > .booking-room .add-form").nth(0).locator("select").selectOption("1");
    await page.locator(".booking-results > .booking-room .add-form").nth(0).locator("button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
    await page.locator(".booking-results > .booking-room").nth(1).locator(".add-form").first().locator("button[type=submit]").click();
    await expect(page.locator(".booking-cart .cart-line")).toHaveCount(2);
    if (javaScriptEnabled) expect(reloads, "adding to the cart does not reload the page").toBe(loadsBeforeCart);
    expect(pageErrors, "no errors in the page, hydration included").toEqual([]);

    // Checkout: price check with a coupon
    await page.locator(".booking-cart a.button").click();
    await expect(page.locator(".checkout-line")).toHaveCount(2);
    const totalBefore = await page.locator(".price-summary__total dd").textContent();
    await page.locator("#coupon_code").fill("WELCOME10");
    await page.locator('button[name="intent"][value="price"]').click();
    await expect(page.locator(".price-summary")).toContainText(TEXT[lang].discount);
    expect(await page.locator(".price-summary__total dd").textContent()).not.toBe(totalBefore);

    // Booker and payment
    await page.locator("#booker_last_name").fill("Lin");
    await page.locator("#booker_first_name").fill("Mei");
    await page.locator("#booker_phone").fill("0912345678");
    await page.locator("#booker_email").fill("mei@example.com");
    await page.locator("#occupant_name_0").fill("Mei Lin");
    // A vendor that is the method itself is named once, not "Bank transfer · Bank transfer".
    await expect(page.locator("label.choice").filter({ has: page.locator('input[value="8:remittance"]') })).toHaveText(
      TEXT[lang].bankTransfer,
    );
    await page.locator('input[name="payment"][value="8:remittance"]').check();
    await page.locator('button[name="intent"][value="order"]').click();

    // Confirmation
    await expect(page).toHaveURL(/\/redirect\/receipt\/PT\d{6}-[A-Z0-9]{6}\?valid_hash=/);
    await expect(page.locator("h1")).toHaveText(TEXT[lang].confirmed);
    await expect(page.locator(".order-summary__lines li")).toHaveCount(2);
    await expect(page.locator(".remittance h2")).toHaveText(TEXT[lang].transfer);
    await expect(page.locator(".order-summary__payment")).toHaveText(TEXT[lang].bankTransfer);
    const [countryLabel, countryName] = TEXT[lang].country;
    await expect(
      page
        .locator(".remittance dl > div")
        .filter({ has: page.getByText(countryLabel, { exact: true }) })
        .locator("dd"),
    ).toHaveText(countryName);
    await expect(page.locator(".price-summary")).toContainText(TEXT[lang].discount);

    // Going back and placing the same checkout again never makes a second booking: without
    // JavaScript the browser shows the old form from its history, and resubmitting it leads to
    // the same confirmation; with JavaScript the emptied cart sends the guest back to the search.
    const confirmation = page.url();
    await page.goBack();
    if (!javaScriptEnabled) {
      await page.locator('button[name="intent"][value="order"]').click();
      await expect(page).toHaveURL(confirmation);
    } else {
      await expect(page).toHaveURL(/\/hxa\/booking\?/);
    }
  });
}

test("bad input in the booking forms gets a clear message and changes nothing @js-matters", async ({ page }) => {
  const prefix = "/en-US";
  await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?start=${taipeiDay(5)}&end=${taipeiDay(3)}&adults=0&room=0`));
  await expect(page.locator("#search-end-error")).toHaveText("Check-out must be after check-in");
  await expect(page.locator("#search-room-error")).toHaveText("Rooms must be 1 to 30");
  await expect(page.locator("#search-adults-error")).toHaveText("Adults must be 1 to 100");
  await expect(page.locator("#search-end")).toHaveValue(taipeiDay(3));

  // A tampered plan id (another hotel's plan) is refused, and the cart stays empty: the request is
  // altered on its way to the server, as a guest editing the form or replaying it would.
  await page.goto(hotelUrl("taipei", `${prefix}/hxa/booking?start=${taipeiDay(90)}&end=${taipeiDay(91)}`));
  await page.route("**/hxa/booking**", async (route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    await route.continue({ postData: (request.postData() ?? "").replace(/proposal_id=\d+/, "proposal_id=999999") });
  });
  await page.locator(".add-form").first().locator("button[type=submit]").click();
  await expect(page.getByRole("alert")).toHaveText("This plan is not available for these dates, please choose again.");
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(0);
});

test("an empty checkout goes back to the search, and the booker's mistakes are shown per field @js-matters", async ({ page }) => {
  const start = taipeiDay(100);
  const end = taipeiDay(101);
  await page.goto(hotelUrl("taipei", `/en-US/hxa/checkout?start=${start}&end=${end}`));
  await expect(page).toHaveURL(/\/en-US\/hxa\/booking\?/);
  await page.locator(".add-form").first().locator("button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await page.locator(".booking-cart a.button").click();
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("not a phone");
  await page.locator("#booker_email").fill("mei@example.com");
  // The demo city hotel issues e-invoices: the company's tax ID is the company invoice's (decision 159).
  await page.locator('input[name="invoice_kind"][value="company"]').check();
  await page.locator("#company_reg_number").fill("123");
  // The browser's own checks are skipped, as an old browser or a script would: the server must catch it.
  await page.locator("form.checkout-form").evaluate((form) => form.setAttribute("novalidate", ""));
  await page.locator('button[name="intent"][value="order"]').click();
  await expect(page.locator("#booker_phone-error")).toHaveText("Enter a valid phone number");
  await expect(page.locator("#company_reg_number-error")).toHaveText("A tax ID number (統一編號) is 8 digits");
  await expect(page.locator("#booker_last_name")).toHaveValue("Lin");
});

interface Availability {
  data: { rooms: { room_class_id: number; inventory: number }[] };
}

test("a cart gone stale (its rooms sold meanwhile) gets a clear message, once, at checkout and makes no order @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 150 : 155;
  const start = taipeiDay(offset);
  const end = taipeiDay(offset + 1);
  const availability = async () =>
    (await apiCall<Availability>("GET", `/api/ota/room/empty-by-date?domain=taipei.localhost&start_date=${start}&end_date=${end}`)).json
      .data.rooms;

  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${start}&end=${end}`));
  const add = page.locator(".booking-results > .booking-room .add-form").first();
  const roomClassId = Number(await add.locator('input[name="room_class_id"]').inputValue());
  const proposalId = Number(await add.locator('input[name="proposal_id"]').inputValue());
  await add.locator("button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);

  // Meanwhile another guest books every room of that class that is left.
  const left = (await availability()).find((room) => room.room_class_id === roomClassId)?.inventory ?? 0;
  // Nobody else books that far ahead: every room of the class is left, as many as the demo file has.
  const roomCode = (
    await apiCall<{ data: { room_class_id: number; room_code: string }[] }>("GET", "/api/ota/room/list?domain=taipei.localhost")
  ).json.data.find((room) => room.room_class_id === roomClassId)?.room_code;
  expect(left).toBe(TAIPEI_ROOMS.find((room) => room.room_code === roomCode)?.total_rooms);
  const other = await apiCall("POST", "/api/ota/order/personal-new?lang=en-US", {
    domain: "taipei.localhost",
    booker_first_name: "Hao",
    booker_last_name: "Chen",
    booker_phone: "0922333444",
    booker_email: "hao@example.com",
    booking_from: "HXA",
    check_in_day: start,
    check_out_day: end,
    pay_way: "remittance",
    payment_vendor: 8,
    pay_option: "all",
    orders: [{ room_class_id: roomClassId, proposal_id: proposalId, num: left, occupant_name: "Hao Chen" }],
    adults_count: 2,
    children_count: 0,
  });
  expect(other.status).toBe(201);

  // The checkout's price check already tells the guest; placing the order anyway is refused.
  // The line itself says so (once: the top of the page points to it), and keeps its occupant field.
  const seeBelow = "A room in your booking can no longer be booked as chosen: see the room marked below.";
  await page.locator(".booking-cart a.button").click();
  await expect(page.locator("p.alert[role=alert]")).toHaveText([seeBelow]);
  await expect(page.locator(".checkout-line")).toHaveCount(1);
  await expect(page.locator(".checkout-line [role=alert]")).toHaveText("This room type is sold out");
  await expect(page.getByText("This room type is sold out")).toHaveCount(1);
  await expect(page.locator("#occupant_name_0")).toBeVisible();
  await page.locator("#booker_last_name").fill("Lin");
  await page.locator("#booker_first_name").fill("Mei");
  await page.locator("#booker_phone").fill("0912345678");
  await page.locator("#booker_email").fill("mei@example.com");
  await page.locator('input[name="payment"][value="8:remittance"]').check();
  await page.locator('button[name="intent"][value="order"]').click();
  // The refused order says why once, at the line, with JavaScript and without.
  await expect(page.locator("p.alert[role=alert]")).toHaveText([seeBelow]);
  await expect(page.locator(".checkout-line [role=alert]")).toHaveText("This room type is sold out");
  await expect(page.getByText("This room type is sold out")).toHaveCount(1);
  await expect(page).toHaveURL(/\/en-US\/hxa\/checkout\?/);
  await expect(page.locator("#booker_email")).toHaveValue("mei@example.com");

  // Nothing was taken: the class is at 0, not below.
  expect((await availability()).find((room) => room.room_class_id === roomClassId)?.inventory).toBe(0);
});

const formatTwd = (amount: number) => `NT$${amount.toLocaleString("en-US")}`;

test("the payment page tells a card guest what happens next, and sends a bank-transfer guest to the transfer details", async ({ page }) => {
  // A card booking goes to /pay: what is due, by when, and a button to pay it, above the order the
  // guest made.
  const card = await placeOrder("credit", 1, 170);
  expect(card.redirect_path).toMatch(new RegExp(`^/pay/\\d+/${card.order_doc}\\?valid_hash=`));
  await page.goto(hotelUrl("taipei", `/en-US${card.redirect_path}`));
  // The title and heading say the payment's state (issue 25 item 20).
  await expect(page).toHaveTitle("Payment due | Portico Taipei");
  await expect(page.locator("h1")).toHaveText("Payment due");
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${formatTwd(card.plan.price)}`);
  await expect(page.locator(".payment-deadline")).toContainText("Please pay by");
  await expect(page.getByRole("button", { name: `Pay ${formatTwd(card.plan.price)} now` })).toBeVisible();
  await expect(page.locator("#order-heading")).toHaveText(`Booking ${card.order_doc}`);
  await expect(page.locator(".order-summary__lines li")).toHaveCount(1);
  await expect(page.locator(".order-summary__lines li")).toContainText(
    `${card.room.room_class_name} · ${card.plan.proposal_name} · 1 room · Mei Lin`,
  );
  await expect(page.locator(".order-summary__amount")).toHaveText(formatTwd(card.plan.price));
  await expect(page.locator(".price-summary__due dd")).toHaveText(formatTwd(card.plan.price));

  // A bank-transfer booking opened at /pay (a link shared or typed) has nothing to pay by card:
  // the guest lands on the confirmation with the hotel's account to transfer to.
  const transfer = await placeOrder("remittance", 8, 172);
  const hotelId = /^\/pay\/(\d+)\//.exec(card.redirect_path)![1];
  const hash = new URL(transfer.redirect_path, "http://x").searchParams.get("valid_hash")!;
  await page.goto(hotelUrl("taipei", `/en-US/pay/${hotelId}/${transfer.order_doc}?valid_hash=${encodeURIComponent(hash)}`));
  await expect(page).toHaveURL(hotelUrl("taipei", `/en-US/redirect/receipt/${transfer.order_doc}?valid_hash=${encodeURIComponent(hash)}`));
  await expect(page.locator("h1")).toHaveText("Booking confirmed");
  await expect(page.getByRole("status")).toHaveText(
    "Thank you for booking! Please pay by bank transfer with the details below; a confirmation is on its way to mei+172@example.com.",
  );
  await expect(page.locator(".remittance h2")).toHaveText("Bank transfer details");
  await expect(page.locator(".remittance dd")).toHaveText([
    "台灣範例商業銀行 (812)",
    "南京東路分行",
    "雅苑國際酒店股份有限公司",
    "012-345-678901",
    "Taiwan",
  ]);
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);

  // Without the order's signed link there is no payment page.
  const forged = await page.goto(hotelUrl("taipei", `/en-US/pay/${hotelId}/${card.order_doc}?valid_hash=forged`));
  expect(forged?.status()).toBe(404);
});

test("a campsite counts sites, not rooms, from the search to the cart @js-matters", async ({ page, javaScriptEnabled }) => {
  const start = taipeiDay(40);
  await page.goto(hotelUrl("camp", `/en-US/hxa/booking?start=${start}&end=${taipeiDay(41)}&room=1&adults=2&children=0`));
  // With JavaScript, the enhanced page is what is tested: its announcement of the cart counts sites too.
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.locator('label[for="search-room"]')).toHaveText("Sites");
  const pitch = page.locator(".booking-room").filter({ hasText: "Grass tent pitch" });
  await expect(pitch.locator(".plan__stock").first()).toHaveText("18 sites left");
  await expect(pitch.locator(".plan__nights").first()).toHaveText("per site, whole stay");
  await expect(pitch.locator(".add-form select").first().locator("option").first()).toHaveText("1 site");
  await pitch.locator(".add-form button[type=submit]").first().click();
  await expect(page.locator(".booking-cart .cart-line__count")).toHaveText("1 site");
  await expect(page.locator(".booking-cart__total span")).toHaveText("1 site in total");
  await expect(page.locator(".booking-page")).not.toContainText(/\broom(s)?\b/);
  // A hotel keeps its rooms.
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${start}&end=${taipeiDay(41)}&room=1&adults=2&children=0`));
  await expect(page.locator('label[for="search-room"]')).toHaveText("Rooms");
  await expect(page.locator(".plan__nights").first()).toHaveText("per room, whole stay");
});

// Issue 25 item 18: a tab opened before another put a whole-site plan in the booking. Its refusal and
// the booking beside it agree: the whole-site plan is shown, not "No sites chosen yet".
test("a stale campsite tab refused a plan shows the booking that refused it @js-matters", async ({ page, javaScriptEnabled }) => {
  const url = hotelUrl(
    "camp",
    `/en-US/hxa/booking?start=${taipeiDay(javaScriptEnabled ? 47 : 49)}&end=${taipeiDay(javaScriptEnabled ? 48 : 50)}`,
  );
  await page.goto(url);
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.locator(".booking-cart__empty")).toHaveText("No sites chosen yet.");

  const other = await page.context().newPage();
  await other.goto(url);
  if (javaScriptEnabled) await waitForHydration(other);
  await other.locator(".plan").filter({ hasText: "Whole property" }).first().locator(".add-form button[type=submit]").click();
  await expect(other.locator(".booking-cart .cart-line")).toHaveCount(1);
  await other.close();

  await page.locator(".plan").filter({ hasNotText: "Whole property" }).first().locator(".add-form button[type=submit]").click();
  await expect(page.locator("#booking-alert")).toHaveText("Your booking has a whole-property plan, so no other plan can be added.");
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await expect(page.locator(".booking-cart .cart-line")).toContainText("Entire campsite rental");
  await expect(page.locator(".booking-cart__empty")).toHaveCount(0);
});

test("a search the rooms left cannot house says so above the rooms that remain", async ({ page }) => {
  const stay = `start=${taipeiDay(45)}&end=${taipeiDay(46)}`;
  // 25 rooms: no room type has that many.
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?${stay}&room=25&adults=25&children=0`));
  await expect(page.locator(".booking-results__notice")).toHaveText(
    "No room type has 25 rooms left on these dates. Below is what is still available: book fewer rooms, or try other dates.",
  );
  await expect(page.locator(".booking-results > .booking-room").first()).toBeVisible();
  // Nine adults in one room: no room sleeps them.
  await page.goto(hotelUrl("taipei", `/ja-JP/hxa/booking?${stay}&room=1&adults=9&children=0`));
  await expect(page.locator(".booking-results__notice")).toHaveText(
    "ご指定の室数では、この人数でご宿泊いただける客室タイプがありません。下記は現在ご予約いただける客室です。室数を増やすか、人数をご変更ください。",
  );
  await expect(page.locator(".booking-results > .booking-room").first()).toBeVisible();
  // A party that fits hears nothing of the kind.
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?${stay}&room=2&adults=4&children=0`));
  await expect(page.locator(".booking-results > .booking-room").first()).toBeVisible();
  await expect(page.locator(".booking-results__notice")).toHaveCount(0);
});

test("a plan without a free-cancellation window says the hotel's policy applies, never that it cannot be refunded", async ({ page }) => {
  const start = taipeiDay(40);
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?start=${start}&end=${taipeiDay(41)}&adults=2&children=0&room=1`));
  // The advance-purchase plan (refund template 0): refunds follow the hotel's schedule, the standard contract's at least.
  const advance = page
    .locator(".plan")
    .filter({ has: page.locator(".plan__name", { hasText: /^Advance Purchase$/ }) })
    .first();
  await expect(advance.locator(".plan__meta")).toContainText("Cancellation per the hotel's policy");
  // A flexible plan (template 2) keeps its free-cancellation date.
  const flexible = page
    .locator(".plan")
    .filter({ has: page.locator(".plan__name", { hasText: /^Best Available Rate/ }) })
    .first();
  await expect(flexible.locator(".plan__meta")).toContainText(/Free cancellation until/);
  await expect(page.locator("main")).not.toContainText(/non-refundable/i);
});

// Issue 37 item 7: with JavaScript the second search replaced the results in place, and every plan's
// count still said "1 room" from the first: the guest booked half the rooms they had searched for.
test("a second search for two rooms offers and books two rooms at twice the price @js-matters", async ({ page, javaScriptEnabled }) => {
  const stay = `start=${taipeiDay(javaScriptEnabled ? 52 : 54)}&end=${taipeiDay(javaScriptEnabled ? 53 : 55)}`;
  await page.goto(hotelUrl("taipei", `/en-US/hxa/booking?${stay}&room=1&adults=2&children=0`));
  if (javaScriptEnabled) await waitForHydration(page);
  const plan = page.locator(".booking-results > .booking-room .plan").first();
  await expect(plan.locator(".add-form select")).toHaveValue("1");

  // The second search, made in the page.
  await page.locator("#search-room").fill("2");
  await page.locator("#search-adults").fill("4");
  await page.locator(".booking-search button[type=submit]").click();
  await expect(page).toHaveURL(/room=2&adults=4/);
  await expect(plan.locator(".add-form select")).toHaveValue("2");
  await expect(plan.locator(".add-form select option:checked")).toHaveText("2 rooms");
  const price = Number((await plan.locator(".plan__price").evaluate((node) => node.firstChild?.textContent ?? "")).replace(/\D/g, ""));
  expect(price).toBeGreaterThan(0);

  await plan.locator(".add-form button[type=submit]").click();
  await expect(page.locator(".booking-cart .cart-line")).toHaveCount(1);
  await expect(page.locator(".booking-cart .cart-line__count")).toHaveText("2 rooms");
  await expect(page.locator(".booking-cart .cart-line__price")).toHaveText(`NT$${(price * 2).toLocaleString("en-US")}`);
  await expect(page.locator(".booking-cart__total span")).toHaveText("2 rooms in total");
  await expect(page.locator(".booking-cart__total strong")).toHaveText(`NT$${(price * 2).toLocaleString("en-US")}`);
});
