import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { handleBackendRequest } from "~/backend/router.server";
import { addDays, todayIn } from "~/domain/dates";
import { answerValue, writtenOut } from "~/contract/answers";
import { ERROR_ORDER_DOC, HotelApi, HotelApiError, type Transport } from "~/contract/client";
import { parseEnv } from "~/platform/env.server";
import { backendTransport } from "~/worker/backend.server";
import { fixtureHotel, fixtureNightPrice, loadHotel } from "./helpers";

const HOST = "client.localhost";
const today = todayIn("Asia/Taipei");

/** As the site calls its built-in back end: answers handed over as values (decision 131). */
const inProcess: Transport = (request) => handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET, handOver: true });

/** Answers handed over in process that were held to their own text (decision 131). */
const handedOver: string[] = [];

const transports: [string, Transport, string][] = [
  ["in-process", inProcess, "https://backend.internal"],
  // In process, every answer handed over as a value is the very JSON its text would have given.
  [
    "in-process, each answer held to its text",
    async (request) => {
      const response = await inProcess(request);
      const answer = answerValue(response);
      if (answer) {
        expect(answer.value).toStrictEqual(JSON.parse(await writtenOut(response).text()));
        handedOver.push(`${request.method} ${new URL(request.url).pathname}`);
      }
      return response;
    },
    "https://backend.internal",
  ],
  // Over HTTP: what a site pointed at HOTEL_API_ORIGIN does, here against this same Worker.
  ["HTTP", (request) => SELF.fetch(request), `http://${HOST}`],
];

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file, {
        menus: {
          main: [
            { type: "rooms" },
            { type: "custom", label: { "en-US": "Guide" }, url: "https://example.com", new_tab: true },
            { type: "mystery" },
          ],
        },
        facilities: [
          { key: "gym", title: { "en-US": "Gym" }, priority: 2 },
          { key: "pool", title: { "en-US": "Pool" }, priority: 1 },
        ],
        promotion_types: [{ key: "stay", name: { "en-US": "Stay" } }],
        promotions: [
          { key: "old", category: "promotion", type: "stay", title: { "en-US": "Old offer" }, public_at: "today-20" },
          { key: "new", category: "promotion", type: "stay", title: { "en-US": "New offer" }, public_at: "today-2" },
          { key: "later", category: "promotion", title: { "en-US": "Not yet public" }, public_at: "today+5" },
          { key: "ended", category: "promotion", title: { "en-US": "Ended" }, public_at: "today-30", end: "today-1" },
          { key: "news1", category: "announcement", title: { "en-US": "News" }, public_at: "today-1" },
          { key: "sight", category: "attraction", title: { "en-US": "Night market" }, public_at: "today-100" },
        ],
      });
      file.rate_plans.push({
        rate_plan_code: "MEMBER",
        name: { "zh-TW": "會員", "en-US": "Members" },
        rooms: [{ room_code: "double", weekday: 2800, weekend: 3300, holiday: 4000, member_percent: 85 }],
        ...({ is_special: true, refund_template_id: 1 } as object),
      } as (typeof file.rate_plans)[number]);
    }),
  );
});

describe.each(transports)("HotelApi (%s)", (_name, transport, origin) => {
  const api = new HotelApi({ transport, origin, domain: HOST, lang: "en-US" });

  it("reads the hotel's content, validated", async () => {
    expect((await api.hotelInfo()).hotel_name).toBe("Fixture Hotel");
    expect((await api.menu()).map((item) => item?.type)).toEqual(["rooms", "custom", "mystery"]);
    expect((await api.facilities()).map((item) => item.facilities_title)).toEqual(["Pool", "Gym"]);
    expect((await api.activePromotions()).map((item) => item.promotion_title)).toEqual(["New offer", "Old offer"]);
    expect((await api.activeAnnouncements({ limit: 1 })).map((item) => item.promotion_title)).toEqual(["News"]);
    expect(await api.activeAttractions()).toHaveLength(1);
    expect(await api.promotionTypes()).toHaveLength(1);
    const newest = (await api.activePromotions())[0];
    expect((await api.promotion(newest?.promotion_id ?? 0)).topic_key).toBe("stay");
    expect((await api.preferences()).deposit_type).toBe("all");
    expect(await api.hotelsByTag()).toEqual([]);
  });

  it("searches rooms, special plans and the calendar", async () => {
    const rooms = await api.rooms();
    expect(rooms[0]?.room_code).toBe("double");
    const start = addDays(today, 8);
    const search = await api.search(start, addDays(start, 2));
    expect(search.rooms[0]?.price_set.map((item) => item.rate_plan_code).sort()).toEqual(["BAR", "MEMBER"]);
    const special = await api.specialRatePlans(start, addDays(start, 2));
    expect(special.map((plan) => plan.rate_plan_code)).toEqual(["MEMBER"]);
    const calendar = await api.roomCalendar(today, addDays(today, 31), [rooms[0]?.room_class_id ?? 0]);
    expect(calendar).toHaveLength(31);
  });

  it("checks a price and a coupon, books, shows and cancels through signed links", async () => {
    const rooms = await api.search(addDays(today, 12), addDays(today, 13));
    const room = rooms.rooms[0];
    const plan = room?.price_set.find((item) => item.rate_plan_code === "BAR");
    const line = { room_class_id: room?.room_class_id ?? 0, proposal_id: plan?.proposal_id ?? 0, num: 1 };
    const stay = { check_in_day: addDays(today, 12), check_out_day: addDays(today, 13) };
    const price = await api.calculate({ ...stay, orders: [line], coupon_code: "WELCOME10" });
    // One night of the fixture's Double (3,000 on weekdays, 3,600 on Friday and Saturday), 10 % off.
    const night = fixtureNightPrice(stay.check_in_day);
    expect(plan?.price).toBe(night);
    expect(price).toMatchObject({ room_price: night, promotion_discount: night / 10, total_price: night - night / 10 });
    expect(
      (await api.confirmCoupon({ coupon_code: ["WELCOME10"], check_in_date: stay.check_in_day, check_out_date: stay.check_out_day }))[0]
        ?.percent,
    ).toBe(10);

    const payload = {
      booker_first_name: "Mei",
      booker_last_name: "Lin",
      booker_phone: "0912345678",
      booker_email: "mei@example.com",
      ...stay,
      pay_way: "remittance" as const,
      payment_vendor: 8,
      orders: [line],
      adults_count: 2,
      children_count: 0,
    };
    const created = await api.createOrder(payload, crypto.randomUUID());
    if (!created.ok) throw created.error;
    expect(created.order.final_amount).toBe(night);
    const shown = await api.orderViaHash(created.order.valid_hash);
    expect(shown.order_doc).toBe(created.order_doc);
    const history = await api.orderHistory(created.order.valid_hash);
    expect(history.cancellation).toBeNull();
    const cancelled = await api.cancelOrderViaHash(created.order_doc, created.order.cancel_hash);
    expect(cancelled.status).toBe("cancelled");
    expect((await api.orderHistory(created.order.valid_hash)).cancellation?.via).toBe("hash");
  });

  it("yields order_doc error-order and a typed error when an order is refused", async () => {
    const result = await api.createOrder(
      {
        booker_first_name: "Mei",
        booker_last_name: "Lin",
        booker_phone: "0912345678",
        booker_email: "mei@example.com",
        check_in_day: addDays(today, 5), // sold out in the fixture
        check_out_day: addDays(today, 6),
        pay_way: "remittance",
        payment_vendor: 8,
        orders: [{ room_class_id: (await api.rooms())[0]?.room_class_id ?? 0, proposal_id: 1, num: 1 }],
        adults_count: 2,
        children_count: 0,
      },
      crypto.randomUUID(),
    );
    expect(result.ok).toBe(false);
    expect(result.order_doc).toBe(ERROR_ORDER_DOC);
    if (!result.ok) expect(result.error).toBeInstanceOf(HotelApiError);
  });

  it("turns a refused call into a typed error with the server's message", async () => {
    const error = await api
      .withLanguage("en-US")
      .orderViaHash("forged")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HotelApiError);
    expect((error as HotelApiError).status).toBe(403);
    expect((error as HotelApiError).message).toBe("This link is not valid or has been altered");
  });
});

describe("HotelApi against a back end that breaks the contract", () => {
  it("refuses an answer of the wrong shape", async () => {
    const api = new HotelApi({
      transport: async () => new Response(JSON.stringify({ success: true, msg: "", data: { hotel_name: 42 } })),
      origin: "https://broken.example",
      domain: HOST,
      lang: "en-US",
    });
    await expect(api.hotelInfo()).rejects.toMatchObject({ code: "bad_response", status: 502 });
  });

  it("reads an answer that is not JSON as unavailable, whatever its status", async () => {
    for (const status of [200, 404]) {
      const unavailable: string[] = [];
      const api = new HotelApi({
        transport: async () => new Response("<html>Bad gateway</html>", { status, headers: { "content-type": "text/html" } }),
        origin: "https://broken.example",
        domain: HOST,
        lang: "en-US",
        onUnavailable: (_error, path) => unavailable.push(path),
      });
      const error = await api.hotelInfo().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "bad_response", status: 502, isUnavailable: true, isNotFound: false });
      expect(unavailable).toEqual(["/api/hotel/info"]);
    }
  });

  it("turns a call that gets no answer into a typed error (unreachable, timed out)", async () => {
    const unreachable = new HotelApi({
      transport: async () => {
        throw new Error("Network connection lost.");
      },
      origin: "https://broken.example",
      domain: HOST,
      lang: "en-US",
    });
    await expect(unreachable.menu()).rejects.toMatchObject({ code: "backend_unreachable", status: 503, isUnavailable: true });
    const timedOut = new HotelApi({
      transport: (request) => fetch(new Request(request, { signal: AbortSignal.abort(new DOMException("too slow", "TimeoutError")) })),
      origin: "https://broken.example",
      domain: HOST,
      lang: "en-US",
    });
    await expect(timedOut.menu()).rejects.toMatchObject({ code: "backend_timeout", status: 504, isUnavailable: true });
  });
});

describe("the spec's service bases ({master}, {account}, {pms})", () => {
  const client = (bases: { masterBase?: string; accountBase?: string; pmsBase?: string }) =>
    new HotelApi({
      transport: async () => new Response(null, { status: 500 }),
      origin: "https://api.hotel.example",
      domain: HOST,
      lang: "en-US",
      ...bases,
    });

  it("builds each service's calls on its own base, and on the back end's origin when none is set", () => {
    const defaults = client({});
    expect(defaults.url("/api/hotel/info").href).toBe("https://api.hotel.example/api/hotel/info");
    expect(defaults.url("{master}/payment").href).toBe("https://api.hotel.example/master/payment");
    expect(defaults.url("{account}/oauth/token").href).toBe("https://api.hotel.example/account/oauth/token");
    expect(defaults.url("{pms}/oauth/token/exchange").href).toBe("https://api.hotel.example/pms/oauth/token/exchange");
    const own = client({
      masterBase: "https://master.example/v2",
      accountBase: "https://account.example/",
      pmsBase: "https://pms.example",
    });
    expect(own.url("{master}/payment").href).toBe("https://master.example/v2/payment");
    expect(own.url("{account}/api/v1/onetap").href).toBe("https://account.example/api/v1/onetap");
    expect(own.url("{pms}/oauth/token/exchange").href).toBe("https://pms.example/oauth/token/exchange");
  });

  it("takes the bases from ACCOUNT_ORIGIN, PMS_ORIGIN and MASTER_ORIGIN, else from the /api origin", () => {
    const builtIn = backendTransport(parseEnv({ ...env, HOTEL_API_ORIGIN: "", ACCOUNT_ORIGIN: "", PMS_ORIGIN: "", MASTER_ORIGIN: "" }));
    expect([builtIn.masterBase, builtIn.accountBase, builtIn.pmsBase]).toEqual([
      `${builtIn.origin}/master`,
      `${builtIn.origin}/account`,
      `${builtIn.origin}/pms`,
    ]);
    const external = backendTransport(
      parseEnv({
        ...env,
        HOTEL_API_ORIGIN: "https://api.hotel.example",
        ACCOUNT_ORIGIN: "https://account.example",
        PMS_ORIGIN: "https://pms.example",
        MASTER_ORIGIN: "",
      }),
    );
    expect(external).toMatchObject({
      origin: "https://api.hotel.example",
      masterBase: "https://api.hotel.example/master",
      accountBase: "https://account.example",
      pmsBase: "https://pms.example",
    });
  });
});

describe("answers handed over in process (decision 131)", () => {
  it("held each answer of the calls above to its text: content, search, price check, order, cancellation", () => {
    const paths = new Set(handedOver.map((call) => call.replace(/\/cancel-via-hash\/.+$/, "/cancel-via-hash/{order_doc}")));
    expect([...paths]).toEqual(
      expect.arrayContaining([
        "GET /api/hotel/info",
        "GET /api/custom/menu",
        "GET /master/hotels/preferences",
        "GET /api/ota/room/list",
        "GET /api/ota/room/empty-by-date",
        "GET /api/ota/room/rateplan/empty-by-date",
        "GET /api/wota/room_calendar",
        "POST /api/ota/order/calculate",
        "POST /api/discount/coupon_confirm",
        "POST /api/ota/order/personal-new",
        "GET /api/ota/order/via-hash",
        "GET /api/ota/order/personal-history",
        "POST /api/wota/order/cancel-via-hash/{order_doc}",
      ]),
    );
  });
});
