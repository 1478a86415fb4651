import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { withContentCache } from "~/platform/edge/content-cache.server";
import { EDGE_CACHE_HEADER } from "~/platform/edge/page-cache.server";
import type { Transport } from "~/contract/client";
import { createLogger } from "~/platform/log.server";
import { VERSIONS_FRESH_MS } from "~/platform/edge/versions.server";
import { handleFetch } from "~/worker/worker.server";
import { BOOKER, apiJson, fixtureHotel, loadHotel, text } from "./helpers";

/** The id of the hotel's one room class and one rate plan. */
async function ids(host: string): Promise<{ room: number; plan: number }> {
  const row = await env.DB.prepare(
    "SELECT rc.id AS room, rp.id AS plan FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id JOIN rate_plans rp ON rp.hotel_id = h.id WHERE h.domain = ?",
  )
    .bind(host)
    .first<{ room: number; plan: number }>();
  if (!row) throw new Error(`no hotel ${host}`);
  return row;
}

// The built Worker (npm run build), called with an execution context the test can wait on; named
// through a variable so that typechecking does not need a build.
const built = "../../build/index.js";
const worker = ((await import(/* @vite-ignore */ built)) as { default: unknown }).default;
const typedWorker = worker as { fetch: (request: Request, env: unknown, ctx: ExecutionContext) => Promise<Response> };

/** One request to the Worker; resolves once everything it started in the background (cache writes) is done. */
async function visit(host: string, path: string, init?: RequestInit): Promise<{ response: Response; html: string }> {
  const ctx = createExecutionContext();
  const response = await typedWorker.fetch(new Request(`http://${host}${path}`, init), env, ctx);
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, html };
}

describe("content pages at the edge", () => {
  const HOST = "edge-import.localhost";
  const named = (name: string, room: string) =>
    fixtureHotel(HOST, (file) => {
      file.hotel.hotel_name["en-US"] = name;
      file.room_classes[0]!.name["en-US"] = room;
    });

  beforeAll(async () => {
    await loadHotel(named("Harbour Inn", "Double"));
  });

  it("are served from the edge cache once seen, and a re-import of the hotel changes them at once", async () => {
    const first = await visit(HOST, "/en-US");
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get(EDGE_CACHE_HEADER)).toBe("MISS");
    expect(text(first.html)).toContain("Harbour Inn");
    const again = await visit(HOST, "/en-US");
    expect(again.response.headers.get(EDGE_CACHE_HEADER)).toBe("HIT");
    expect(text(again.html)).toContain("Double");
    const roomPath = `/en-US/room/${(await ids(HOST)).room}`;
    const room = await visit(HOST, roomPath);
    expect(room.response.status).toBe(200);
    // The operator imports a changed hotel file (the same SQL as `npm run hotel:import`).
    await loadHotel(named("Harbour Inn and Spa", "Sea-view Double"));
    // The Worker trusts the versions it read for VERSIONS_FRESH_MS (1 s): the bound on "at once".
    vi.setSystemTime(Date.now() + VERSIONS_FRESH_MS);
    for (const path of ["/en-US", roomPath]) {
      const after = await visit(HOST, path);
      expect(after.response.headers.get(EDGE_CACHE_HEADER), path).toBe("MISS");
      expect(text(after.html), path).toContain("Harbour Inn and Spa");
      expect(text(after.html), path).toContain("Sea-view Double");
    }
  });

  it("are never served from the cache to a signed-in member, and never for a booking page", async () => {
    await visit(HOST, "/en-US/about");
    const member = await visit(HOST, "/en-US/about", { headers: { cookie: "member=anything" } });
    expect(member.response.status).toBe(200);
    expect(member.response.headers.get(EDGE_CACHE_HEADER)).toBeNull();
    const booking = await visit(HOST, "/en-US/hxa/booking");
    expect(booking.response.headers.get(EDGE_CACHE_HEADER)).toBeNull();
  });
});

describe("a deploy", () => {
  const HOST = "edge-deploy.localhost";
  beforeAll(async () => {
    await loadHotel(fixtureHotel(HOST));
  });

  /** A build of the site whose pages name its own hashed stylesheet, as Remix's do. */
  const build = (version: string) => async () =>
    new Response(
      `<!DOCTYPE html><html lang="en-US"><head><link rel="stylesheet" href="/build/_assets/base-${version}.css"></head><body>Home</body></html>`,
      {
        headers: { "content-type": "text/html; charset=utf-8" },
      },
    );

  async function visitBuild(version: string) {
    const ctx = createExecutionContext();
    const response = await handleFetch(
      new Request(`http://${HOST}/en-US`),
      env as unknown as Record<string, unknown>,
      ctx,
      build(version),
      version,
    );
    const html = await response.text();
    await waitOnExecutionContext(ctx);
    return { cache: response.headers.get(EDGE_CACHE_HEADER), html };
  }

  it("never serves a page stored by the build before it, whose stylesheet and script files are gone", async () => {
    expect((await visitBuild("ONE")).cache).toBe("MISS");
    const stored = await visitBuild("ONE");
    expect(stored.cache).toBe("HIT");
    expect(stored.html).toContain("base-ONE.css");

    const deployed = await visitBuild("TWO");
    expect(deployed.cache).toBe("MISS");
    expect(deployed.html).toContain("base-TWO.css");
    expect((await visitBuild("TWO")).cache).toBe("HIT");
  });
});

describe("a cached page's scripts", () => {
  const HOST = "edge-csp.localhost";
  beforeAll(async () => {
    await loadHotel(fixtureHotel(HOST, (file) => Object.assign(file.hotel, { ga_code: "G-EDGE1234" })));
  });

  it("run by their hashes in the CSP: the copy keeps no nonce of another response", async () => {
    await visit(HOST, "/en-US/facilities");
    const { response, html } = await visit(HOST, "/en-US/facilities");
    expect(response.headers.get(EDGE_CACHE_HEADER)).toBe("HIT");
    expect(html).not.toContain("nonce=");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).not.toContain("'nonce-");
    const inline = /<script>(window\.dataLayer[\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(inline).toContain("G-EDGE1234");
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(inline));
    expect(csp).toContain(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  });
});

describe("availability and prices", () => {
  const HOST = "edge-prices.localhost";
  const today = todayIn("Asia/Taipei");
  // A weekday night well inside the loaded inventory.
  let night = addDays(today, 10);
  while ([5, 6].includes(new Date(`${night}T00:00:00Z`).getUTCDay())) night = addDays(night, 1);
  const results = `/en-US/hxa/booking?start=${night}&end=${addDays(night, 1)}&adults=2&children=0&room=1`;
  const setPrice = (price: number) =>
    env.DB.prepare(
      "UPDATE plan_nights SET price = ? WHERE night = ? AND room_class_id IN (SELECT rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?)",
    )
      .bind(price, night, HOST)
      .run();

  beforeAll(async () => {
    await loadHotel(fixtureHotel(HOST));
  });

  it("are read from the database on every request, never from the content cache", async () => {
    const before = await visit(HOST, results);
    expect(text(before.html)).toContain("NT$3,000");
    // A price changed in the database, with no import: nothing of the edge cache may hide it.
    await setPrice(2_750);
    const after = await visit(HOST, results);
    expect(text(after.html)).toContain("NT$2,750");
    expect(text(after.html)).not.toContain("NT$3,000");
    const calendar = await apiJson<{ date: string; price: number | null }[]>(
      HOST,
      `/api/wota/room_calendar?domain=${HOST}&lang=en-US&start_date=${night}&end_date=${addDays(night, 1)}&room_class_ids=${(await ids(HOST)).room}`,
    );
    expect(calendar.body.data.find((day) => day.date === night)?.price).toBe(2_750);
  });

  it("show a re-imported hotel's rooms and plans on the very next search (the catalogue is kept by content version)", async () => {
    const renamed = (room: string, plan: string) =>
      fixtureHotel(HOST, (file) => {
        file.room_classes[0]!.name["en-US"] = room;
        file.rate_plans[0]!.name["en-US"] = plan;
      });
    await loadHotel(renamed("Garden Twin", "Breakfast Saver"));
    const before = text((await visit(HOST, results)).html);
    expect(before).toContain("Garden Twin");
    expect(before).toContain("Breakfast Saver");
    await loadHotel(renamed("Lake Twin", "Dinner Saver"));
    // No clock moved: the search reads the hotel row, and with it the new content version, every time.
    const after = text((await visit(HOST, results)).html);
    expect(after).toContain("Lake Twin");
    expect(after).toContain("Dinner Saver");
    expect(after).not.toContain("Garden Twin");
    expect(after).not.toContain("Breakfast Saver");
  });

  it('a booking replaces the cached pages that show a "from" price', async () => {
    await setPrice(1_900);
    const first = await visit(HOST, "/en-US");
    expect(text(first.html)).toContain("From NT$1,900");
    expect((await visit(HOST, "/en-US")).response.headers.get(EDGE_CACHE_HEADER)).toBe("HIT");
    // Every room of that night is booked: its price is no longer one a guest can book.
    const { room, plan } = await ids(HOST);
    const order = await apiJson(HOST, "/api/ota/order/personal-new", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": `"edge-${night}"` },
      body: JSON.stringify({
        ...BOOKER,
        domain: HOST,
        check_in_day: night,
        check_out_day: addDays(night, 1),
        pay_way: "remittance",
        payment_vendor: 8,
        adults_count: 2,
        children_count: 0,
        orders: [{ room_class_id: room, proposal_id: plan, num: 3 }],
      }),
    });
    expect(order.body.success).toBe(true);
    vi.setSystemTime(Date.now() + VERSIONS_FRESH_MS);
    const after = await visit(HOST, "/en-US");
    expect(after.response.headers.get(EDGE_CACHE_HEADER)).toBe("MISS");
    expect(text(after.html)).not.toContain("From NT$1,900");
  });
});

describe("D1 read replication", () => {
  const HOST = "edge-replica.localhost";
  beforeAll(async () => {
    await loadHotel(fixtureHotel(HOST));
  });

  it("gives a guest who sent a form the session's bookmark, and reads with it (or without a bookmark it cannot use)", async () => {
    const posted = await visit(HOST, "/en-US/hxa/booking", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "add" }),
    });
    const cookie = posted.response.headers.getSetCookie().find((value) => value.startsWith("d1_bookmark="));
    expect(cookie).toMatch(/^d1_bookmark=[0-9a-f-]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const bookmark = /^d1_bookmark=([^;]+)/.exec(cookie ?? "")?.[1] ?? "";
    for (const value of [bookmark, "not-a-bookmark", "ffffffff-ffffffff"]) {
      const page = await visit(HOST, "/en-US/hxa/booking", { headers: { cookie: `d1_bookmark=${value}` } });
      expect(page.response.status, value).toBe(200);
    }
    // Reading pages hands out no bookmark: content pages stay cacheable.
    const read = await visit(HOST, "/en-US/hxa/booking");
    expect(read.response.headers.getSetCookie().some((value) => value.startsWith("d1_bookmark="))).toBe(false);
  });
});

describe("the content cache in front of the back end", () => {
  it("answers content reads from the edge, and passes every availability or price read through", async () => {
    const calls: string[] = [];
    const backend: Transport = async (request) => {
      calls.push(new URL(request.url).pathname);
      return Response.json({ success: true, msg: { code: "ok", message: "" }, data: [] });
    };
    const pending: Promise<unknown>[] = [];
    const transport = withContentCache(backend, { contentVersion: 1, waitUntil: (p) => pending.push(p), log: createLogger("test") });
    const origin = "https://backend.internal";
    const paths = [
      "/api/custom/menu?domain=cc.localhost&lang=en-US&menu_code=main",
      "/api/ota/room/empty-by-date?domain=cc.localhost&lang=en-US&start_date=2030-01-01&end_date=2030-01-02",
      "/api/wota/room_calendar?domain=cc.localhost&lang=en-US&start_date=2030-01-01&end_date=2030-01-31&room_class_ids=1",
      "/api/ota/room/rateplan/empty-by-date?domain=cc.localhost&lang=en-US&start_date=2030-01-01&end_date=2030-01-02",
    ];
    for (let round = 0; round < 2; round++) {
      for (const path of paths) await (await transport(new Request(`${origin}${path}`))).text();
      await Promise.all(pending.splice(0));
    }
    expect(calls.filter((path) => path === "/api/custom/menu")).toHaveLength(1);
    for (const path of ["/api/ota/room/empty-by-date", "/api/wota/room_calendar", "/api/ota/room/rateplan/empty-by-date"]) {
      expect(
        calls.filter((called) => called === path),
        path,
      ).toHaveLength(2);
    }
    // POSTs (price checks, orders) are never cached either.
    await (await transport(new Request(`${origin}/api/ota/order/calculate`, { method: "POST", body: "{}" }))).text();
    await (await transport(new Request(`${origin}/api/ota/order/calculate`, { method: "POST", body: "{}" }))).text();
    expect(calls.filter((path) => path === "/api/ota/order/calculate")).toHaveLength(2);
  });
});
