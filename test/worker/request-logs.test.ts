/**
 * Every log line a request writes carries its id, the back end's included (issue 24): a payment
 * through the test gateway, its callback repeated and forged, the refund of its cancellation, and a
 * payment the site asks of the back end in process. Each request names its id (`cf-ray`, as
 * Cloudflare sends it) and gets it back as x-request-id; every line about it carries `[id]`.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { checkMacValue, ecpayDate } from "~/backend/payments/gateways/ecpay";
import { sandboxKeys } from "~/backend/payments/gateways/sandbox-gateway";
import { apiJson, fetchAs, fixtureHotel, hidden, hotelRefs, loadHotel, orderOneNight, text, type HotelRefs } from "./helpers";

const LOCAL = "logs.localhost";
/** A public domain whose file names the test gateway: the back end refuses to pay through it, and logs why. */
const PUBLIC = "logs.example.com";
const MERCHANT = "2000132";
const today = todayIn("Asia/Taipei");

interface Created {
  order_doc: string;
  redirect_path: string;
  order: { valid_hash: string; cancel_hash: string; final_amount: number };
}
interface Start {
  trade_no: string;
  amount: number;
  start: { kind: "form"; action: string; fields: Record<string, string> };
}

const hotels: Record<string, HotelRefs> = {};

function payHotel(domain: string) {
  return fixtureHotel(domain, (file) => {
    const hotel = file.hotel as Record<string, unknown>;
    hotel.payment_list = [{ vendor_id: 1, method: "credit" }];
    hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: MERCHANT }];
    hotel.payment_deadlines = { max_unpaid_per_guest: 100 };
  });
}

beforeAll(async () => {
  await loadHotel(payHotel(LOCAL));
  await loadHotel(payHotel(PUBLIC), today, { allowTestGateway: true });
  for (const domain of [LOCAL, PUBLIC]) hotels[domain] = await hotelRefs(domain);
});

/** Every line written to the console while a test runs, as one string each. */
let lines: string[] = [];
beforeEach(() => {
  lines = [];
  const keep = (...args: unknown[]) => void lines.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(" "));
  for (const level of ["log", "info", "warn", "error"] as const) vi.spyOn(console, level).mockImplementation(keep);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The lines that mention `word`: there must be some, and each must carry the id of the request that wrote it. */
function linesAbout(word: string): string[] {
  const found = lines.filter((line) => line.includes(word));
  expect(found, `no log line mentions ${word}`).not.toEqual([]);
  return found;
}

let stayOffset = 30;
async function order(domain = LOCAL): Promise<Created> {
  const response = await orderOneNight<Created>(domain, hotels[domain]!, addDays(today, stayOffset++));
  if (response.status !== 201) throw new Error(`order refused: ${JSON.stringify(response.body.msg)}`);
  return response.body.data;
}

async function start(created: Created, domain = LOCAL) {
  const response = await apiJson<Start>(domain, "/api/payment/start?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain,
      order_doc: created.order_doc,
      valid_hash: created.order.valid_hash,
      return_path: `/pay/${hotels[domain]!.id}/${created.order_doc}?valid_hash=${encodeURIComponent(created.order.valid_hash)}`,
    }),
  });
  expect(response.status).toBe(200);
  return response.body.data;
}

/** A paid callback for `tradeNo` as the sandbox's merchant signs it. */
async function paidCallback(tradeNo: string, amount: number): Promise<string> {
  const keys = await sandboxKeys(env.SESSION_SECRET, MERCHANT);
  const fields: Record<string, string> = {
    MerchantID: MERCHANT,
    MerchantTradeNo: tradeNo,
    RtnCode: "1",
    RtnMsg: "交易成功",
    TradeNo: "2401011234567890",
    TradeAmt: String(amount),
    TradeDate: ecpayDate(new Date()),
    PaymentDate: ecpayDate(new Date()),
    PaymentType: "Credit_CreditCard",
    SimulatePaid: "0",
  };
  return new URLSearchParams({ ...fields, CheckMacValue: await checkMacValue(fields, keys) }).toString();
}

function callback(body: string, ray: string) {
  return fetchAs(LOCAL, `/api/payment/callback/${hotels[LOCAL]!.id}/1/return`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "cf-ray": ray },
    body,
  });
}

describe("the back end's log lines carry the request id", () => {
  it("a payment, its repeated and forged callbacks, and its refund: each line names the request that wrote it", async () => {
    const created = await order();
    const { trade_no, amount, start: form } = await start(created);

    // The guest pays at the test gateway, which posts its callback to the back end in the same request.
    const paid = await fetchAs(LOCAL, "/sandbox-gateway/ecpay/decide", {
      method: "POST",
      headers: { "cf-ray": "ray-pay-1" },
      body: new URLSearchParams({ ...form.fields, sandbox_decision: "pay" }),
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("x-request-id")).toBe("ray-pay-1");
    const applied = linesAbout(trade_no);
    expect(applied).toEqual([expect.stringMatching(/^\[ray-pay-1\] payment callback applied 1\/return \w+ paid$/)]);
    const row = await env.DB.prepare("SELECT paid_amount FROM orders WHERE order_doc = ?")
      .bind(created.order_doc)
      .first<{ paid_amount: number }>();
    expect(row?.paid_amount).toBe(amount);

    // The gateway sends the same notice again: ignored, and said so under the repeat's own id.
    lines = [];
    const repeated = await callback(await paidCallback(trade_no, amount), "ray-repeat-1");
    expect(repeated.headers.get("x-request-id")).toBe("ray-repeat-1");
    expect(linesAbout(trade_no)).toEqual([expect.stringMatching(/^\[ray-repeat-1\] payment callback ignored 1\/return \w+ already paid$/)]);

    // Someone posts a notice without the gateway's signature: refused, and logged under its id.
    lines = [];
    const forged = (await paidCallback(trade_no, amount)).replace(/CheckMacValue=[^&]+/, "CheckMacValue=0");
    expect((await callback(forged, "ray-forged-1")).status).toBe(400);
    expect(linesAbout(trade_no)).toEqual([expect.stringMatching(/^\[ray-forged-1\] payment callback refused /)]);

    // The guest cancels: the money goes back through the gateway, and the refund's line names the cancellation.
    lines = [];
    const cancelled = await fetchAs(LOCAL, `/api/wota/order/cancel-via-hash/${created.order_doc}?lang=en-US`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-ray": "ray-cancel-1" },
      body: JSON.stringify({ domain: LOCAL, valid_hash: created.order.cancel_hash, reason: "" }),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get("x-request-id")).toBe("ray-cancel-1");
    expect(linesAbout(created.order_doc)).toEqual([
      expect.stringMatching(new RegExp(`^\\[ray-cancel-1\\] refunded ${created.order_doc} \\d+ of \\d+$`)),
    ]);
  });

  it("a payment the site asks of the back end: the back end's line carries the id of the guest's page request", async () => {
    const created = await order(PUBLIC);
    const path = created.redirect_path.replace(/^\//, "/en-US/");
    const page = await fetchAs(PUBLIC, path);
    const cookie = page.headers
      .getSetCookie()
      .map((set) => set.split(";")[0])
      .join("; ");
    const html = await page.text();
    lines = [];
    // No cf-ray this time: the id is the Worker's own, read back from x-request-id.
    const pressed = await fetchAs(PUBLIC, path, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: hidden(html, "csrf") }),
      redirect: "manual",
    });
    expect(text(await pressed.text())).toContain("Online payment is not set up for this hotel yet");
    const id = pressed.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesAbout("the built-in test gateway is refused on a public host")).toEqual([
      expect.stringMatching(new RegExp(`^\\[${id}\\] payment configuration ${PUBLIC.replace(/\./g, "\\.")} `)),
    ]);
  });
});
