/**
 * Pages made for one person are never kept by a shared cache (issue 37): an edge rule that caches
 * everything must find `Cache-Control: private, no-store` on an order behind its signed link, the
 * cancel and pay pages, a member's orders, any page naming the signed-in member and the account
 * service's pages; a guest's content page is still cached for every guest (decisions 026/027).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { issueMemberToken } from "~/backend/account/members.server";
import { memberSessionCookie } from "~/platform/cookies.server";
import { parseEnv } from "~/platform/env.server";
import { fetchAs, fixtureHotel, hotelRefs, loadHotel, orderOneNight, text, type HotelRefs } from "./helpers";

const HOST = "private-pages.localhost";
const PRIVATE = "private, no-store";
const today = todayIn("Asia/Taipei");
let hotel: HotelRefs;

interface Created {
  order_doc: string;
  redirect_path: string;
  order: { valid_hash: string; cancel_hash: string };
}

let created: Created;
let memberCookie = "";
let memberOrder = "";

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      (file.hotel as Record<string, unknown>).payment_deadlines = { max_unpaid_per_guest: 100 };
    }),
  );
  hotel = await hotelRefs(HOST);
  const member = await env.DB.prepare(
    "INSERT INTO members (hotel_id, email, first_name, last_name, points) VALUES (?, 'ren@example.com', 'Ren', 'Takeda', 0) RETURNING id",
  )
    .bind(hotel.id)
    .first<{ id: number }>();
  const token = await issueMemberToken(env.DB, member!.id);
  memberCookie = (await memberSessionCookie(parseEnv(env as unknown as Record<string, unknown>)).serialize({ domain: HOST, token })).split(
    ";",
  )[0]!;
  const placed = await orderOneNight<Created>(HOST, hotel, addDays(today, 21), { pay_way: "remittance", payment_vendor: 8 });
  expect(placed.status).toBe(201);
  created = placed.body.data;
  // The member's own booking, for their orders list.
  const theirs = await orderOneNight<Created>(HOST, hotel, addDays(today, 22), {
    booker_email: "ren@example.com",
    pay_way: "remittance",
    payment_vendor: 8,
  });
  memberOrder = theirs.body.data.order_doc;
  await env.DB.prepare("UPDATE orders SET member_id = ? WHERE order_doc = ?").bind(member!.id, memberOrder).run();
});

const get = (path: string, cookie?: string) => fetchAs(HOST, path, { headers: cookie ? { cookie } : {}, redirect: "manual" });

describe("pages made for one person (issue 37)", () => {
  it("an order behind its signed link, its cancel and pay pages, its PDF and its download ticket: private, no-store", async () => {
    const doc = created.order_doc;
    const view = `valid_hash=${encodeURIComponent(created.order.valid_hash)}`;
    for (const path of [
      `/en-US/hxa/orders/${doc}?${view}`,
      `/hxa/orders/${doc}?${view}`,
      `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(created.order.cancel_hash)}`,
      created.redirect_path.replace(/^\//, "/en-US/"),
      `/en-US/hxa/orders/${doc}/confirmation.pdf?${view}`,
      `/en-US/hxa/download/download-accommodation-proof/${doc}?${view}`,
      // The order's data as a navigation with JavaScript fetches it (single fetch).
      `/en-US/hxa/orders/${doc}.data?${view}`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe(PRIVATE);
      await response.arrayBuffer();
    }
    // The order page shows the booker: that is why.
    expect(text(await (await get(`/en-US/hxa/orders/${doc}?${view}`)).text())).toContain("Lin");
  });

  it("a refusal of an order page, or of the download, is private too", async () => {
    for (const path of [
      `/en-US/hxa/orders/${created.order_doc}?valid_hash=forged`,
      `/en-US/hxa/download/download-accommodation-proof/${created.order_doc}`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control"), path).toBe(PRIVATE);
      await response.arrayBuffer();
    }
  });

  it("a signed-in member's orders list and every page naming them, content pages included: private (the booking page no-cache, so Back works)", async () => {
    for (const path of ["/en-US/hxa/orders", "/en-US/about", "/en-US", "/en-US/facilities", "/en-US/hxa/booking"]) {
      const response = await get(path, memberCookie);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe(path.endsWith("/booking") ? "private, no-cache" : PRIVATE);
      expect(response.headers.get("x-edge-cache"), path).toBeNull();
      const shown = text(await response.text());
      expect(shown, path).toContain("Signed in");
      if (path === "/en-US/hxa/orders") expect(shown).toContain(memberOrder);
    }
  });

  it("the account service's pages: private, no-store", async () => {
    const response = await get("/account/oauth/authorize?client_id=nobody.example&lang=en-US");
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("cache-control")).toBe(PRIVATE);
    await response.arrayBuffer();
  });

  it("a guest's content page is still cached for every guest, and says nothing against it", async () => {
    const first = await get("/en-US/about?guest=1");
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBeNull();
    await first.text();
    const again = await get("/en-US/about?guest=1");
    expect(again.headers.get("x-edge-cache")).toMatch(/HIT|STALE/);
    expect(again.headers.get("cache-control")).toBeNull();
    await again.text();
    // robots.txt keeps its own public policy.
    const robots = await get("/robots.txt");
    expect(robots.headers.get("cache-control")).toBe("public, max-age=3600");
    await robots.text();
  });
});
