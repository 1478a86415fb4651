import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueMemberToken } from "~/backend/members.server";
import { addDays, todayIn } from "~/booking/dates";
import { memberSessionCookie } from "~/cookies.server";
import type { AppEnv } from "~/env.server";
import { Browser as BrowserAt, fixtureHotel, hidden, loadHotel, text } from "./helpers";

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
      Object.assign(file, { members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", points: 500 }] });
    }),
  );
  const row = await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?").bind(HOST).first<{ id: number }>();
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

    const form = { csrf: hidden(checkout, "csrf"), checkout_key: hidden(checkout, "checkout_key"), pay_option: "all", payment: "8:remittance" };
    const priced = text((await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, intent: "price", points: "200", member_promotion: "1" })).html);
    expect(priced).toContain("Members-only discount");
    expect(priced).toMatch(/Points −NT\$200/);

    const order = await browser.request(`/en-US/hxa/checkout?${stay}`, {
      ...form,
      intent: "order",
      points: "200",
      member_promotion: "1",
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
    });
    expect(order.status).toBe(303);
    const placed = await env.DB.prepare("SELECT o.point_used, o.coupon_code FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?")
      .bind(HOST)
      .first<{ point_used: number; coupon_code: string }>();
    expect(placed).toEqual({ point_used: 200, coupon_code: "Memberpromotion" });
    const member = await env.DB.prepare("SELECT points FROM members WHERE id = ?").bind(memberId).first<{ points: number }>();
    expect(member?.points).toBe(300);
  });

  it("refuses more points than the member holds with the server's message, and clears them", async () => {
    const browser = await signedInBrowser();
    const checkout = await withCart(browser);
    const form = { csrf: hidden(checkout, "csrf"), checkout_key: hidden(checkout, "checkout_key"), intent: "price" };
    const tooMany = await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, points: "99999" });
    expect(tooMany.status).toBe(400);
    const held = await env.DB.prepare("SELECT points FROM members WHERE id = ?").bind(memberId).first<number>("points");
    expect(/role="alert">([^<]*)</.exec(tooMany.html)?.[1]).toBe(`You have only ${held} points`);
    expect(/<input[^>]*name="points"[^>]*>/.exec(tooMany.html)?.[0]).toContain('value=""');
    const notANumber = await browser.request(`/en-US/hxa/checkout?${stay}`, { ...form, points: "-5" });
    expect(text(notANumber.html)).toContain("Points must be a whole number, 0 or more");
  });

  it("offers nothing member-only to a guest, nor to a tampered or another hotel's session", async () => {
    const forged = await memberSessionCookie({ ...(env as unknown as AppEnv), SESSION_SECRET: "x".repeat(40) }).serialize({ domain: HOST, token: "A".repeat(43) });
    const token = await issueMemberToken(env.DB, memberId);
    const elsewhere = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: "other.localhost", token });
    for (const browser of [new Browser(), new Browser([forged]), new Browser([elsewhere])]) {
      const checkout = text(await withCart(browser));
      expect(checkout).not.toContain("Member benefits");
      expect(checkout).not.toContain("points");
    }
  });
});
