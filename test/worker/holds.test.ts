/**
 * Holds that hold and no relay (decision 072), through the real Worker and D1, tried as the abuser
 * of issue 23 tried them: pay-at-arrival holds, `+tag` and dotted emails, one phone written three
 * ways, IPv6 neighbours in one /64, a 30 × 7 order paid at arrival, a link in a name, and ten
 * book-then-cancel pairs aimed at one inbox. Past a limit: a captcha; past a few more: a refusal.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { BOOKER, answerQuestion, apiJson, fixtureHotel, hotelRefs, loadHotel, type HotelRefs } from "./helpers";

const today = todayIn("Asia/Taipei");
const hotels: Record<string, HotelRefs> = {};

/** A hotel of the defaults (3 unpaid orders per guest, abuse_limits as shipped) taking pay at arrival. */
async function holdHotel(domain: string) {
  await loadHotel(
    fixtureHotel(domain, (file) => {
      const hotel = file.hotel as Record<string, unknown>;
      hotel.payment_list = [
        { vendor_id: 8, method: "remittance" },
        { vendor_id: 14, method: "pay_arrival" },
      ];
      hotel.payment_deadlines = {};
      hotel.abuse_limits = {};
      file.room_classes[0]!.total_rooms = 40;
    }),
  );
  hotels[domain] = await hotelRefs(domain);
}

interface Challenge {
  token: string;
  question: string;
}
interface Answer {
  order_doc?: string;
  order?: { cancel_hash: string };
  challenge?: Challenge;
}

/** The next free night of each hotel: every order holds nights of its own (inventory is two months). */
const nights: Record<string, number> = {};
/** Places a pay-at-arrival order for one room on a night of its own, as `who`, from `address`. */
function place(
  domain: string,
  who: Record<string, string>,
  options: { address?: string; pass?: string; lang?: string; rooms?: number; nights?: number; pay?: string } = {},
) {
  const night = nights[domain] ?? 7;
  const start = addDays(today, night);
  nights[domain] = night + (options.nights ?? 1);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.address) headers["cf-connecting-ip"] = options.address;
  return apiJson<Answer>(domain, `/api/ota/order/personal-new?lang=${options.lang ?? "en-US"}`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      domain,
      ...BOOKER,
      ...who,
      check_in_day: start,
      check_out_day: addDays(start, options.nights ?? 1),
      pay_way: options.pay ?? "pay_arrival",
      payment_vendor: options.pay === "remittance" ? 8 : 14,
      orders: [{ room_class_id: hotels[domain]!.room, proposal_id: hotels[domain]!.plan, num: options.rooms ?? 1 }],
      adults_count: 2,
      ...(options.pass ? { captcha_pass: options.pass } : {}),
    }),
  });
}

/** Passes a challenge as a guest who reads its question, for `action` at `domain`. */
async function passFor(domain: string, challenge: Challenge, action = "order", address?: string): Promise<string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (address) headers["cf-connecting-ip"] = address;
  const { status, body } = await apiJson<{ pass: string }>(domain, "/api/captcha/verify?lang=en-US", {
    method: "POST",
    headers,
    body: JSON.stringify({ domain, action, token: challenge.token, answer: answerQuestion(challenge.question) }),
  });
  expect(status).toBe(200);
  return body.data!.pass;
}

const count = async (domain: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE hotel_id = ?").bind(hotels[domain]!.id).first<{ n: number }>())!.n;

beforeAll(async () => {
  for (const name of ["arrival", "emails", "phones", "ipv6", "nights", "names", "pairs", "trigger"])
    await holdHotel(`holds-${name}.localhost`);
});

describe("every unpaid order counts, by every spelling of the guest", () => {
  it("pay-at-arrival orders count: the fourth needs a captcha, the fourth and fifth pass with one each (a pass works once), the sixth is refused in the guest's language", async () => {
    const domain = "holds-arrival.localhost";
    const guest = { booker_email: "arrival@example.com" };
    for (let i = 0; i < 3; i++) expect((await place(domain, guest)).status).toBe(201);
    const asked = await place(domain, guest);
    expect(asked.status).toBe(429);
    expect(asked.body.msg.code).toBe("captcha_required");
    const before = await count(domain);
    // A pass of another action does not do.
    const otherPass = await passFor(
      domain,
      (
        await apiJson<{ challenge: Challenge }>(domain, "/api/captcha/trigger?lang=en-US", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain, action: "cancel" }),
        })
      ).body.data!.challenge,
      "cancel",
    );
    expect((await place(domain, guest, { pass: otherPass })).body.msg.code).toBe("captcha_required");
    const pass = await passFor(domain, asked.body.data!.challenge!);
    expect((await place(domain, guest, { pass })).status).toBe(201);
    // The pass is spent: the same pass again is asked for a new one.
    const replayed = await place(domain, guest, { pass });
    expect(replayed.body.msg.code).toBe("captcha_required");
    expect((await place(domain, guest, { pass: await passFor(domain, replayed.body.data!.challenge!) })).status).toBe(201);
    // Five unpaid holds: refused, passed challenge or not.
    const challenge = (await place(domain, { booker_email: "someone-else@example.com", booker_phone: "0900 000 001" })).body.data;
    expect(challenge?.challenge).toBeUndefined();
    const refused = await place(domain, guest, { lang: "zh-TW" });
    expect(refused.status).toBe(429);
    expect(refused.body.msg.code).toBe("too_many_unpaid_orders");
    expect(refused.body.msg.message).toBe("您在本飯店已有 5 筆未付款訂單，請先付款或取消其中一筆");
    expect(await count(domain)).toBe(before + 3);
  });

  it("+tag and dotted Gmail addresses are one guest", async () => {
    const domain = "holds-emails.localhost";
    for (const email of ["holder@gmail.com", "Holder+1@gmail.com", "h.older@gmail.com"]) {
      expect((await place(domain, { booker_email: email, booker_phone: `0912 000 00${email.length}` })).status).toBe(201);
    }
    const asked = await place(domain, { booker_email: "h.o.l.d.e.r+x@googlemail.com", booker_phone: "0912 000 999" });
    expect(asked.body.msg.code).toBe("captcha_required");
    // Another mailbox is another guest.
    expect((await place(domain, { booker_email: "holder2@gmail.com", booker_phone: "0912 000 998" })).status).toBe(201);
  });

  it("one phone written three ways is one guest", async () => {
    const domain = "holds-phones.localhost";
    const phones = ["0933 111 222", "+886-933-111-222", "(0933) 111-222"];
    for (const [index, phone] of phones.entries())
      expect((await place(domain, { booker_email: `phone${index}@example.com`, booker_phone: phone })).status).toBe(201);
    expect((await place(domain, { booker_email: "phone9@example.com", booker_phone: "00886933111222" })).body.msg.code).toBe(
      "captcha_required",
    );
  });

  it("IPv6 neighbours in one /64 are one caller, and so is the rest of its /56 (one household, decision 132); the next /56 is another", async () => {
    const domain = "holds-ipv6.localhost";
    for (let i = 1; i <= 3; i++) {
      expect(
        (await place(domain, { booker_email: `v6-${i}@example.com`, booker_phone: `0955 000 00${i}` }, { address: `2001:db8:9:9::${i}` }))
          .status,
      ).toBe(201);
    }
    expect(
      (await place(domain, { booker_email: "v6-4@example.com", booker_phone: "0955 000 004" }, { address: "2001:db8:9:9:ffff::4" })).body
        .msg.code,
    ).toBe("captcha_required");
    expect(
      (await place(domain, { booker_email: "v6-5@example.com", booker_phone: "0955 000 005" }, { address: "2001:db8:9:a::5" })).body.msg
        .code,
    ).toBe("captcha_required");
    expect(
      (await place(domain, { booker_email: "v6-6@example.com", booker_phone: "0955 000 006" }, { address: "2001:db8:9:109::6" })).status,
    ).toBe(201);
  });

  it("the trigger asks a guest with three unpaid holds for a challenge for 'order', and nobody else", async () => {
    const domain = "holds-trigger.localhost";
    const ask = async (email: string) =>
      (
        await apiJson<{ needed: boolean }>(domain, "/api/captcha/trigger?lang=en-US", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain, action: "order", email, phone: "0966 000 000" }),
        })
      ).body.data?.needed;
    expect(await ask("trigger@example.com")).toBe(false);
    for (let i = 0; i < 3; i++) await place(domain, { booker_email: "trigger@example.com", booker_phone: "0966 000 000" });
    expect(await ask("TRIGGER+x@example.com")).toBe(true);
  });
});

describe("a cap on rooms × nights without online payment", () => {
  it("refuses 30 rooms × 7 nights paid at arrival, in the guest's language, writing nothing; nor 21 by bank transfer; 20 pass", async () => {
    const domain = "holds-nights.localhost";
    const before = await count(domain);
    const refused = await place(domain, { booker_email: "big@example.com" }, { rooms: 30, nights: 7, lang: "ja-JP" });
    expect(refused.status).toBe(422);
    expect(refused.body.msg.code).toBe("too_many_room_nights");
    expect(refused.body.msg.message).toContain("最大 20 室泊");
    const transfer = await place(domain, { booker_email: "big@example.com" }, { rooms: 3, nights: 7, pay: "remittance" });
    expect(transfer.status).toBe(422);
    expect(transfer.body.msg.code).toBe("too_many_room_nights");
    expect(await count(domain)).toBe(before);
    expect((await place(domain, { booker_email: "big@example.com" }, { rooms: 10, nights: 2 })).status).toBe(201);
  });
});

describe("no relay", () => {
  it.each([
    ["booker_first_name", "https://evil.example/a/verify"],
    // Under 50 characters: refused for the link, not the length.
    ["booker_last_name", "URGENT: re-verify at evil.example"],
    ["booker_first_name", "www.evil"],
    ["booker_name", "Mei pay-now.com"],
  ])("the order API refuses a link in %s and books nothing", async (field, value) => {
    const domain = "holds-names.localhost";
    const before = await count(domain);
    const refused = await place(domain, { booker_email: "names@example.com", [field]: value });
    expect(refused.status).toBe(400);
    expect(refused.body.msg.code).toBe("invalid_field");
    expect(refused.body.msg.extrainfo?.field).toBe(field);
    expect(await count(domain)).toBe(before);
  });

  it("ten book-then-cancel pairs from one caller to one inbox: a captcha after three pairs, a refusal after six, at most three emails", async () => {
    const domain = "holds-pairs.localhost";
    const address = "203.0.113.77";
    const statuses: string[] = [];
    for (let i = 0; i < 10; i++) {
      const placed = await place(domain, { booker_email: "target@example.com", booker_phone: `0977 000 0${10 + i}` }, { address });
      if (placed.status !== 201) {
        statuses.push(placed.body.msg.code);
        continue;
      }
      statuses.push("booked");
      const doc = placed.body.data!.order_doc!;
      const cancelled = await apiJson(domain, `/api/wota/order/cancel-via-hash/${doc}?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": address },
        body: JSON.stringify({ domain, valid_hash: placed.body.data!.order!.cancel_hash, reason: "" }),
      });
      expect(cancelled.status).toBe(200);
    }
    expect(statuses.slice(0, 3)).toEqual(["booked", "booked", "booked"]);
    expect(statuses.slice(3)).toEqual(Array(7).fill("captcha_required"));
    const mails = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE hotel_id = ? AND to_address = 'target@example.com'")
      .bind(hotels[domain]!.id)
      .first<{ n: number }>();
    expect(mails?.n).toBe(3);
    // With a challenge passed each time, three more pairs; then the caller is refused outright.
    for (let i = 0; i < 3; i++) {
      const asked = await place(domain, { booker_email: "target@example.com", booker_phone: "0977 000 099" }, { address });
      const placed = await place(
        domain,
        { booker_email: "target@example.com", booker_phone: "0977 000 099" },
        { address, pass: await passFor(domain, asked.body.data!.challenge!, "order", address) },
      );
      expect(placed.status).toBe(201);
      await apiJson(domain, `/api/wota/order/cancel-via-hash/${placed.body.data!.order_doc}?lang=en-US`, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": address },
        body: JSON.stringify({ domain, valid_hash: placed.body.data!.order!.cancel_hash, reason: "" }),
      });
    }
    const refused = await place(domain, { booker_email: "other@example.com", booker_phone: "0988 000 000" }, { address });
    expect(refused.status).toBe(429);
    expect(refused.body.msg.code).toBe("too_many_attempts");
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE hotel_id = ? AND to_address = 'target@example.com'")
      .bind(hotels[domain]!.id)
      .first<{ n: number }>();
    expect(after?.n).toBe(3);
  });
});
