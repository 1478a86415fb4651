import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { apiCall, bookTaipeiRoom, hotelUrl, taipeiDay } from "./helpers";

interface DemoRoom {
  room_class_id: number;
  price_set: { inventory: number }[];
}

/** Rooms left on a night at the Taipei hotel, as the availability search counts them. */
async function roomsLeft(night: string): Promise<number> {
  const rooms = (
    await apiCall<{ data: { rooms: DemoRoom[] } }>(
      "GET",
      `/api/ota/room/empty-by-date?domain=taipei.localhost&start_date=${night}&end_date=${nextDay(night)}&lang=en-US`,
    )
  ).json.data.rooms;
  return rooms.reduce((sum, room) => sum + Math.max(0, ...room.price_set.map((plan) => plan.inventory)), 0);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const WORDS = {
  "zh-TW": {
    prefix: "",
    heading: "您的訂單",
    pdfTitle: "訂房確認書",
    cancelled: "您的訂單已取消",
    refund: "您尚未付款，取消不需任何費用。",
    confirm: "確認取消訂單",
    hotel: "雅苑",
  },
  "en-US": {
    prefix: "/en-US",
    heading: "Your booking",
    pdfTitle: "Booking confirmation",
    cancelled: "Your booking has been cancelled.",
    refund: "Nothing has been paid: cancelling costs nothing.",
    confirm: "Cancel the booking",
    hotel: "Portico Taipei",
  },
} as const;

const downloads = mkdtempSync(join(tmpdir(), "after-booking-"));

for (const lang of ["zh-TW", "en-US"] as const) {
  test(`${lang}: the emailed links show the order, its PDF, and cancel it (GET shows, POST cancels) @js-matters`, async ({
    page,
    javaScriptEnabled,
  }) => {
    const words = WORDS[lang];
    const offset = (lang === "zh-TW" ? 190 : 194) + (javaScriptEnabled ? 0 : 2);
    const night = taipeiDay(offset);
    const email = `after-${lang}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
    const before = await roomsLeft(night);
    const orderDoc = await bookTaipeiRoom(page, { prefix: words.prefix, javaScriptEnabled, offset, email });
    expect(await roomsLeft(night)).toBe(before - 1);

    // The confirmation is in the outbox, in the order's language, with the signed links.
    await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(email)}`));
    const confirmation = page.locator('article[data-kind="order_confirmation"]');
    await expect(confirmation).toHaveCount(1);
    await expect(confirmation.locator("h2")).toContainText(orderDoc);
    await expect(confirmation.locator("p").first()).toContainText(lang);
    const cancelHref = await confirmation.locator('pre a[href*="/cancel?cancel_hash="]').getAttribute("href");
    await confirmation.locator('pre a[href*="?valid_hash="]').first().click();

    // The order page, from the view link.
    await expect(page.locator("h1")).toHaveText(words.heading);
    await expect(page.locator(".order-summary")).toContainText(orderDoc);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator(".order-page__actions a[download]").click()]);
    expect(download.suggestedFilename()).toBe("BOOKING_CONFIRMATION.pdf");
    const file = join(downloads, `${lang}-${javaScriptEnabled}.pdf`);
    await download.saveAs(file);
    const pdfText = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    expect(pdfText).toContain(words.pdfTitle);
    expect(pdfText).toContain(orderDoc);
    expect(pdfText).toContain(words.hotel);
    // The booker's name as written in Chinese, family name first, in either language (decision 086).
    expect(pdfText).toContain("林喆");

    // The cancel link: the GET shows what will be cancelled and the refund, and changes nothing.
    await page.goto(cancelHref ?? "");
    await expect(page.locator(".order-summary")).toContainText(orderDoc);
    await expect(page.locator(".cancel-page__refund")).toContainText(words.refund);
    expect(await roomsLeft(night)).toBe(before - 1);
    await page.getByRole("button", { name: words.confirm }).click();
    await expect(page.getByRole("status")).toContainText(words.cancelled);
    await expect(page).toHaveURL(new RegExp(`/hxa/orders/${orderDoc}\\?valid_hash=.+&cancelled=1$`));
    expect(await roomsLeft(night)).toBe(before);

    await page.goto(hotelUrl("taipei", `/dev/outbox?to=${encodeURIComponent(email)}`));
    await expect(page.locator('article[data-kind="order_cancellation"] h2')).toContainText(orderDoc);
  });
}
