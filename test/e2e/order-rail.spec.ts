import { expect, test } from "@playwright/test";
import { hotelUrl, placeOrder, taipeiDay } from "./helpers";

// Issue 37 item 14, decision 140: after paying, a guest refunds one rail ticket and moves the other
// to a later train from the order page, with JavaScript on and off. Each step states what it does
// (the fee kept and the amount back; the new train, the fare difference and the fee) before the
// guest confirms. The demo city hotel is at Taipei; Zuoying 08:00 (0806) and 13:00 (0826) run daily.

test("a guest refunds one rail ticket and moves the other to a later train from the order page @js-matters", async ({
  page,
  javaScriptEnabled,
}) => {
  const offset = javaScriptEnabled ? 22 : 24;
  const created = await placeOrder("credit", 1, offset, {
    rail_item_list: [
      { direction: "outbound", date: taipeiDay(offset), train_no: "0806", origin: "1070", destination: "1000", passengers: { adult: 2 } },
      { direction: "return", date: taipeiDay(offset + 1), train_no: "0823", origin: "1000", destination: "1070", passengers: { adult: 2 } },
    ],
  });
  const orderPage = hotelUrl(
    "taipei",
    `/en-US/hxa/orders/${created.order_doc}?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`,
  );

  // Paid at the test gateway: the tickets are issued.
  await page.goto(orderPage);
  await page.getByRole("link", { name: "Pay now" }).click();
  await page.getByRole("button", { name: /^Pay NT\$[\d,]+ now$/ }).click();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.locator("h1")).toHaveText("Test payment gateway");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page).toHaveURL(/\/pay\//);
  await expect(page.getByRole("button", { name: /^Pay NT\$[\d,]+ now$/ })).toHaveCount(0);

  await page.goto(orderPage);
  const tickets = page.getByRole("region", { name: "High-speed rail tickets" });
  const lines = tickets.locator(".rail-line");
  await expect(lines.nth(1).locator(".rail-line__status")).toContainText("Booked");
  const total = Number(((await page.locator(".price-summary__total dd").textContent()) ?? "").replace(/\D/g, ""));

  // Refund the return ticket: the fee and what comes back are stated first.
  await tickets.getByRole("link", { name: "Refund this ticket (From the hotel)" }).click();
  const stated = page.locator("#rail-step");
  await expect(stated).toContainText(/Taiwan High Speed Rail keeps a handling fee of NT\$[\d,]+ for these 2 tickets/);
  const fee = Number(((await stated.locator("dd").nth(1).textContent()) ?? "").replace(/\D/g, ""));
  const back = Number(((await stated.locator("dd").nth(2).textContent()) ?? "").replace(/\D/g, ""));
  await stated.getByRole("button", { name: "Confirm the refund" }).click();
  await expect(page.getByRole("status")).toHaveText("The ticket was refunded; your booking and its amounts below are updated.");
  await expect(lines.nth(1).locator(".rail-line__status")).toContainText(`Refunded · PNR`);
  await expect(lines.nth(1).locator(".rail-line__status")).toContainText(
    `NT$${back.toLocaleString("en-US")} refunded, fee NT$${fee.toLocaleString("en-US")}`,
  );
  // The amounts add up: the total keeps the fee, and what was paid beyond it is to be refunded.
  await expect(page.locator(".price-summary__total dd")).toHaveText(`NT$${(total - back).toLocaleString("en-US")}`);
  // What came back of the ticket is taken off the total, and owed to the guest of what was charged (decision 137).
  await expect(page.locator(".price-summary")).toContainText(
    `Rail tickets refunded (less the rail operator's fee)−NT$${back.toLocaleString("en-US")}`,
  );
  await expect(page.locator(".price-summary")).toContainText(`To be refundedNT$${back.toLocaleString("en-US")}`);
  await expect(tickets.getByRole("link", { name: "Refund this ticket (From the hotel)" })).toHaveCount(0);

  // Move the outbound ticket to the 13:00 train: the new train, the fare difference and the fee stated first.
  await tickets.getByRole("link", { name: "Change train (To the hotel)" }).click();
  await expect(stated).toContainText("Your current train");
  await stated.getByRole("link", { name: "Choose train 0826 at 13:00" }).click();
  await expect(stated).toContainText("Train 0826 · Zuoying 13:00 → Taipei");
  await expect(stated).toContainText("No fare difference (NT$0)");
  await expect(stated).toContainText("None (NT$0)");
  await stated.getByRole("button", { name: "Change to train 0826 at 13:00" }).click();
  await expect(page.getByRole("status")).toHaveText("The ticket was moved to the new train; your booking below is updated.");
  await expect(lines.nth(0)).toContainText("Train 0826");
  await expect(lines.nth(0).locator(".rail-line__status")).toContainText("Booked");
  await expect(page.locator(".price-summary__total dd")).toHaveText(`NT$${(total - back).toLocaleString("en-US")}`);

  // The cancel page tells the same account (issue 37 item 8): the ticket's refund on a line of its
  // own, never as an add-on, what is owed back, and the rail operator's fee as the operator's.
  await page.goto(
    hotelUrl("taipei", `/en-US/hxa/orders/${created.order_doc}/cancel?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`),
  );
  const summary = page.locator(".price-summary");
  await expect(summary).toContainText(`Rail tickets refunded (less the rail operator's fee)−NT$${back.toLocaleString("en-US")}`);
  await expect(summary).toContainText(`To be refundedNT$${back.toLocaleString("en-US")}`);
  await expect(summary).toContainText(`Refund fee kept by the rail operatorNT$${fee.toLocaleString("en-US")}`);
  await expect(summary).not.toContainText("Add-ons");
  await expect(page.locator(".price-summary__total dd")).toHaveText(`NT$${(total - back).toLocaleString("en-US")}`);
});
