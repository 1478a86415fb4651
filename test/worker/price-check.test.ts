import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { issueMemberToken } from "~/backend/account/members.server";
import { handleBackendRequest } from "~/backend/router.server";
import { addDays, todayIn } from "~/domain/dates";
import { checkPrice } from "~/features/checkout/price-check.server";
import type { Cart } from "~/domain/cart";
import { HotelApi } from "~/contract/client";
import { fixtureHotel, loadHotel } from "./helpers";

const HOST = "pricecheck.localhost";
const today = todayIn("Asia/Taipei");
const hotel = { deposit_type: "deposit" as const, deposit_percent: 30 };
const UNKNOWN = "This plan is not available for these dates, please choose again.";
/** Nightly prices of the fixture's two room classes (every night). */
const DOUBLE = 2345;
const TWIN = 1999;
const COUPON_REFUSED = "This coupon code is not valid or has expired";

/** The bodies the site sent to the legacy price check, newest last. */
const legacyBodies: Record<string, unknown>[] = [];

const api = new HotelApi({
  transport: async (request) => {
    if (new URL(request.url).pathname === "/api/discount/calculate")
      legacyBodies.push((await request.clone().json()) as Record<string, unknown>);
    return handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET });
  },
  origin: "https://backend.internal",
  domain: HOST,
  lang: "en-US",
});

let cart: Cart;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      Object.assign(file.hotel, { deposit_type: "deposit", deposit_percent: 30 });
      Object.assign(file, { members: [{ email: "lin@example.com", first_name: "Lin", last_name: "Mei", points: 100 }] });
      // Prices that do not divide evenly, the same every night: 10 % off and a 30 % deposit of these
      // leave fractions of a dollar, so the rounding of app/domain/pricing.ts is exercised.
      file.rate_plans[0]!.rooms[0] = { room_code: "double", weekday: DOUBLE, weekend: DOUBLE, holiday: DOUBLE, member_percent: 90 };
      file.room_classes.push({ room_code: "twin", name: { "zh-TW": "雙床房", "en-US": "Twin" }, people: 2, total_rooms: 4 });
      file.rate_plans[0]?.rooms.push({ room_code: "twin", weekday: TWIN, weekend: TWIN, holiday: TWIN, member_percent: 90 });
    }),
  );
  const search = await api.search(addDays(today, 20), addDays(today, 23));
  cart = {
    domain: HOST,
    start: addDays(today, 20),
    end: addDays(today, 23),
    lines: search.rooms.map((room) => ({ room_class_id: room.room_class_id, proposal_id: room.price_set[0]?.proposal_id ?? 0, num: 2 })),
    checkoutKey: "price-check-key-1",
  };
});

describe("the checkout's price check, v2 and legacy", () => {
  it("gives the same totals and lines both ways, a coupon and a deposit included", async () => {
    expect(cart.lines).toHaveLength(2);
    const options = { coupon: "WELCOME10", payOption: "part" as const };
    const v2 = await checkPrice(api, hotel, true, cart, options, UNKNOWN);
    const legacy = await checkPrice(api, hotel, false, cart, options, UNKNOWN);
    expect(v2.error).toBeNull();
    expect(legacy.error).toBeNull();
    const summary = (outcome: typeof v2) => ({
      room_price: outcome.price?.room_price,
      promotion_discount: outcome.price?.promotion_discount,
      total_price: outcome.price?.total_price,
      deposit_amount: outcome.price?.deposit_amount,
      pay_amount: outcome.price?.pay_amount,
      coupon_code: outcome.price?.coupon_code,
      lines: outcome.price?.lines.map((line) => [line.room_class_name, line.proposal_name, line.num, line.nights, line.amount]),
    });
    expect(summary(legacy)).toEqual(summary(v2));
    // Three nights, two rooms of each class: 3 × 2 × (2,345 + 1,999) = 26,064. WELCOME10 takes
    // 10 %, 2,606.4, rounded down to 2,606 (the discount never exceeds the coupon's percent), which
    // leaves 23,458. The 30 % deposit of that, 7,037.4, would round up to 7,038 (decision 022), past
    // the standard contract's 30 %: it is 7,037 (decision 040).
    expect(v2.price).toMatchObject({
      room_price: 26_064,
      promotion_discount: 2_606,
      total_price: 23_458,
      deposit_amount: 7_037,
      pay_amount: 7_037,
      coupon_code: "WELCOME10",
    });
    expect(v2.price?.lines.map((line) => [line.room_class_name, line.num, line.nights, line.amount])).toEqual([
      ["Double", 2, 3, 3 * 2 * DOUBLE],
      ["Twin", 2, 3, 3 * 2 * TWIN],
    ]);
  });

  it("turns a refused coupon into the server's message, both ways", async () => {
    const v2 = await checkPrice(api, hotel, true, cart, { coupon: "NOSUCHCODE" }, UNKNOWN);
    const legacy = await checkPrice(api, hotel, false, cart, { coupon: "NOSUCHCODE" }, UNKNOWN);
    expect(v2.price).toBeNull();
    expect(v2.error).toBe(COUPON_REFUSED);
    expect(legacy).toEqual(v2);
  });

  it("refuses more rooms than are left with the spec's message, both ways", async () => {
    const tooMany = { ...cart, lines: [{ ...cart.lines[0]!, num: 4 }] };
    const v2 = await checkPrice(api, hotel, true, tooMany, {}, UNKNOWN);
    const legacy = await checkPrice(api, hotel, false, tooMany, {}, UNKNOWN);
    expect(v2.error).toBe("Not enough rooms");
    expect(legacy.error).toBe("Not enough rooms");
    // v2 also says which line: the checkout marks it and keeps the others.
    expect(v2.price?.lines.map((line) => line.error?.message ?? null)).toEqual(["Not enough rooms"]);
    expect(legacy.price).toBeNull();
  });

  it("says a plan the hotel does not sell on these dates is unavailable", async () => {
    const gone = { ...cart, lines: [{ room_class_id: cart.lines[0]!.room_class_id, proposal_id: 999_999, num: 1 }] };
    expect((await checkPrice(api, hotel, false, gone, {}, UNKNOWN)).error).toBe(UNKNOWN);
    expect((await checkPrice(api, hotel, true, gone, {}, UNKNOWN)).error).toBe(UNKNOWN);
  });
});

describe("a signed-in member's price check", () => {
  async function signedIn() {
    const row = await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?")
      .bind(HOST)
      .first<number>("id");
    const client = api.withMemberToken(await issueMemberToken(env.DB, row ?? 0));
    // Spec §6: the profile comes first; the legacy check sends it.
    return { client, profile: await client.memberProfile() };
  }

  it("shows the member prices in the lines both ways, matching the totals the back end computes", async () => {
    const { client, profile } = await signedIn();
    expect(profile).toEqual({
      email: "lin@example.com",
      first_name: "Lin",
      last_name: "Mei",
      phone: "",
      points: 100,
      invoice_choice: null,
    });
    const v2 = await checkPrice(client, hotel, true, cart, { member: profile }, UNKNOWN);
    const legacy = await checkPrice(client, hotel, false, cart, { member: profile }, UNKNOWN);
    const guest = await checkPrice(api, hotel, true, cart, {}, UNKNOWN);
    expect(v2.error).toBeNull();
    expect(legacy.error).toBeNull();
    // The member plan gives 90 % of the price, rounded to the dollar per night: 2,110.5 → 2,111
    // and 1,799.1 → 1,799, so 3 × 2 × (2,111 + 1,799) = 23,460 against a guest's 26,064.
    expect(guest.price?.room_price).toBe(26_064);
    expect(v2.price?.room_price).toBe(23_460);
    expect(legacy.price?.room_price).toBe(v2.price?.room_price);
    expect(legacy.price?.lines.map((line) => line.amount)).toEqual(v2.price?.lines.map((line) => line.amount));
    const lineSum = (legacy.price?.lines ?? []).reduce((sum, line) => sum + line.amount, 0);
    expect(lineSum).toBe(legacy.price?.room_price);
  });

  it("sends the member in the legacy call (spec §7), and both ways give the same points and members-only discount", async () => {
    const { client, profile } = await signedIn();
    const options = { member: profile, coupon: "Memberpromotion", points: 37, payOption: "part" as const };
    const v2 = await checkPrice(client, hotel, true, cart, options, UNKNOWN);
    const legacy = await checkPrice(client, hotel, false, cart, options, UNKNOWN);
    expect(legacyBodies.at(-1)?.member).toEqual({ user_email: "lin@example.com", user_point: 100 });
    expect(v2.error).toBeNull();
    expect(legacy).toEqual(v2);
    // 20 % off the member price (the hotel's discount is 80), floored; then 37 points; a 30 % deposit is the contract's cap, rounded down.
    const rooms = v2.price?.room_price ?? 0;
    const discount = Math.floor((rooms * 20) / 100);
    expect(v2.price).toMatchObject({
      promotion_discount: discount,
      point_used: 37,
      total_price: rooms - discount - 37,
      member: { points: 100 },
    });
    expect(v2.price?.deposit_amount).toBe(Math.floor(((rooms - discount - 37) * 30) / 100));
  });

  it("refuses a legacy check that names a member the token does not", async () => {
    const { client } = await signedIn();
    const body = (member: unknown) => ({
      check_in: cart.start,
      check_out: cart.end,
      plans: [{ rate_plan_code: "BAR", inv_type_code: "double", date_and_amount: [{ date: cart.start, amount: 1 }] }],
      member,
    });
    const asSomeoneElse = await client
      .legacyCalculate(body({ user_email: "someone@example.com", user_point: 99999 }) as never)
      .catch((error: unknown) => error);
    expect(asSomeoneElse).toMatchObject({ status: 401, field: "member.user_email", message: "Please sign in as a member first" });
    const withoutToken = await api
      .legacyCalculate(body({ user_email: "lin@example.com", user_point: 100 }) as never)
      .catch((error: unknown) => error);
    expect(withoutToken).toMatchObject({ status: 401, field: "member.user_email" });
  });
});

describe("the legacy price check's nights", () => {
  const plan = (amounts: [number, number][]) => ({
    rate_plan_code: "BAR",
    inv_type_code: "double",
    date_and_amount: amounts.map(([night, amount]) => ({ date: addDays(cart.start, night), amount })),
  });

  it("prices each night at its own price and number of rooms, as v2 prices the same nights stay by stay", async () => {
    // Two rooms the first night, one the second, none the third.
    const legacy = await api.legacyCalculate({
      check_in: cart.start,
      check_out: cart.end,
      plans: [
        plan([
          [0, 2],
          [1, 1],
        ]),
      ],
    });
    const search = await api.search(cart.start, cart.end);
    const double = search.rooms.find((room) => room.room_code === "double");
    const proposal = double?.price_set.find((item) => item.rate_plan_code === "BAR")?.proposal_id ?? 0;
    const night = (offset: number, num: number) =>
      api.calculate({
        check_in_day: addDays(cart.start, offset),
        check_out_day: addDays(cart.start, offset + 1),
        orders: [{ room_class_id: double?.room_class_id ?? 0, proposal_id: proposal, num }],
      });
    const [first, second] = await Promise.all([night(0, 2), night(1, 1)]);
    expect(first.room_price).toBeGreaterThan(0);
    expect(legacy.room_price).toBe(first.room_price + second.room_price);
    expect(legacy.original_amount).toBe(first.original_amount + second.original_amount);
  });

  it("checks rooms night by night and refuses nights outside the stay or twice over", async () => {
    // The double has 3 rooms: 3 on one night is fine, 4 is not, whatever the other nights ask.
    expect(
      (
        await api.legacyCalculate({
          check_in: cart.start,
          check_out: cart.end,
          plans: [
            plan([
              [0, 1],
              [2, 3],
            ]),
          ],
        })
      ).success,
    ).toBe(true);
    const tooMany = await api
      .legacyCalculate({
        check_in: cart.start,
        check_out: cart.end,
        plans: [
          plan([
            [0, 1],
            [1, 4],
          ]),
        ],
      })
      .catch((error: unknown) => error);
    expect(tooMany).toMatchObject({ status: 409, message: "Not enough rooms", field: "plans.0" });
    const outside = await api
      .legacyCalculate({
        check_in: cart.start,
        check_out: cart.end,
        plans: [
          plan([
            [0, 1],
            [3, 1],
          ]),
        ],
      })
      .catch((error: unknown) => error);
    expect(outside).toMatchObject({ status: 400, field: "plans.0.date_and_amount.1.date" });
    const twice = await api
      .legacyCalculate({
        check_in: cart.start,
        check_out: cart.end,
        plans: [
          plan([
            [1, 1],
            [1, 2],
          ]),
        ],
      })
      .catch((error: unknown) => error);
    expect(twice).toMatchObject({ status: 400, field: "plans.0.date_and_amount.1.date" });
  });
});

describe("money on amounts that do not divide evenly (decision 022)", () => {
  it("books one Double for one night with 10 % off and a 30 % deposit: discount rounded down, deposit at the contract's cap", async () => {
    // 2,345 − 10 % (234.5 → 234) = 2,111; 30 % deposit of 2,111 = 633.3 → 633 (never past the standard contract's 30 %, decision 040).
    const start = addDays(today, 25);
    const line = cart.lines[0]!;
    const stay = { check_in_day: start, check_out_day: addDays(start, 1) };
    const price = await api.calculate({ ...stay, orders: [{ ...line, num: 1 }], coupon_code: "WELCOME10", pay_option: "part" });
    expect(price).toMatchObject({ room_price: DOUBLE, promotion_discount: 234, total_price: 2_111, deposit_amount: 633, pay_amount: 633 });

    const created = await api.createOrder(
      {
        booker_first_name: "Mei",
        booker_last_name: "Lin",
        booker_phone: "0912345678",
        booker_email: "mei@example.com",
        ...stay,
        pay_way: "remittance",
        payment_vendor: 8,
        pay_option: "part",
        coupon_array: ["WELCOME10"],
        orders: [{ ...line, num: 1 }],
        adults_count: 2,
        children_count: 0,
      },
      crypto.randomUUID(),
    );
    if (!created.ok) throw created.error;
    // The order keeps the same numbers: 633 due now, and all 2,111 still to pay until money arrives.
    expect(created.order).toMatchObject({
      sum: DOUBLE,
      couponDiscount: 234,
      final_amount: 2_111,
      deposit_amount: 633,
      pay_amount: 633,
      paid_amount: 0,
      remain_total_amount: 2_111,
    });
  });
});
