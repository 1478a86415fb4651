import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { Browser, TEST_ADDONS, checkoutFields, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * Limited extras at the checkout (issue 37 item 11), as a browser without JavaScript uses it,
 * through the real Worker and D1: each says how many are left for the stay (the fewest over the
 * days it is held on), its count field asks for no more, and a count beyond it is refused on its
 * field, naming the item and how many are left, with the count kept and no price that leaves it out.
 */
const HOST = "extras-left.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 30)}&end=${addDays(today, 32)}&adults=2`;
const booking = `/en-US/hxa/booking?${stay}`;
const checkoutPath = `/en-US/hxa/checkout?${stay}`;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      (file as Record<string, unknown>).addons = [
        // Held on the check-in day: one left for the stay.
        { ...TEST_ADDONS.pickup, inventory: { per_day: 1 } },
        // Held every night: five a night but two on the second, so two for the stay.
        { ...TEST_ADDONS.parking, plans: ["BAR"], max_per_booking: 4, inventory: { per_day: 5, days: [{ days: ["today+31"], count: 2 }] } },
      ];
    }),
  );
});

async function checkout() {
  const browser = new Browser(HOST);
  const page = await browser.request(booking);
  const added = await browser.request(booking, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  expect(added.status).toBe(303);
  const html = (await browser.request(checkoutPath)).html;
  const fields = [...html.matchAll(/name="(addon_\d+)"/g)].map((match) => match[1] ?? "");
  const [pickup = "", parking = ""] = fields;
  return { browser, html, pickup, parking };
}

/** The count field `name` as the page renders it. */
const input = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";

describe("limited extras at the checkout, without JavaScript", () => {
  it("says how many of each are left for the stay and caps the count field there", async () => {
    const { html, pickup, parking } = await checkout();
    const shown = text(html);
    expect(shown).toMatch(/Airport pickup .*Only 1 left for your dates/);
    expect(shown).toMatch(/Parking .*2 left for your dates/);
    expect(input(html, pickup)).toContain('max="1"');
    expect(input(html, parking)).toContain('max="2"');
  });

  it("refuses more than are left with the item's name and how many are left, keeps the count, and never prices without it", async () => {
    const { browser, html, pickup } = await checkout();
    const form = checkoutFields(html, { booker_email: "yi@example.com", payment: "8:remittance", pay_option: "all", [pickup]: "2" });

    const priced = await browser.request(checkoutPath, { ...form, intent: "price" });
    expect(priced.status).toBe(400);
    expect(text(priced.html)).toContain("Only 1 Airport pickup left for your dates");
    expect(input(priced.html, pickup)).toContain('value="2"');
    // No amount is shown that leaves the pickup out: the first visit's rooms-only price is not what would be charged.
    expect(priced.html).not.toContain('class="price-summary"');
    expect(hidden(priced.html, "due_now")).toBe("");

    const placed = await browser.request(checkoutPath, { ...form, intent: "order", due_now: hidden(html, "due_now") });
    expect(placed.status).toBe(400);
    expect(placed.location).toBeNull();
    expect(text(placed.html)).toContain("Only 1 Airport pickup left for your dates");
    expect(input(placed.html, pickup)).toContain('value="2"');

    // One fits: priced with the rooms.
    const fits = await browser.request(checkoutPath, { ...form, [pickup]: "1", intent: "price" });
    expect(fits.status).toBe(200);
    expect(text(fits.html)).toContain("Airport pickup × 1 NT$1,200");
    expect(Number(hidden(fits.html, "due_now"))).toBe(Number(hidden(html, "due_now")) + 1200);
  });

  it("counts an item held every night by its fewest night", async () => {
    const { browser, html, parking } = await checkout();
    const refused = await browser.request(checkoutPath, {
      ...checkoutFields(html, { booker_email: "yi@example.com", payment: "8:remittance", [parking]: "3" }),
      intent: "price",
    });
    expect(refused.status).toBe(400);
    expect(text(refused.html)).toContain("Only 2 of Parking left for your dates");
  });

  it("names the item in the guest's language", async () => {
    const browser = new Browser(HOST);
    const zh = (path: string) => path.replace("/en-US/", "/");
    const page = await browser.request(zh(booking));
    await browser.request(zh(booking), {
      csrf: hidden(page.html, "csrf"),
      intent: "add",
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
      num: "1",
    });
    const html = (await browser.request(zh(checkoutPath))).html;
    const pickup = /name="(addon_\d+)"/.exec(html)?.[1] ?? "";
    expect(text(html)).toContain("您的日期僅剩 1 份");
    const refused = await browser.request(zh(checkoutPath), {
      ...checkoutFields(html, { booker_email: "yi@example.com", payment: "8:remittance", [pickup]: "2" }),
      intent: "price",
    });
    expect(text(refused.html)).toContain("您的日期「機場接送」僅剩 1 份");
  });
});
