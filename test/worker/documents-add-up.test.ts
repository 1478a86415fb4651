/**
 * Issue 37: every amount a guest reads adds up, and one cancellation policy for one stay.
 * 9. A member's points (and a coupon) have lines of their own in the confirmation email and PDF,
 *    and the lines listed there add up to the total.
 * 10. For a hotel whose own refund ladder is more generous than the standard contract (70 % back
 *    1–2 days ahead, where the contract gives 50 %), the cancel page, the order page, the email and
 *    the PDF state that one policy, with the same percentages.
 * The PDF is read back with poppler's pdftotext (test/worker/pdf-text.global.ts), as a guest's reader would.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { deliverMail } from "~/backend/mail/deliver.server";
import { resendMailer } from "~/backend/mail/transports.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import {
  Browser,
  apiJson,
  fetchAs,
  fixtureHotel,
  hotelRefs,
  loadHotel,
  orderOneNight,
  setAsideOtherHotelsMail,
  text,
  type HotelRefs,
} from "./helpers";

const HOST = "add-up.localhost";
const today = todayIn("Asia/Taipei");
/** The Taipei demo hotel's ladder: 70 % back 1–2 days ahead, where the standard contract gives 50 %. */
const LADDER = [
  { days_before: 3, percent: 100 },
  { days_before: 1, percent: 70 },
  { days_before: 0, percent: 0 },
];

let hotel: HotelRefs;
let memberToken = "";

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      const info = file.hotel as Record<string, unknown>;
      info.payment_list = [{ vendor_id: 1, method: "credit" }];
      info.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "3002607" }];
      info.refund_ladder = LADDER;
      for (const plan of file.rate_plans as { refund_template_id?: number }[]) plan.refund_template_id = 0;
      Object.assign(file, {
        members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", phone: "0912 345 678", points: 5_000 }],
      });
    }),
  );
  hotel = await hotelRefs(HOST);
  const member = await env.DB.prepare("SELECT id FROM members WHERE hotel_id = ?").bind(hotel.id).first<{ id: number }>();
  memberToken = await issueMemberToken(env.DB, member?.id ?? 0);
});

interface Created {
  order_doc: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number; sum: number; couponDiscount: number; usedPoint: number };
}

/** Books one night as the signed-in member (the site sends the member's token as a bearer token). */
async function bookAsMember(checkIn: string, overrides: Record<string, unknown>, lang = "en-US") {
  const created = await apiJson<Created>(HOST, `/api/ota/order/personal-new?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${memberToken}` },
    body: JSON.stringify({
      domain: HOST,
      booker_first_name: "Mei",
      booker_last_name: "Lin",
      booker_phone: "+886 912 345 678",
      booker_email: "mei@example.com",
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 1),
      pay_way: "credit",
      payment_vendor: 1,
      orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
      adults_count: 2,
      ...overrides,
    }),
  });
  if (created.status !== 201) throw new Error(`order refused: ${JSON.stringify(created.body)}`);
  return created.body.data;
}

/** Pays what is due now on the sandbox gateway's hosted page. */
async function pay(created: Created) {
  const started = await apiJson<{ start: { fields: Record<string, string> } }>(HOST, "/api/payment/start?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain: HOST,
      order_doc: created.order_doc,
      valid_hash: created.order.valid_hash,
      return_path: `/pay/${hotel.id}/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`,
    }),
  });
  expect(started.status).toBe(200);
  const paid = await fetchAs(HOST, "/sandbox-gateway/ecpay/decide", {
    method: "POST",
    body: new URLSearchParams({ ...started.body.data.start.fields, sandbox_decision: "pay" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
}

/** A PDF's text as pdftotext reads it, spaces squeezed. */
async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const response = await fetch(inject("pdfText"), { method: "POST", body: bytes });
  const said = await response.text();
  expect(response.status, said).toBe(200);
  return said.replace(/[ \t]+/g, " ");
}

/** The order's confirmation email as sent (through the real Resend adapter, its provider faked): its text and its PDF's text. */
async function sentConfirmation(doc: string): Promise<{ text: string; pdf: string }> {
  const sent: { subject: string; text: string; attachments?: { content: string }[] }[] = [];
  const fakeFetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(JSON.parse(String(init?.body)));
    return Response.json({ id: "re_1" });
  }) as typeof fetch;
  const appEnv = { ...parseEnv(env as unknown as Record<string, unknown>), MAIL_FROM: "Hotel <stay@example.com>" };
  await setAsideOtherHotelsMail(HOST);
  await deliverMail(appEnv, createLogger("test"), { mailer: resendMailer("re_test_key", fakeFetch), limit: 50 });
  const mail = sent.find((message) => message.subject.includes(doc) && (message.attachments?.length ?? 0) > 0);
  if (!mail) throw new Error(`no confirmation sent for ${doc}`);
  const bytes = Uint8Array.from(atob(mail.attachments?.[0]?.content ?? ""), (char) => char.charCodeAt(0));
  return { text: mail.text, pdf: await pdfText(bytes) };
}

/** "NT$2,700" → 2700, "−NT$1,000" → -1000: the last amount on a line, as a guest adds it. */
function lastAmount(line: string): number | null {
  const match = /(−?)NT\$([\d,]+)(?!.*NT\$)/.exec(line);
  return match ? (match[1] ? -1 : 1) * Number((match[2] ?? "").replaceAll(",", "")) : null;
}

describe("a member's points in the confirmation email and PDF (issue 37 item 9)", () => {
  it("have a line of their own, named with the points used, and the lines listed add up to the total", async () => {
    const created = await bookAsMember(addDays(today, 20), { point_used: 1_000, coupon_array: ["WELCOME10"] });
    const { sum, couponDiscount, usedPoint, final_amount: total } = created.order;
    expect(usedPoint).toBe(1_000);
    expect(couponDiscount).toBeGreaterThan(0);
    expect(total).toBe(sum - couponDiscount - 1_000);
    const money = (amount: number) => `NT$${amount.toLocaleString("en-US")}`;
    const { text: mail, pdf } = await sentConfirmation(created.order_doc);

    // The email: the rooms, then what is taken off them, each on its line, then the total they make.
    const lines = mail.split("\n");
    const first = lines.findIndex((line) => line.startsWith("Rooms: "));
    const totalAt = lines.findIndex((line) => line.startsWith("Total: "));
    const listed = lines.slice(first, totalAt);
    expect(listed).toEqual([
      `Rooms: Double · Room only × 1 · ${money(sum)}`,
      `Discount WELCOME10: −${money(couponDiscount)}`,
      `Points (1,000 pts): −NT$1,000`,
    ]);
    expect(lines[totalAt]).toBe(`Total: ${money(total)}`);
    expect(listed.reduce((added, line) => added + (lastAmount(line) ?? 0), 0)).toBe(total);

    // The PDF: its amounts, in the order they are drawn, from the rooms to the total.
    const amounts = pdf.slice(pdf.indexOf("Amounts"));
    expect(amounts).toContain("Points (1,000 pts)");
    expect(amounts).toContain(`Discount WELCOME10`);
    const drawn = [...amounts.matchAll(/−?NT\$[\d,]+/g)].map((match) => lastAmount(match[0]) ?? 0);
    const at = drawn.indexOf(total);
    expect(drawn.slice(0, at)).toEqual([sum, -couponDiscount, -1_000]);
    expect(drawn.slice(0, at).reduce((added, amount) => added + amount, 0)).toBe(total);
  });
});

describe("one cancellation policy for a hotel more generous than the standard contract (issue 37 item 10)", () => {
  // The hotel's ladder in the words every place uses: 70 % back 1–2 days ahead, the hotel's own and why.
  const HOTEL_RULE =
    "the hotel's own terms, more generous than the standard contract (3+ days before check-in 100%; 1–2 days 70%; on the day 0%)";
  const squeezed = (said: string) => said.replace(/\s+/g, "");

  it("is stated with the same percentages on the cancel page, the order page, in the email and in the PDF, ten days ahead as two", async () => {
    for (const days of [10, 2]) {
      const created = await orderOneNight<Created>(HOST, hotel, addDays(today, days));
      expect(created.status).toBe(201);
      const order = created.body.data;
      await pay(order);
      const browser = new Browser(HOST);
      const words = (html: string) => text(html).replaceAll("&#x27;", "'");

      // Ten days ahead both schedules give everything back; the rule named is still the hotel's, not the contract's 50 %.
      const cancelPage = words(
        (await browser.request(`/en-US/hxa/orders/${order.order_doc}/cancel?cancel_hash=${encodeURIComponent(order.order.cancel_hash)}`))
          .html,
      );
      const percent = days === 10 ? "100%" : "70%";
      expect(cancelPage).toContain(
        `Room price paid in advance ${`NT$${order.order.final_amount.toLocaleString("en-US")}`}: ${percent} back`,
      );
      expect(cancelPage).toContain(`Rule: ${HOTEL_RULE}.`);
      expect(cancelPage).not.toContain("50%");

      const orderPage = words(
        (await browser.request(`/en-US/hxa/orders/${order.order_doc}?valid_hash=${encodeURIComponent(order.order.valid_hash)}`)).html,
      );
      expect(orderPage).toContain(`Room price paid in advance, if you cancel: ${HOTEL_RULE}.`);
      expect(orderPage).not.toContain("50%");

      const pdfResponse = await fetchAs(
        HOST,
        `/en-US/hxa/orders/${order.order_doc}/confirmation.pdf?valid_hash=${encodeURIComponent(order.order.valid_hash)}`,
      );
      expect(pdfResponse.status).toBe(200);
      const pdf = await pdfText(await pdfResponse.arrayBuffer());
      // A paragraph wraps in the PDF: compared without white space.
      expect(squeezed(pdf)).toContain(squeezed(`Cancellation policy Room price paid in advance, if you cancel: ${HOTEL_RULE}.`));
      expect(pdf).not.toContain("50%");

      const { text: mail } = await sentConfirmation(order.order_doc);
      expect(mail).toContain(`Room price paid in advance, if you cancel: ${HOTEL_RULE}.`);
      expect(mail).not.toContain("50%");
    }
  });
});
