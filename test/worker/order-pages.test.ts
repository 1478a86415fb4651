import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueMemberToken } from "~/backend/account/members.server";
import { addDays, todayIn } from "~/domain/dates";
import { deliverMail } from "~/backend/mail/deliver.server";
import { resendMailer } from "~/backend/mail/transports.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import { BOOKER, apiJson, fetchAs, fixtureHotel, loadHotel, setAsideOtherHotelsMail, text } from "./helpers";

/**
 * An order's pages (the confirmation and the payment page) as a guest reads them, in every state an
 * order can be in: unpaid, paid in part, paid in full and cancelled. The money lines are read off
 * the page and must add up there.
 */
const HOST = "order-pages.localhost";

interface CreatedOrder {
  order_doc: string;
  redirect_path: string;
  order: { order_doc: string; valid_hash: string; cancel_hash: string; final_amount: number; deposit_amount: number };
}

let roomClassId = 0;
let planId = 0;
let memberId = 0;
let hotelId = 0;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.hotel, {
        deposit_type: "deposit",
        deposit_percent: 30,
        payment_list: [
          { vendor_id: 1, method: "credit" },
          { vendor_id: 8, method: "remittance" },
        ],
        remittance_info: {
          account_name: "Fixture Hotel Ltd",
          account_number: "012-345",
          bank: "Example Bank",
          branch: "Main",
          country: "TW",
        },
      });
      Object.assign(file, { members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", points: 5000 }] });
    }),
  );
  const ids = await env.DB.prepare(
    `SELECT h.id AS hotel, rc.id AS room, rp.id AS plan, m.id AS member FROM hotels h
     JOIN room_classes rc ON rc.hotel_id = h.id JOIN rate_plans rp ON rp.hotel_id = h.id JOIN members m ON m.hotel_id = h.id
     WHERE h.domain = ?`,
  )
    .bind(HOST)
    .first<{ hotel: number; room: number; plan: number; member: number }>();
  hotelId = ids?.hotel ?? 0;
  roomClassId = ids?.room ?? 0;
  planId = ids?.plan ?? 0;
  memberId = ids?.member ?? 0;
});

/** An order of a member with a coupon and 333 points, paying a 30 % deposit (odd amounts on purpose). */
async function placeOrder(payWay: "remittance" | "credit", offset: number): Promise<CreatedOrder> {
  // "Today" is taken per order, so a run that crosses midnight in Taipei books a valid stay.
  const today = todayIn("Asia/Taipei");
  const token = await issueMemberToken(env.DB, memberId);
  const created = await apiJson<CreatedOrder>(HOST, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "idempotency-key": `order-pages-${payWay}-${offset}-${crypto.randomUUID()}`,
    },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      booking_from: "HXA",
      check_in_day: addDays(today, offset),
      check_out_day: addDays(today, offset + 1),
      pay_way: payWay,
      payment_vendor: payWay === "credit" ? 1 : 8,
      pay_option: "part",
      coupon_array: ["WELCOME10"],
      point_used: 333,
      orders: [{ room_class_id: roomClassId, proposal_id: planId, num: 1 }],
      adults_count: 2,
      children_count: 0,
    }),
  });
  expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
  return created.body.data;
}

interface PageMoney {
  /** Each line of the price summary: its label and its signed amount ("−NT$630" is −630). */
  lines: { label: string; amount: number }[];
  /** The amounts of the order's room lines. */
  rooms: number[];
  text: string;
}

function amountOf(html: string): number {
  const shown = text(html).trim();
  const value = Number(shown.replace(/[^0-9]/g, ""));
  return shown.startsWith("−") || shown.startsWith("-") ? -value : value;
}

function readMoney(html: string): PageMoney {
  const summary = /<dl class="price-summary">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? "";
  const lines = [...summary.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([\s\S]*?)<\/dd>/g)].map((match) => ({
    label: text(match[1] ?? "").trim(),
    amount: amountOf(match[2] ?? ""),
  }));
  const rooms = [...html.matchAll(/<span class="order-summary__amount">([\s\S]*?)<\/span>/g)].map((match) => amountOf(match[1] ?? ""));
  return { lines, rooms, text: text(html) };
}

async function pages(created: CreatedOrder): Promise<{ receipt: PageMoney; pay: PageMoney }> {
  const hash = encodeURIComponent(created.order.valid_hash);
  const receipt = await fetchAs(HOST, `/en-US/redirect/receipt/${created.order_doc}?valid_hash=${hash}`);
  const pay = await fetchAs(HOST, `/en-US/pay/${hotelId}/${created.order_doc}?valid_hash=${hash}`);
  expect(receipt.status).toBe(200);
  expect(pay.status).toBe(200);
  return { receipt: readMoney(await receipt.text()), pay: readMoney(await pay.text()) };
}

/** The labels in order, and the check that the page adds up: rooms − discounts = total = the parts after it. */
function expectAddsUp(money: PageMoney): string[] {
  const labels = money.lines.map((line) => line.label);
  const totalAt = labels.indexOf("Total");
  expect(totalAt, labels.join(" | ")).toBeGreaterThan(0);
  const total = money.lines[totalAt]?.amount ?? Number.NaN;
  const before = money.lines.slice(0, totalAt).reduce((sum, line) => sum + line.amount, 0);
  expect(before, "rooms − coupon − points = total").toBe(total);
  expect(money.lines[0]?.label).toBe("Rooms");
  expect(
    money.rooms.reduce((sum, amount) => sum + amount, 0),
    "the room lines add up to the rooms line",
  ).toBe(money.lines[0]?.amount);
  const after = money.lines.slice(totalAt + 1);
  // After the total, its parts: paid, due now, the balance (none on a cancelled order with nothing paid).
  if (after.length > 0)
    expect(
      after.reduce((sum, line) => sum + line.amount, 0),
      "the parts after the total add up to it",
    ).toBe(total);
  return labels;
}

describe("an order's pages follow its state and add up", () => {
  it("unpaid: every amount used is a line (coupon and points), and the deposit plus the balance make the total", async () => {
    const created = await placeOrder("remittance", 20);
    const { receipt, pay } = await pages(created);
    for (const page of [receipt, pay]) {
      expect(expectAddsUp(page)).toEqual(["Rooms", "Discount WELCOME10", "Points", "Total", "Deposit to pay", "Balance, paid later"]);
      expect(page.lines.find((line) => line.label === "Points")?.amount).toBe(-333);
      expect(page.lines.find((line) => line.label === "Total")?.amount).toBe(created.order.final_amount);
      expect(page.lines.find((line) => line.label === "Deposit to pay")?.amount).toBe(created.order.deposit_amount);
      expect(page.text).toContain("Awaiting payment");
      expect(page.text).toContain("Free cancellation until");
    }
    expect(receipt.text).toContain("Booking confirmed");
    expect(receipt.text).toContain("Please pay by bank transfer");
    expect(receipt.text).toContain("Bank transfer details");
    // Nothing to pay online for a bank transfer: the payment link leads to the confirmation (decision 022).
    expect(pay.text).toContain("Bank transfer details");
    expect(pay.text).not.toContain("Online card payment is not open yet");
  });

  it("paid in part: what was paid and what is left, and the transfer details stay", async () => {
    const created = await placeOrder("remittance", 21);
    await env.DB.prepare("UPDATE orders SET paid_amount = deposit_amount, payment_status = 1 WHERE order_doc = ?")
      .bind(created.order_doc)
      .run();
    const { receipt, pay } = await pages(created);
    for (const page of [receipt, pay]) {
      expect(expectAddsUp(page)).toEqual(["Rooms", "Discount WELCOME10", "Points", "Total", "Paid", "Left to pay"]);
      expect(page.lines.find((line) => line.label === "Paid")?.amount).toBe(created.order.deposit_amount);
      expect(page.lines.find((line) => line.label === "Left to pay")?.amount).toBe(
        created.order.final_amount - created.order.deposit_amount,
      );
    }
    expect(receipt.text).toContain("Bank transfer details");
  });

  it("paid in full: nothing is left to pay, and no page asks for payment", async () => {
    const created = await placeOrder("credit", 22);
    await env.DB.prepare("UPDATE orders SET paid_amount = total_price, payment_status = 2 WHERE order_doc = ?")
      .bind(created.order_doc)
      .run();
    const { receipt, pay } = await pages(created);
    for (const page of [receipt, pay]) {
      expect(expectAddsUp(page)).toEqual(["Rooms", "Discount WELCOME10", "Points", "Total", "Paid"]);
      expect(page.lines.at(-1)?.amount).toBe(created.order.final_amount);
      expect(page.text).toContain("Paid");
      expect(page.text).not.toMatch(/To pay|Left to pay|Deposit to pay/);
    }
    expect(pay.text).toContain("This booking is paid in full.");
    expect(pay.text).not.toContain("Online card payment is not open yet");
  });

  it("cancelled through its cancel link: the pages say so, ask for nothing and promise no free cancellation", async () => {
    const created = await placeOrder("remittance", 23);
    const cancelled = await apiJson(HOST, `/api/wota/order/cancel-via-hash/${created.order_doc}?lang=en-US`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, valid_hash: created.order.cancel_hash }),
    });
    expect(cancelled.status).toBe(200);
    const { receipt, pay } = await pages(created);
    for (const page of [receipt, pay]) {
      expect(expectAddsUp(page)).toEqual(["Rooms", "Discount WELCOME10", "Points", "Total"]);
      expect(page.text).toContain("Cancelled");
      expect(page.text).toContain("This booking has been cancelled. There is nothing to pay.");
      expect(page.text).not.toMatch(/To pay|Left to pay|Deposit to pay|Free cancellation/);
    }
    expect(receipt.text).toContain("Booking cancelled");
    expect(receipt.text).not.toContain("Booking confirmed");
    expect(receipt.text).not.toContain("Bank transfer details");
    expect(pay.text).not.toContain("Online card payment is not open yet");
  });
});

describe("names on an order's pages and emails (issue 22 item 19, decision 052)", () => {
  it("a right-to-left override stored in a name before names refused it reverses nothing: the name is isolated, the phone and email read as typed", async () => {
    const created = await placeOrder("remittance", 24);
    // Written as the sign-up and the order API took it before decision 052.
    await env.DB.prepare("UPDATE orders SET booker_last_name = ?, booker_name = ? WHERE order_doc = ?")
      .bind("Lin\u202E", "Lin\u202E Mei\u0007", created.order_doc)
      .run();
    await env.DB.prepare(
      "UPDATE order_lines SET occupant_name = ?, occupant_phone = ? WHERE order_id = (SELECT id FROM orders WHERE order_doc = ?)",
    )
      .bind("Chen\u202E Yi", "0912 345 678", created.order_doc)
      .run();
    // Its confirmation, composed when the order was made (the Worker's background work), is composed
    // again from the names as now stored, as one still queued from those days would be.
    await env.DB.prepare(
      "UPDATE mail_outbox SET subject = NULL, text_body = NULL, html_body = NULL, status = 'queued' WHERE order_id = (SELECT id FROM orders WHERE order_doc = ?)",
    )
      .bind(created.order_doc)
      .run();
    const hash = encodeURIComponent(created.order.valid_hash);
    const shown = (html: string) => html.replace(/<!-- -->/g, "");
    for (const path of [
      `/en-US/redirect/receipt/${created.order_doc}?valid_hash=${hash}`,
      `/en-US/pay/${hotelId}/${created.order_doc}?valid_hash=${hash}`,
      `/en-US/hxa/orders/${created.order_doc}?valid_hash=${hash}`,
    ]) {
      const response = await fetchAs(HOST, path);
      expect(response.status, path).toBe(200);
      const html = shown(await response.text());
      // English puts the given name first (issue 25 item 9): the booker typed family "Lin", given "Mei".
      expect(html, path).toContain(`<bdi>Mei Lin</bdi> · ${BOOKER.booker_phone} · ${BOOKER.booker_email}`);
      expect(html, path).toContain(" · <bdi>Chen Yi</bdi>");
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      expect(html, path).not.toMatch(/[\u202a-\u202e\u0007]/);
    }
    const orderPage = shown(await (await fetchAs(HOST, `/en-US/hxa/orders/${created.order_doc}?valid_hash=${hash}`)).text());
    expect(orderPage).toMatch(/<bdi>Chen Yi<\/bdi> · 0912 345 678/);

    // The confirmation email: the name in first-strong isolate … pop directional isolate, in the text and the HTML.
    const sent: { subject: string; text: string; html: string }[] = [];
    const fakeFetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      return Response.json({ id: "re_1" });
    }) as typeof fetch;
    const appEnv = { ...parseEnv(env as unknown as Record<string, unknown>), MAIL_FROM: "Fixture Hotel <stay@example.com>" };
    await setAsideOtherHotelsMail(HOST);
    await deliverMail(appEnv, createLogger("test"), { mailer: resendMailer("re_test_key", fakeFetch), now: new Date(), limit: 50 });
    const mail = sent.find((message) => message.subject.includes(created.order_doc));
    expect(mail?.text).toContain("Dear \u2068Mei Lin\u2069,");
    expect(mail?.text).toContain(" · \u2068Chen Yi\u2069 · ");
    expect(mail?.html).toContain("Dear \u2068Mei Lin\u2069,");
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(`${mail?.text}${mail?.html}`).not.toMatch(/[\u202a-\u202e\u0007]/);
  });
});
