import { expect, test, type Page } from "@playwright/test";
import { apiCall, guestPhone, hotelUrl, placeOrder, taipeiDay } from "./helpers";

const twd = (amount: number) => `NT$${amount.toLocaleString("en-US")}`;

/** From the /pay page to the sandbox's hosted page: by script at once, or by the visible button without JavaScript. */
async function toGateway(page: Page, javaScriptEnabled: boolean, amount: number, button = `Pay ${twd(amount)} now`) {
  await page.getByRole("button", { name: button }).click();
  if (!javaScriptEnabled) {
    await expect(page.getByRole("status")).toHaveText("Taking you to the secure payment page…");
    await page.getByRole("button", { name: "Continue to payment" }).click();
  }
  await expect(page.locator("h1")).toHaveText("Test payment gateway");
  await expect(page.getByRole("note")).toHaveText("This is a test payment: no money is charged.");
  await expect(page.locator("dd").nth(1)).toHaveText(twd(amount));
}

const offsetFor = (base: number, javaScriptEnabled: boolean) => base + (javaScriptEnabled ? 0 : 2);

test("a card guest pays in full through the sandbox gateway and comes back to a paid order @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const order = await placeOrder("credit", 1, offsetFor(200, javaScriptEnabled));
  await page.goto(hotelUrl("taipei", `/en-US${order.redirect_path}`));
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${twd(order.plan.price)}`);
  // The page's title and heading say the payment's state (issue 25 item 20).
  await expect(page.locator("#main h1")).toHaveText("Payment due");
  await expect(page).toHaveTitle(/^Payment due \| /);
  await toGateway(page, javaScriptEnabled, order.plan.price);
  await page.getByRole("button", { name: "Pay", exact: true }).click();

  await expect(page).toHaveURL(hotelUrl("taipei", `/en-US${order.redirect_path}`));
  await expect(page.getByRole("status")).toHaveText("This booking is paid in full. Thank you!");
  await expect(page.locator("#main h1")).toHaveText("Paid in full");
  await expect(page).toHaveTitle(/^Paid in full \| /);
  await expect(page.locator(".order-summary__status")).toHaveText("Confirmed");
  await expect(page.locator(".payment-paid li")).toHaveText([`${twd(order.plan.price)} paid: Credit card (ECPay)`]);
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);

  // From here the guest reaches the order's own page: the booking again, its PDF, cancellation.
  await page.getByRole("link", { name: "See your booking, download the confirmation or cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/en-US/hxa/orders/${order.order_doc}\\?valid_hash=`));
  await expect(page.locator(".order-summary__status")).toHaveText("Confirmed");
  await expect(page.locator(".order-page__actions a[download]")).toHaveCount(1);
});

test("a declined card leaves the booking unpaid, and the guest can try again @js-matters", async ({ page, javaScriptEnabled }) => {
  const order = await placeOrder("credit", 1, offsetFor(204, javaScriptEnabled));
  await page.goto(hotelUrl("taipei", `/en-US${order.redirect_path}`));
  await toGateway(page, javaScriptEnabled, order.plan.price);
  await page.getByRole("button", { name: "Decline" }).click();

  await expect(page.getByRole("status")).toHaveText("The payment did not go through and nothing was charged. You can try again.");
  await expect(page.locator("#main h1")).toHaveText("Payment declined");
  await expect(page).toHaveTitle(/^Payment declined \| /);
  await expect(page.locator(".order-summary__status")).toHaveText("Awaiting payment");
  await toGateway(page, javaScriptEnabled, order.plan.price);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("This booking is paid in full. Thank you!");
});

test("an ATM account: the booking waits for the transfer, then turns paid when it arrives @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const order = await placeOrder("credit", 1, offsetFor(208, javaScriptEnabled));
  await page.goto(hotelUrl("taipei", `/en-US${order.redirect_path}`));
  await toGateway(page, javaScriptEnabled, order.plan.price);
  await page.getByRole("button", { name: "Get an ATM account and pay later" }).click();

  await expect(page.getByRole("status")).toHaveText("An ATM account was issued.");
  const account = (await page.locator("dd").nth(3).textContent()) ?? "";
  expect(account).toMatch(/^\d{14}$/);
  const atmPage = page.url();
  await page.getByRole("link", { name: "Back to the hotel's site" }).click();

  // Back at the hotel: the account to transfer to, and by when; the booking is still unpaid.
  await expect(page.getByRole("status")).toContainText(`Please transfer ${twd(order.plan.price)} to this ATM account by`);
  // Pay by: the order's own deadline, in the hotel's time (never past check-in; decision 047).
  await expect(page.locator(".payment-code dd")).toHaveText([
    "812",
    account,
    /^\w{3}, \w{3} \d{1,2}, \d{4} \d{2}:\d{2} \(Taiwan Standard Time\)$/,
  ]);
  await expect(page.locator(".order-summary__status")).toHaveText("Awaiting payment");

  // Later, the guest transfers the money (at the sandbox's ATM page).
  await page.goto(atmPage);
  await page.getByRole("button", { name: "Simulate the transfer now" }).click();
  await expect(page.getByRole("status")).toHaveText("This booking is paid in full. Thank you!");
  // Paid by transfer, and called so — not a card payment (issue 22 item 13).
  await expect(page.locator(".payment-paid li")).toHaveText([`${twd(order.plan.price)} paid: ATM transfer`]);
  await expect(page.locator(".order-summary__status")).toHaveText("Confirmed");
});

test("a deposit hotel: the guest pays the deposit, then the rest through repay ({master}/payment) @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const start = taipeiDay(offsetFor(212, javaScriptEnabled));
  const end = taipeiDay(offsetFor(213, javaScriptEnabled));
  const rooms = (
    await apiCall<{ data: { rooms: { room_class_id: number; price_set: { proposal_id: number; price: number }[] }[] } }>(
      "GET",
      `/api/ota/room/empty-by-date?domain=lakeside.localhost&start_date=${start}&end_date=${end}&lang=en-US`,
    )
  ).json.data.rooms;
  const room = rooms.find((candidate) => candidate.price_set.length > 0)!;
  const created = await apiCall<{ data: { redirect_path: string; order: { deposit_amount: number; final_amount: number } } }>(
    "POST",
    "/api/ota/order/personal-new?lang=en-US",
    {
      domain: "lakeside.localhost",
      booker_first_name: "Mei",
      booker_last_name: "Lin",
      // A guest of their own (holds count by normalised email and by phone; lakeside keeps the default limits).
      booker_phone: guestPhone(javaScriptEnabled ? 9101 : 9102),
      booker_email: `deposit-${javaScriptEnabled ? "js" : "nojs"}@example.com`,
      check_in_day: start,
      check_out_day: end,
      pay_way: "credit",
      payment_vendor: 1,
      pay_option: "part",
      orders: [{ room_class_id: room.room_class_id, proposal_id: room.price_set[0]!.proposal_id, num: 1 }],
      adults_count: 2,
    },
  );
  expect(created.status).toBe(201);
  const { deposit_amount: deposit, final_amount: total } = created.json.data.order;
  expect(deposit).toBeGreaterThan(0);
  expect(deposit).toBeLessThan(total);

  await page.goto(hotelUrl("lakeside", `/en-US${created.json.data.redirect_path}`));
  await expect(page.getByRole("status")).toHaveText(`Amount due now: ${twd(deposit)}`);
  await toGateway(page, javaScriptEnabled, deposit);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(
    `Your deposit is paid and the booking is confirmed. You can pay the rest, ${twd(total - deposit)}, now or at the hotel.`,
  );
  await expect(page.locator(".order-summary__status")).toHaveText("Confirmed");

  // The rest, with FEATURE_REPAY on (the test server's setting): through the master system's repay.
  await toGateway(page, javaScriptEnabled, total - deposit, `Pay the rest, ${twd(total - deposit)}`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("This booking is paid in full. Thank you!");
  await expect(page.locator(".payment-paid li")).toHaveCount(2);
});
