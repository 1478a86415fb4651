import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueMemberToken } from "~/backend/account/members.server";
import { addDays, todayIn } from "~/domain/dates";
import { memberSessionCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { Browser as BrowserAt, fetchAs, fixtureHotel, hidden, loadHotel, text } from "./helpers";

/**
 * A signed-in member books through the real Worker and D1, as a browser without JavaScript would:
 * GET pages, POST forms, carry cookies. Signing in itself belongs to the login flow. Here the member
 * session is the cookie that the login flow writes, holding a token the back end issued.
 */
const HOST = "members.localhost";
const today = todayIn("Asia/Taipei");
const stay = `start=${addDays(today, 40)}&end=${addDays(today, 42)}&adults=2`;

class Browser extends BrowserAt {
  constructor(initial: string[] = []) {
    super(HOST, initial);
  }
}

let memberId = 0;

async function signedInBrowser(): Promise<Browser> {
  const token = await issueMemberToken(env.DB, memberId);
  const cookie = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: HOST, token });
  return new Browser([cookie]);
}

async function withCart(browser: Browser): Promise<string> {
  const page = await browser.request(`/en-US/hxa/booking?${stay}`);
  const added = await browser.request(`/en-US/hxa/booking?${stay}`, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  // Added without JavaScript: the form posts and is redirected back to the booking page.
  expect(added.status).toBe(303);
  expect(added.location).toMatch(/^\/en-US\/hxa\/booking\?/);
  const checkout = await browser.request(`/en-US/hxa/checkout?${stay}`);
  expect(checkout.status).toBe(200);
  return checkout.html;
}

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.hotel, { member_price_discount: { discount: 90 } });
      Object.assign(file, {
        members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", phone: "0912 345 678", points: 500 }],
      });
    }),
  );
  const row = await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<{ id: number }>();
  memberId = row?.id ?? 0;
});

describe("a signed-in member at the booking pages", () => {
  it("sees the member price as their price, the usual one struck through", async () => {
    const guest = text((await new Browser().request(`/en-US/hxa/booking?${stay}`)).html);
    expect(guest).toContain("Members NT$");
    expect(guest).not.toContain("Your member price");
    const member = (await (await signedInBrowser()).request(`/en-US/hxa/booking?${stay}`)).html;
    expect(member).toMatch(/<s class="plan__was">NT\$[\d,]+<\/s>/);
    expect(text(member)).toContain("Your member price");
  });

  it("uses points and the members-only discount, and the order takes the points", async () => {
    const browser = await signedInBrowser();
    const checkout = await withCart(browser);
    expect(text(checkout)).toContain("You have 500 points");
    expect(text(checkout)).toContain("Use the members-only discount (10% off)");

    const form = {
      csrf: hidden(checkout, "csrf"),
      checkout_key: hidden(checkout, "checkout_key"),
      pay_option: "all",
      payment: "8:remittance",
    };
    const pricedPage = (
      await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, intent: "price", points: "200", member_promotion: "1" })
    ).html;
    const priced = text(pricedPage);
    expect(priced).toContain("Members-only discount");
    expect(priced).toMatch(/Points −NT\$200/);

    const order = await browser.request(`/en-US/hxa/checkout?${stay}`, {
      ...form,
      // Placed at the amount the priced page shows as due now (decision 065).
      due_now: hidden(pricedPage, "due_now"),
      intent: "order",
      points: "200",
      member_promotion: "1",
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
    });
    expect(order.status).toBe(303);
    const placed = await env.DB.prepare(
      "SELECT o.point_used, o.coupon_code FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?",
    )
      .bind(HOST)
      .first<{ point_used: number; coupon_code: string }>();
    expect(placed).toEqual({ point_used: 200, coupon_code: "Memberpromotion" });
    const member = await env.DB.prepare("SELECT points FROM members WHERE id = ?").bind(memberId).first<{ points: number }>();
    expect(member?.points).toBe(300);
  });

  it("loads the member's profile before the price check: the booker is filled in and the balance sits beside the points", async () => {
    const browser = await signedInBrowser();
    const checkout = await withCart(browser);
    const held = await env.DB.prepare("SELECT points FROM members WHERE id = ?").bind(memberId).first<number>("points");
    const input = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";
    expect(input(checkout, "booker_last_name")).toContain('value="Lin"');
    expect(input(checkout, "booker_first_name")).toContain('value="Mei"');
    expect(input(checkout, "booker_phone")).toContain('value="0912 345 678"');
    expect(input(checkout, "booker_email")).toContain('value="mei@example.com"');
    expect(input(checkout, "points")).toContain(`max="${held}"`);
    expect(/id="points-help">([^<]*)</.exec(checkout)?.[1]).toBe(`You have ${held} points; each point takes NT$1 off.`);

    // More points than the balance: refused beside the field, before any price check or order.
    const form = { csrf: hidden(checkout, "csrf"), checkout_key: hidden(checkout, "checkout_key"), payment: "8:remittance" };
    const tooMany = await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, intent: "price", points: String((held ?? 0) + 1) });
    expect(tooMany.status).toBe(400);
    expect(/id="points-error">([^<]*)</.exec(tooMany.html)?.[1]).toBe(`You have only ${held} points`);
    const order = await browser.request(`/en-US/hxa/checkout?${stay}`, {
      ...form,
      intent: "order",
      points: String((held ?? 0) + 1),
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
    });
    expect(order.status).toBe(400);
    expect(/id="points-error">([^<]*)</.exec(order.html)?.[1]).toBe(`You have only ${held} points`);
    const orders = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? AND o.point_used > ?",
    )
      .bind(HOST, held ?? 0)
      .first<number>("n");
    expect(orders).toBe(0);
    const notANumber = await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, intent: "price", points: "-5" });
    expect(text(notANumber.html)).toContain("Points must be a whole number, 0 or more");
  });

  it("signs out a member whose token the back end no longer accepts: every page shows the one guest price", async () => {
    const token = await issueMemberToken(env.DB, memberId);
    const cookie = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: HOST, token });
    // The back end revokes the token (expired, signed out elsewhere).
    await env.DB.prepare("UPDATE member_tokens SET expires_at = '2000-01-01T00:00:00Z' WHERE member_id = ?").bind(memberId).run();

    const first = await fetchAs(HOST, `/en-US/hxa/booking?${stay}`, { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie().find((header) => header.startsWith("member="))).toMatch(/Max-Age=0/i);
    expect(text(await first.text())).not.toContain("Your member price");

    const stale = new Browser([cookie]);
    const guest = new Browser();
    const totals = async (browser: Browser) => {
      const checkout = await withCart(browser);
      const booking = (await browser.request(`/en-US/hxa/booking?${stay}`)).html;
      return {
        cart: /class="booking-cart__total">[\s\S]*?<strong>([^<]*)</.exec(booking)?.[1],
        checkout: /class="price-summary__total"><dt>[^<]*<\/dt><dd>([^<]*)</.exec(checkout)?.[1],
        benefits: text(checkout).includes("Member benefits"),
      };
    };
    const seen = await totals(stale);
    expect(seen.cart).toMatch(/^NT\$[\d,]+$/);
    expect(seen).toEqual({ cart: seen.checkout, checkout: seen.checkout, benefits: false });
    expect(seen).toEqual(await totals(guest));
  });

  it("offers nothing member-only to a guest, nor to a tampered or another hotel's session", async () => {
    const forged = await memberSessionCookie({ ...(env as unknown as AppEnv), SESSION_SECRET: "x".repeat(40) }).serialize({
      domain: HOST,
      token: "A".repeat(43),
    });
    const token = await issueMemberToken(env.DB, memberId);
    const elsewhere = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: "other.localhost", token });
    for (const browser of [new Browser(), new Browser([forged]), new Browser([elsewhere])]) {
      const checkout = text(await withCart(browser));
      expect(checkout).not.toContain("Member benefits");
      expect(checkout).not.toContain("points");
    }
  });
});

// Issue 25 item 17: a plan that takes no coupon takes no members-only discount either. The checkout
// does not offer it; a form that still sends it (a stale tab, no JavaScript) is told that the
// members-only discount was refused, in those words, and keeps the points it asked for.
describe("a member on a plan that takes no coupon", () => {
  const host = "nocoupon-members.localhost";
  let member = 0;

  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(host, (file) => {
        Object.assign(file.hotel, { member_price_discount: { discount: 90 } });
        Object.assign(file.rate_plans[0]!, { allow_coupon: false });
        Object.assign(file, {
          members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", phone: "0912 345 678", points: 500 }],
        });
      }),
    );
    member =
      (await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?")
        .bind(host)
        .first<number>("id")) ?? 0;
  });

  async function memberAtCheckout() {
    const token = await issueMemberToken(env.DB, member);
    const browser = new BrowserAt(host, [await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: host, token })]);
    const page = await browser.request(`/en-US/hxa/booking?${stay}`);
    const fields = {
      csrf: hidden(page.html, "csrf"),
      room_class_id: hidden(page.html, "room_class_id"),
      proposal_id: hidden(page.html, "proposal_id"),
    };
    expect((await browser.request(`/en-US/hxa/booking?${stay}`, { ...fields, intent: "add", num: "1" })).status).toBe(303);
    const checkout = (await browser.request(`/en-US/hxa/checkout?${stay}`)).html;
    const form = {
      csrf: hidden(checkout, "csrf"),
      checkout_key: hidden(checkout, "checkout_key"),
      pay_option: "all",
      payment: "8:remittance",
    };
    return { browser, checkout, form };
  }
  const pointsValue = (html: string) => /<input[^>]*name="points"[^>]*>/.exec(html)?.[0].match(/value="([^"]*)"/)?.[1] ?? "";

  it("offers the points and not the members-only discount", async () => {
    const { checkout } = await memberAtCheckout();
    expect(text(checkout)).toContain("You have 500 points");
    expect(text(checkout)).not.toContain("members-only discount");
    expect(checkout).not.toContain('name="member_promotion"');
  });

  it("refuses a members-only discount sent anyway by its name, and keeps the points", async () => {
    const { browser, form } = await memberAtCheckout();
    const priced = await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, intent: "price", points: "200", member_promotion: "1" });
    expect(priced.status).toBe(400);
    expect(text(priced.html)).toContain("The members-only discount does not apply to the chosen plans");
    expect(text(priced.html)).not.toContain("coupon");
    expect(pointsValue(priced.html)).toBe("200");
    expect(text(priced.html)).toMatch(/Points −NT\$200/);

    const placed = await browser.request(`/en-US/hxa/checkout?${stay}`, {
      ...form,
      intent: "order",
      due_now: "1",
      points: "200",
      member_promotion: "1",
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
    });
    expect(placed.status).toBe(400);
    expect(text(placed.html)).toContain("The members-only discount could not be used and was removed.");
    expect(text(placed.html)).not.toContain("coupon or points");
    expect(pointsValue(placed.html)).toBe("200");

    // Placed again at the amount now shown: the order takes the points and no discount.
    const order = await browser.request(`/en-US/hxa/checkout?${stay}`, {
      ...form,
      intent: "order",
      due_now: hidden(placed.html, "due_now"),
      points: "200",
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
    });
    expect(order.status).toBe(303);
    const row = await env.DB.prepare(
      "SELECT o.point_used, o.coupon_code FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?",
    )
      .bind(host)
      .first();
    expect(row).toEqual({ point_used: 200, coupon_code: "" });
  });
});
