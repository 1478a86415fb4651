import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { Browser, checkoutFields, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * Extras for each room line (issue 27: `attachment_detail.rooms`), as a browser without JavaScript
 * uses them: with two room lines in the booking, the checkout asks for each line's extras under its
 * room's name, prices them per line, and the order keeps them on their line.
 */
const HOST = "addon-rooms.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 33)}&end=${addDays(today, 34)}&adults=2`;
const booking = `/en-US/hxa/booking?${stay}`;
const checkoutPath = `/en-US/hxa/checkout?${stay}`;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      const twin = { ...structuredClone(file.room_classes[0]!), room_code: "twin", name: { "zh-TW": "雙床房", "en-US": "Twin" } };
      file.room_classes.push(twin);
      file.rate_plans[0]!.rooms.push({ ...structuredClone(file.rate_plans[0]!.rooms[0]!), room_code: "twin" });
      (file as Record<string, unknown>).addons = [
        { code: "breakfast", name: { "en-US": "Breakfast" }, unit: "person_night", price: 400, max_per_booking: 6, plans: ["BAR"] },
      ];
    }),
  );
});

describe("extras per room line, without JavaScript", () => {
  it("asks for each line's extras under its room, prices them per line and books them on their line", async () => {
    const browser = new Browser(HOST);
    const page = await browser.request(booking);
    const rooms = [...page.html.matchAll(/name="room_class_id" value="(\d+)"/g)].map((match) => match[1]!);
    const plans = [...page.html.matchAll(/name="proposal_id" value="(\d+)"/g)].map((match) => match[1]!);
    expect(new Set(rooms).size).toBe(2);
    for (const index of [0, 1]) {
      const added = await browser.request(booking, {
        csrf: hidden(page.html, "csrf"),
        intent: "add",
        room_class_id: rooms[index]!,
        proposal_id: plans[index]!,
        num: "1",
      });
      expect(added.status).toBe(303);
    }
    const checkout = await browser.request(checkoutPath);
    const shown = text(checkout.html);
    expect(shown).toMatch(/Room 1: (Double|Twin) · Room only/);
    expect(shown).toMatch(/Room 2: (Double|Twin) · Room only/);
    const fields = [...checkout.html.matchAll(/name="(addon_\d+_r\d)"/g)].map((match) => match[1]!);
    expect(fields.map((name) => name.replace(/\d+_/, "N_"))).toEqual(["addon_N_r0", "addon_N_r1"]);
    expect(shown).not.toContain("For the whole booking");

    const form = checkoutFields(checkout.html, {
      booker_email: "rooms@example.com",
      occupant_name_0: "Chen Yi",
      occupant_name_1: "Chen Er",
      payment: "8:remittance",
      pay_option: "all",
      [fields[1]!]: "2",
    });
    const priced = await browser.request(checkoutPath, { ...form, intent: "price" });
    expect(priced.status).toBe(200);
    expect(text(priced.html)).toContain("Breakfast × 2 NT$800");
    const placed = await browser.request(checkoutPath, { ...form, intent: "order", due_now: hidden(priced.html, "due_now") });
    expect(placed.status, text(placed.html).slice(0, 400)).toBe(303);
    const doc = new URL(placed.location ?? "", `http://${HOST}`).pathname.split("/").pop() ?? "";
    const stored = await env.DB.prepare("SELECT room_attachment_detail FROM orders WHERE order_doc = ?")
      .bind(doc)
      .first<{ room_attachment_detail: string }>();
    const items = JSON.parse(stored?.room_attachment_detail ?? "[]") as { room_index?: number; quantity: number; amount: number }[];
    expect(items.map(({ room_index, quantity, amount }) => ({ room_index, quantity, amount }))).toEqual([
      { room_index: 1, quantity: 2, amount: 800 },
    ]);
  });
});
