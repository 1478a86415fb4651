/**
 * "Add extras" on the order page (issue 27, decision 126), as a browser without JavaScript uses it:
 * offered only for an unpaid order to the holder of its cancel link (not its view link, not once
 * paid), one plain POST adds the extras and the amount to pay rises by their price; every refusal
 * keeps the counts, says why in the guest's language and changes nothing; a forged or replayed form
 * adds nothing.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { BOOKER, Browser, TEST_ADDONS, apiJson, fixtureHotel, fixtureIds, hidden, loadHotel, text, payInFull } from "./helpers";

const HOST = "orderextras.localhost";
const today = todayIn("Asia/Taipei");
const stay = { check_in_day: addDays(today, 14), check_out_day: addDays(today, 16) };
const ids: Record<string, number> = {};

interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; pay_amount: number };
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      file.room_classes[0]!.total_rooms = 30;
      (file.hotel as Record<string, unknown>).payment_list = [{ vendor_id: 8, method: "remittance" }];
      (file as Record<string, unknown>).addons = [TEST_ADDONS.breakfast, TEST_ADDONS.pickup];
    }),
  );
  Object.assign(ids, await fixtureIds(HOST));
});

let seq = 0;
async function place(): Promise<Created> {
  const created = await apiJson<Created>(HOST, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json", "Idempotency-Key": `order-extras-${++seq}-${Date.now()}` },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      ...stay,
      pay_way: "remittance",
      payment_vendor: 8,
      orders: [{ room_class_id: ids.room, proposal_id: ids.BAR, num: 1 }],
      adults_count: 2,
      children_count: 1,
    }),
  });
  expect(created.status).toBe(201);
  return created.body.data;
}

/** The fixture hotel speaks Chinese (no prefix) and English. */
const cancelPage = (created: Created, lang: "en-US" | "zh-TW" = "en-US") =>
  `${lang === "zh-TW" ? "" : `/${lang}`}/hxa/orders/${created.order_doc}?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`;
const viewPage = (created: Created) => `/en-US/hxa/orders/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`;

/** Everything adding extras could change: the order's add-ons and amounts, and the pickups held. */
async function snapshot(orderDoc: string) {
  const row = await env.DB.prepare(
    "SELECT room_attachment_detail, attachment_amount, total_price, pay_amount, deposit_amount, status FROM orders WHERE order_doc = ?",
  )
    .bind(orderDoc)
    .first();
  const days = await env.DB.prepare("SELECT day, taken FROM addon_days WHERE addon_id = ? ORDER BY day").bind(ids.pickup).all();
  return { row, days: days.results };
}

/** The amount to pay now, as the order page shows it. */
const dueNow = (html: string) => /price-summary__due"[^>]*><dt>[^<]*<\/dt><dd>([^<]+)<\/dd>/.exec(html)?.[1];
/** What a count field holds, as the page shows it. */
const fieldValue = (html: string, name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];
const money = (amount: number) => `NT$${amount.toLocaleString("en-US")}`;

describe("adding extras on the order page, without JavaScript", () => {
  it("offers them to the cancel link's holder of an unpaid order, and adds them: the amount to pay rises by their price", async () => {
    const created = await place();
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain("Add extras");
    expect(text(page.html)).toContain("NT$1,200 each, once for the stay");
    expect(text(page.html)).toContain("NT$400 per adult per night, NT$200 per child per night");
    expect(dueNow(page.html)).toBe(money(created.order.pay_amount));

    const posted = await guest.request(cancelPage(created), {
      csrf: hidden(page.html, "csrf"),
      seen: hidden(page.html, "seen") || "0",
      [`addon_${ids.pickup}`]: "1",
      [`addon_${ids.breakfast}`]: "2",
      [`addon_${ids.breakfast}_children`]: "1",
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`${cancelPage(created)}&added=1`);
    const after = await guest.request(posted.location!);
    const added = 1200 + (2 * 400 + 200) * 2;
    expect(text(after.html)).toContain("Your extras were added to the booking");
    expect(text(after.html)).toContain("Airport pickup × 1: NT$1,200");
    expect(text(after.html)).toContain("Breakfast × 3: NT$2,000");
    expect(dueNow(after.html)).toBe(money(created.order.pay_amount + added));
    // What the booking has now, beside the item.
    expect(text(after.html)).toContain("Already in your booking: 1 · Left for your dates: 2");
    const stored = await snapshot(created.order_doc);
    expect(stored.row).toMatchObject({ attachment_amount: added, pay_amount: created.order.pay_amount + added });
  });

  it("is not offered with a view link, and its POST there is a 404 that changes nothing", async () => {
    const created = await place();
    const guest = new Browser(HOST);
    const view = await guest.request(viewPage(created));
    expect(view.status).toBe(200);
    expect(text(view.html)).not.toContain("Add extras");
    expect(view.html).not.toContain('name="csrf"');
    // A token from a page that had the form, sent with the view link.
    const withForm = await guest.request(cancelPage(created));
    const before = await snapshot(created.order_doc);
    const posted = await guest.request(viewPage(created), { csrf: hidden(withForm.html, "csrf"), seen: "0", [`addon_${ids.pickup}`]: "1" });
    expect(posted.status).toBe(404);
    expect(await snapshot(created.order_doc)).toEqual(before);
  });

  it("is not offered once the order is paid, and a form sent after paying is refused in the guest's language", async () => {
    const created = await place();
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const csrf = hidden(page.html, "csrf");
    expect(csrf).not.toBe("");
    // Paid meanwhile (in another tab, by transfer).
    await payInFull(created.order_doc, "OX");

    const before = await snapshot(created.order_doc);
    const paid = await guest.request(cancelPage(created));
    expect(text(paid.html)).not.toContain("Add extras");
    const posted = await guest.request(cancelPage(created, "zh-TW"), {
      csrf,
      seen: "0",
      [`addon_${ids.pickup}`]: "1",
    });
    expect(posted.status).toBe(409);
    expect(text(posted.html)).toContain("僅尚未付款的訂單可於線上加購，請聯絡飯店");
    expect(await snapshot(created.order_doc)).toEqual(before);
  });

  it("refuses bad counts, too many, a payment under way and a forged token: the counts kept, nothing changed", async () => {
    const created = await place();
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const csrf = hidden(page.html, "csrf");
    const before = await snapshot(created.order_doc);
    const send = (form: Record<string, string>, lang: "en-US" | "zh-TW" = "en-US") =>
      guest.request(cancelPage(created, lang), { csrf, seen: "0", ...form });

    const bad = await send({ [`addon_${ids.pickup}`]: "1.5", [`addon_${ids.breakfast}`]: "2" });
    expect(bad.status).toBe(400);
    expect(text(bad.html)).toContain("Enter a whole number from 0 to 100");
    expect(fieldValue(bad.html, `addon_${ids.pickup}`)).toBe("1.5");
    expect(fieldValue(bad.html, `addon_${ids.breakfast}`)).toBe("2");

    const none = await send({ [`addon_${ids.pickup}`]: "0" });
    expect(none.status).toBe(400);
    expect(text(none.html)).toContain("Enter how many of an extra to add.");

    const tooMany = await send({ [`addon_${ids.pickup}`]: "3" });
    expect(tooMany.status).toBe(409);
    expect(text(tooMany.html)).toContain("At most 2 of this extra per booking");
    expect(fieldValue(tooMany.html, `addon_${ids.pickup}`)).toBe("3");

    const party = await send({ [`addon_${ids.breakfast}`]: "3" }, "zh-TW");
    expect(party.status).toBe(400);
    expect(text(party.html)).toContain("此加購項目的人數超過訂單的入住人數");

    // Another site's page posting here, or a token that is not this browser's.
    const forged = await send({ csrf: "forged-token", [`addon_${ids.pickup}`]: "1" });
    expect(forged.status).toBe(403);
    expect(text(forged.html)).toContain("This page has expired: reload it and try again.");
    const stranger = await new Browser(HOST).request(cancelPage(created), { csrf, seen: "0", [`addon_${ids.pickup}`]: "1" });
    expect(stranger.status).toBe(403);

    // A payment under way (a transfer code issued, a card page open).
    await env.DB.prepare(
      "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) SELECT id, 8, 'sandbox', ?, pay_amount, 'full' FROM orders WHERE order_doc = ?",
    )
      .bind(`OXPAYING${created.order_doc.replace(/-/g, "")}`, created.order_doc)
      .run();
    const paying = await send({ [`addon_${ids.pickup}`]: "1" });
    expect(paying.status).toBe(409);
    expect(text(paying.html)).toContain("A payment for this booking is under way; extras can be added only before paying");
    expect(await snapshot(created.order_doc)).toEqual(before);
  });

  it("adds nothing twice: the same form sent again, or twice at once, is refused after the first", async () => {
    const created = await place();
    const guest = new Browser(HOST);
    const page = await guest.request(cancelPage(created));
    const form = { csrf: hidden(page.html, "csrf"), seen: "0", [`addon_${ids.pickup}`]: "1" };
    const [first, second] = await Promise.all([guest.request(cancelPage(created), form), guest.request(cancelPage(created), form)]);
    expect([first.status, second.status].sort()).toEqual([303, 409]);
    const replay = await guest.request(cancelPage(created), form);
    expect(replay.status).toBe(409);
    expect(text(replay.html)).toContain("Extras were added to this booking meanwhile; please check them and try again");
    const stored = await snapshot(created.order_doc);
    expect(stored.row).toMatchObject({ attachment_amount: 1200, pay_amount: created.order.pay_amount + 1200 });
  });
});
