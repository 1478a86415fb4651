import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { signOrderLink } from "~/backend/orders/links.server";
import { loadLogo } from "~/documents/fonts.server";
import { issueMemberToken } from "~/backend/account/members.server";
import { memberSessionCookie } from "~/platform/cookies.server";
import { deliverMail, deliverMailSoon, MAX_ATTEMPTS } from "~/backend/mail/deliver.server";
import { outboxPage } from "~/backend/mail/outbox-page.server";
import { handleBackendRequest } from "~/backend/router.server";
import { formatDateTime } from "~/i18n/format";
import { resendMailer } from "~/backend/mail/transports.server";
import { parseEnv } from "~/platform/env.server";
import { createLogger, type Logger } from "~/platform/log.server";
import zhTWDocuments from "../../locales/zh-TW/documents.json";
import zhCNDocuments from "../../locales/zh-CN/documents.json";
import enUSDocuments from "../../locales/en-US/documents.json";
import jaJPDocuments from "../../locales/ja-JP/documents.json";
import koKRDocuments from "../../locales/ko-KR/documents.json";
import { BOOKER, Browser, apiJson, countingDb, fetchAs, fixtureHotel, hidden, loadHotel, setAsideOtherHotelsMail, text } from "./helpers";

const HOST = "after.localhost";
const OTHER = "after-other.localhost";
const today = todayIn("Asia/Taipei");

interface Created {
  order_doc: string;
  order: { order_doc: string; valid_hash: string; cancel_hash: string; final_amount: number };
}

let roomClassId = 0;
let planId = 0;
let hotelId = 0;

async function placeOrder(checkIn: string, overrides: Record<string, unknown> = {}, lang = "en-US", headers: Record<string, string> = {}) {
  const response = await apiJson<Created>(HOST, `/api/ota/order/personal-new?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      domain: HOST,
      ...BOOKER,
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 1),
      pay_way: "remittance",
      payment_vendor: 8,
      pay_option: "all",
      orders: [{ room_class_id: roomClassId, proposal_id: planId, num: 1, occupant_name: "陳堃 김민준" }],
      adults_count: 2,
      children_count: 0,
      ...overrides,
    }),
  });
  return response;
}

async function booked(night: string): Promise<number> {
  const row = await env.DB.prepare("SELECT booked FROM room_nights WHERE room_class_id = ? AND night = ?")
    .bind(roomClassId, night)
    .first<{ booked: number }>();
  return row?.booked ?? -1;
}

const outboxOf = (orderDoc: string) =>
  env.DB.prepare("SELECT m.* FROM mail_outbox m JOIN orders o ON o.id = m.order_id WHERE o.order_doc = ? ORDER BY m.id")
    .bind(orderDoc)
    .all<{
      id: number;
      kind: string;
      lang: string;
      status: string;
      attempts: number;
      subject: string | null;
      text_body: string | null;
      html_body: string | null;
      last_error: string;
      provider_id: string;
    }>()
    .then((result) => result.results);

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      (file.hotel as Record<string, unknown>).hotel_name = { "zh-TW": "堃喆旅店", "en-US": "Kun Zhe Inn" };
    }),
  );
  await loadHotel(fixtureHotel(OTHER));
  const ids = await env.DB.prepare(
    "SELECT h.id AS hotel, rc.id AS room, rp.id AS plan FROM hotels h JOIN room_classes rc ON rc.hotel_id = h.id JOIN rate_plans rp ON rp.hotel_id = h.id WHERE h.domain = ?",
  )
    .bind(HOST)
    .first<{ hotel: number; room: number; plan: number }>();
  hotelId = ids?.hotel ?? 0;
  roomClassId = ids?.room ?? 0;
  planId = ids?.plan ?? 0;
});

describe("the email outbox", () => {
  it("queues the confirmation in the order's batch, in the order's language; a refused order queues nothing", async () => {
    const created = await placeOrder(addDays(today, 30), {}, "ja-JP");
    expect(created.status).toBe(201);
    const mails = await outboxOf(created.body.data.order_doc);
    // And the hotel's own email, in its main language (decision 150).
    expect(mails.map((mail) => [mail.kind, mail.lang])).toEqual([
      ["order_confirmation", "ja-JP"],
      ["hotel_new_booking", "zh-TW"],
    ]);

    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox").first<{ n: number }>();
    // The fixture's room is sold out five days from today.
    const refused = await placeOrder(addDays(today, 5));
    expect(refused.status).toBe(409);
    const after = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("renders the message with the hotel, the amounts, how to pay and working signed links, then sends it by the configured provider with retries", async () => {
    const checkIn = addDays(today, 31);
    const created = await placeOrder(checkIn);
    const doc = created.body.data.order_doc;
    // The provider is faked behind the real Resend adapter: it refuses this order's message once, then accepts.
    const calls: {
      url: string;
      body: { to: string[]; subject: string; text: string; html: string; attachments: { filename: string; content: string }[] };
    }[] = [];
    let refuse = true;
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      calls.push({ url: String(input), body });
      if (refuse && String(body.subject).includes(doc)) {
        refuse = false;
        return new Response('{"message":"rate limited"}', { status: 429 });
      }
      return Response.json({ id: "re_123" });
    }) as typeof fetch;
    const appEnv = { ...parseEnv(env as unknown as Record<string, unknown>), MAIL_FROM: "Kun Zhe Inn <stay@example.com>" };
    const log = createLogger("test");
    const mailer = resendMailer("re_test_key", fakeFetch);

    const now = new Date();
    await setAsideOtherHotelsMail(HOST);
    expect(await deliverMail(appEnv, log, { mailer, now, limit: 50 })).toBeGreaterThanOrEqual(0);
    let [mail] = await outboxOf(doc);
    expect(mail?.status).toBe("queued");
    expect(mail?.attempts).toBe(1);
    expect(mail?.last_error).toContain("429");

    // Not due again before its back-off; due after it.
    await deliverMail(appEnv, log, { mailer, now: new Date(now.getTime() + 30_000), limit: 50 });
    expect((await outboxOf(doc))[0]?.attempts).toBe(1);
    await deliverMail(appEnv, log, { mailer, now: new Date(now.getTime() + 61_000), limit: 50 });
    [mail] = await outboxOf(doc);
    expect(mail?.status).toBe("sent");
    expect(mail?.provider_id).toBe("resend:re_123");

    const sent = calls.filter((call) => call.body.subject.includes(doc)).at(-1);
    expect(sent?.url).toBe("https://api.resend.com/emails");
    expect(sent?.body.to).toEqual([BOOKER.booker_email]);
    expect(sent?.body.subject).toBe(`Kun Zhe Inn: booking confirmed, ${doc}`);
    expect(sent?.body.text).toContain("Please transfer NT$");
    // The deadline in the hotel's time, since an unpaid booking is cancelled once it passes (decision 032);
    // not "before your stay", which the deadline contradicts.
    const deadline =
      (await env.DB.prepare("SELECT pay_deadline FROM orders WHERE order_doc = ?").bind(doc).first<{ pay_deadline: string }>())
        ?.pay_deadline ?? "";
    expect(deadline).not.toBe("");
    expect(sent?.body.text).toContain(
      `Please pay by ${formatDateTime(deadline, "en-US", "Asia/Taipei")}. Unpaid bookings are cancelled automatically`,
    );
    expect(sent?.body.html).toContain(`Please pay by ${formatDateTime(deadline, "en-US", "Asia/Taipei")}.`);
    expect(sent?.body.text).not.toContain("before your stay");
    expect(sent?.body.text).toContain("陳堃 김민준");
    expect(sent?.body.html).toContain("<a href=");
    // The PDF goes with it.
    const attachment = sent?.body.attachments[0];
    expect(attachment?.filename).toBe("BOOKING_CONFIRMATION.pdf");
    expect(atob(attachment?.content ?? "").slice(0, 5)).toBe("%PDF-");

    // Its view link opens the order page; its cancel link opens the cancellation page.
    const view = /http:\/\/after\.localhost\S*\/orders\/[A-Z0-9-]+\?valid_hash=\S+/.exec(mail?.text_body ?? "")?.[0] ?? "";
    const cancel = /http:\/\/after\.localhost\S*\/orders\/[A-Z0-9-]+\/cancel\?cancel_hash=\S+/.exec(mail?.text_body ?? "")?.[0] ?? "";
    const viewPage = await fetchAs(HOST, new URL(view).pathname + new URL(view).search);
    expect(viewPage.status).toBe(200);
    expect(text(await viewPage.text())).toContain(`Booking ${doc}`);
    const cancelPage = await fetchAs(HOST, new URL(cancel).pathname + new URL(cancel).search);
    expect(cancelPage.status).toBe(200);
    expect(await booked(checkIn)).toBeGreaterThan(0);
  });

  it("renders each message once when many responses ask for delivery at once (issue 26: orders under load)", async () => {
    // Orders placed through the back end alone (no response to deliver after), so their mail waits.
    for (let n = 0; n < 3; n++) {
      const checkIn = addDays(today, 40 + n);
      const response = await handleBackendRequest(
        new Request(`http://${HOST}/api/ota/order/personal-new?lang=en-US`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            domain: HOST,
            ...BOOKER,
            check_in_day: checkIn,
            check_out_day: addDays(checkIn, 1),
            pay_way: "remittance",
            payment_vendor: 8,
            orders: [{ room_class_id: roomClassId, proposal_id: planId, num: 1 }],
            adults_count: 2,
          }),
        }),
        { db: env.DB, signingSecret: env.SESSION_SECRET },
      );
      expect(response.status).toBe(201);
    }
    const pending = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE subject IS NULL AND status = 'queued'").first<number>(
      "n",
    );
    expect(pending).toBeGreaterThanOrEqual(3);
    const counted = countingDb(env.DB);
    const appEnv = { ...parseEnv(env as unknown as Record<string, unknown>), DB: counted.db };
    // Ten responses that each queued mail, finishing together: one delivery renders, the others ask it for a pass.
    await Promise.all(Array.from({ length: 10 }, () => deliverMailSoon(appEnv, createLogger("test"))));
    const renders = counted.statements().filter((sql) => /UPDATE mail_outbox SET subject = /.test(sql)).length;
    expect(renders).toBe(pending);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE subject IS NULL AND status = 'queued'").first<number>("n"),
    ).toBe(0);
  });

  it("marks a message failed after the last attempt", async () => {
    const created = await placeOrder(addDays(today, 32));
    const doc = created.body.data.order_doc;
    const appEnv = parseEnv(env as unknown as Record<string, unknown>);
    const failing = { name: "failing", send: async () => Promise.reject(new Error("provider down")) };
    let at = Date.now();
    await setAsideOtherHotelsMail(HOST);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      await deliverMail(appEnv, createLogger("test"), { mailer: failing, now: new Date(at), limit: 50 });
      at += 24 * 3600_000;
    }
    const [mail] = await outboxOf(doc);
    expect(mail?.attempts).toBe(MAX_ATTEMPTS);
    expect(mail?.status).toBe("failed");
    expect(mail?.last_error).toBe("provider down");
  });

  it("lists messages on the development page, which production does not have", async () => {
    await placeOrder(addDays(today, 33));
    const page = await outboxPage(
      parseEnv(env as unknown as Record<string, unknown>),
      new URL(`http://${HOST}/dev/outbox`),
      createLogger("test"),
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Kun Zhe Inn: booking confirmed");
    // This Worker runs with the configuration of wrangler.toml, which never sets MAIL_OUTBOX_PAGE.
    expect((await fetchAs(HOST, "/dev/outbox")).status).toBe(404);
  });
});

describe("cancelling from the emailed link", () => {
  it("GET shows what will be cancelled and never cancels; the POST needs the CSRF token; a second cancel is a no-op", async () => {
    const checkIn = addDays(today, 34);
    const created = await placeOrder(checkIn);
    const { order_doc: doc, order } = created.body.data;
    const taken = await booked(checkIn);
    const browser = new Browser(HOST);
    const path = `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(order.cancel_hash)}`;

    const shown = await browser.request(path);
    expect(shown.status).toBe(200);
    expect(text(shown.html)).toContain("Nothing has been paid: cancelling costs nothing.");
    await browser.request(path);
    expect(await booked(checkIn)).toBe(taken);

    const forged = await browser.request(path, { csrf: "00000000-0000-0000-0000-000000000000" });
    expect(forged.status).toBe(403);
    expect(await booked(checkIn)).toBe(taken);

    const done = await browser.request(path, { csrf: hidden(shown.html, "csrf"), reason: "plans changed" });
    expect(done.status).toBe(303);
    expect(done.location).toMatch(new RegExp(`^/en-US/hxa/orders/${doc}\\?valid_hash=.+&cancelled=1$`));
    expect(await booked(checkIn)).toBe(taken - 1);
    const after = await browser.request(done.location ?? "");
    expect(text(after.html)).toContain("Your booking has been cancelled.");
    // Each with the hotel's own email (decision 150).
    expect((await outboxOf(doc)).map((mail) => mail.kind)).toEqual([
      "order_confirmation",
      "hotel_new_booking",
      "order_cancellation",
      "hotel_cancellation",
    ]);

    const again = await browser.request(path, { csrf: hidden(shown.html, "csrf") });
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain("This booking is already cancelled");
    expect(await booked(checkIn)).toBe(taken - 1);
    expect((await outboxOf(doc)).length).toBe(4);
  });

  it("records a paid order's refund as being refunded, and the page and the email say it in the same words, with the fee and its rule", async () => {
    // Template 2 (7 days) is over 2 days before check-in: room price paid in advance, 50 % back (decision 040).
    const checkIn = addDays(today, 2);
    const created = await placeOrder(checkIn);
    const doc = created.body.data.order_doc;
    // A bank transfer as the hotel records it: 1,501 paid, nothing a gateway can send back.
    await env.DB.prepare("UPDATE orders SET paid_amount = 1501, payment_status = 1 WHERE order_doc = ?").bind(doc).run();
    const browser = new Browser(HOST);
    const path = `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(created.body.data.order.cancel_hash)}`;
    const shown = await browser.request(path);
    expect(text(shown.html)).toContain("Cancelling now refunds NT$751 of the NT$1,501 paid; the hotel keeps NT$750.");
    const done = await browser.request(path, { csrf: hidden(shown.html, "csrf") });
    expect(done.status).toBe(303);
    const record = await env.DB.prepare("SELECT c.* FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE o.order_doc = ?")
      .bind(doc)
      .first<{ refund: number; fee: number; refund_status: string; refund_rule: string; refund_percent: number }>();
    expect(record).toMatchObject({ refund: 751, fee: 750, refund_status: "due", refund_rule: "advance", refund_percent: 50 });
    const page = text((await browser.request(done.location ?? "")).html).replaceAll("&#x27;", "'");
    // The cancellation email says so too, once rendered: the same status, the same fee, the same rule.
    await outboxPage(parseEnv(env as unknown as Record<string, unknown>), new URL(`http://${HOST}/dev/outbox`), createLogger("test"));
    const cancellation = (await outboxOf(doc)).find((mail) => mail.kind === "order_cancellation");
    expect(cancellation?.subject).toBe(`Kun Zhe Inn: booking cancelled, ${doc}`);
    for (const said of [page, cancellation?.text_body ?? ""]) {
      expect(said).toContain("Refund of NT$751: being refunded to you.");
      expect(said).toContain("The hotel keeps NT$750 of the NT$1,501 paid.");
      expect(said).toContain(
        "Room price paid in advance NT$1,501: 50% back (NT$751), the hotel keeps NT$750. Rule: the tourism authority's standard contract",
      );
      expect(said).not.toContain("paid back");
    }
  });

  it("says when the stay has begun and cancelling online is over", async () => {
    const created = await placeOrder(addDays(today, 6));
    const doc = created.body.data.order_doc;
    await env.DB.prepare("UPDATE orders SET check_in_day = ?, check_out_day = ? WHERE order_doc = ?")
      .bind(today, addDays(today, 1), doc)
      .run();
    const page = await new Browser(HOST).request(
      `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(created.body.data.order.cancel_hash)}`,
    );
    expect(text(page.html)).toContain("The stay has begun: this booking can no longer be cancelled online.");
    expect(page.html).not.toContain('name="csrf"');
  });
});

describe("the confirmation's logo", () => {
  it("is read from the site's assets; one that is missing or not a logo leaves the PDF without it and says why in the log", async () => {
    const warnings: string[] = [];
    const log: Logger = {
      requestId: "logo",
      info: () => {},
      error: () => {},
      warn: (message, ...details) => warnings.push([message, ...details].join(" ")),
    };
    const assets = (env as unknown as { ASSETS: Fetcher }).ASSETS;
    const drawn = await loadLogo(assets, "/demo/taipei/logo-dark.svg", log);
    expect(drawn?.type).toBe("svg");
    expect(warnings).toEqual([]);
    expect(await loadLogo(assets, "/demo/taipei/nowhere.svg", log)).toBeNull();
    expect(await loadLogo(assets, "/demo/taipei/logo-dark.gif", log)).toBeNull();
    expect(await loadLogo(assets, "", log)).toBeNull();
    expect(warnings).toEqual([
      "logo left off the document: the assets answered 404 /demo/taipei/nowhere.svg",
      "logo left off the document: not a PNG, JPEG or SVG path of the site /demo/taipei/logo-dark.gif",
    ]);
  });
});

describe("who may see an order, its links and its PDF", () => {
  it("refuses forged, tampered, expired and other-hotel links", async () => {
    const created = await placeOrder(addDays(today, 35));
    const { order_doc: doc, order } = created.body.data;
    const page = (host: string, hash: string) => fetchAs(host, `/en-US/hxa/orders/${doc}?valid_hash=${encodeURIComponent(hash)}`);
    expect((await page(HOST, order.valid_hash)).status).toBe(200);
    const tampered = order.valid_hash.slice(0, -2) + (order.valid_hash.endsWith("AA") ? "BB" : "AA");
    expect((await page(HOST, tampered)).status).toBe(404);
    const forged = await signOrderLink(
      "another-secret-that-is-32-characters-long!",
      { hotelId, orderDoc: doc, checkOutDay: addDays(today, 36) },
      "view",
    );
    expect((await page(HOST, forged)).status).toBe(404);
    const expired = await signOrderLink(env.SESSION_SECRET, { hotelId, orderDoc: doc, checkOutDay: addDays(today, -400) }, "view");
    expect((await page(HOST, expired)).status).toBe(404);
    expect((await page(OTHER, order.valid_hash)).status).toBe(404);
    // No proof at all: the order number alone shows nothing.
    expect((await fetchAs(HOST, `/en-US/hxa/orders/${doc}`)).status).toBe(404);
    expect((await fetchAs(HOST, `/en-US/hxa/orders/${doc}/confirmation.pdf`)).status).toBe(404);
  });

  it("serves BOOKING_CONFIRMATION.pdf by plain link and by the two-step download, only with a valid ticket", async () => {
    const created = await placeOrder(addDays(today, 37));
    const { order_doc: doc, order } = created.body.data;
    const plain = await fetchAs(HOST, `/en-US/hxa/orders/${doc}/confirmation.pdf?valid_hash=${encodeURIComponent(order.valid_hash)}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-disposition")).toBe('attachment; filename="BOOKING_CONFIRMATION.pdf"');
    expect(new TextDecoder().decode((await plain.arrayBuffer()).slice(0, 5))).toBe("%PDF-");

    const step1 = await fetchAs(
      HOST,
      `/hxa/download/download-accommodation-proof/${doc}?valid_hash=${encodeURIComponent(order.valid_hash)}`,
    );
    expect(step1.status).toBe(200);
    const { data } = (await step1.json()) as { data: { iv: string; number: string } };
    const step2 = (host: string, iv: string, number: string) =>
      fetchAs(host, "/hxa/bookings/download-accommodation-proof", {
        method: "POST",
        headers: { "content-type": "application/json", "x-iv": iv },
        body: JSON.stringify({ number }),
      });
    const pdf = await step2(HOST, data.iv, data.number);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");

    const flipped = data.number.slice(0, -1) + (data.number.endsWith("A") ? "B" : "A");
    expect((await step2(HOST, data.iv, flipped)).status).toBe(403);
    expect((await step2(HOST, "AAAAAAAAAAAAAAAA", data.number)).status).toBe(403);
    expect((await step2(OTHER, data.iv, data.number)).status).toBe(403);
    expect((await fetchAs(HOST, `/hxa/download/download-accommodation-proof/${doc}`)).status).toBe(404);
  });
});

describe("the two-step download's refusals, in the guest's language (issue 37)", () => {
  // zh-TW has no prefix in the address; each other language its own.
  const LANGS = [
    { prefix: "", words: zhTWDocuments },
    { prefix: "/zh-CN", words: zhCNDocuments },
    { prefix: "/en-US", words: enUSDocuments },
    { prefix: "/ja-JP", words: jaJPDocuments },
    { prefix: "/ko-KR", words: koKRDocuments },
  ];
  interface Refusal {
    success: boolean;
    msg: { code: string; message: string; extrainfo?: { message: string } };
  }
  const refusal = async (response: Response) => {
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toContain("no-store");
    return (await response.json()) as Refusal;
  };
  // One order for every language: the fixture has few rooms a night.
  let doc = "";
  let order = { valid_hash: "" };
  beforeAll(async () => {
    ({ order_doc: doc, order } = (await placeOrder(addDays(today, 39))).body.data);
  });

  it.each(LANGS)(
    "answers bad input to $prefix's step two with a 403 and its message in that language, never a 500",
    async ({ prefix, words }) => {
      const step1 = await fetchAs(
        HOST,
        `${prefix}/hxa/download/download-accommodation-proof/${doc}?valid_hash=${encodeURIComponent(order.valid_hash)}`,
      );
      const { data } = (await step1.json()) as { data: { iv: string; number: string } };
      const step2 = `${prefix}/hxa/bookings/download-accommodation-proof`;
      const attempts: RequestInit[] = [
        {
          headers: { "content-type": "application/json", "x-iv": data.iv },
          body: JSON.stringify({ number: data.number.slice(0, -1) + (data.number.endsWith("A") ? "B" : "A") }),
        },
        { headers: { "content-type": "application/json", "x-iv": "AAAAAAAAAAAAAAAA" }, body: JSON.stringify({ number: data.number }) },
        { headers: { "content-type": "application/json" }, body: JSON.stringify({ number: data.number }) },
        { headers: { "content-type": "application/json", "x-iv": data.iv }, body: "{not json" },
        { headers: { "content-type": "application/json", "x-iv": data.iv }, body: "null" },
        { headers: { "content-type": "application/json", "x-iv": data.iv }, body: JSON.stringify({ number: 42 }) },
        { headers: { "content-type": "application/x-www-form-urlencoded", "x-iv": "%E2%80%AE" }, body: "number=%00" },
        { headers: { "content-type": "text/plain", "x-iv": data.iv }, body: data.number },
        { headers: { "x-iv": data.iv } },
      ];
      for (const init of attempts) {
        const response = await fetchAs(HOST, step2, { method: "POST", ...init });
        expect(response.status, String(init.body)).toBe(403);
        const body = await refusal(response);
        expect(body.success).toBe(false);
        expect(body.msg.code).toBe("forbidden");
        expect(body.msg.message).toBe(words["proof.error.forbidden"]);
        expect(body.msg.extrainfo?.message).toBe(words["proof.error.forbidden"]);
      }
      // Another hotel's site refuses the ticket in the same words.
      const elsewhere = await fetchAs(OTHER, step2, {
        method: "POST",
        headers: { "content-type": "application/json", "x-iv": data.iv },
        body: JSON.stringify({ number: data.number }),
      });
      expect(elsewhere.status).toBe(403);
      expect((await refusal(elsewhere)).msg.message).toBe(words["proof.error.forbidden"]);
      // A GET fetches nothing, and says so.
      const get = await fetchAs(HOST, step2);
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
      expect((await refusal(get)).msg.message).toBe(words["proof.error.method"]);
    },
  );

  it.each(LANGS)(
    "answers step one without a proof, or for an order it does not prove, with a 404 in $prefix's language",
    async ({ prefix, words }) => {
      for (const path of [
        `/hxa/download/download-accommodation-proof/${doc}`,
        `/hxa/download/download-accommodation-proof/${doc}?valid_hash=forged`,
        `/hxa/download/download-accommodation-proof/NO-SUCH-ORDER?valid_hash=${"x".repeat(300)}`,
        `/hxa/download/download-accommodation-proof/%E2%80%AE%00?cancel_hash=%00`,
      ]) {
        const response = await fetchAs(HOST, `${prefix}${path}`);
        expect(response.status, path).toBe(404);
        const body = await refusal(response);
        expect(body.success).toBe(false);
        expect(body.msg.code).toBe("order_not_found");
        expect(body.msg.message).toBe(words["proof.error.not_found"]);
      }
      // Step one is a GET: any other method is told so.
      for (const method of ["POST", "PUT", "DELETE"]) {
        const response = await fetchAs(HOST, `${prefix}/hxa/download/download-accommodation-proof/${doc}`, { method, body: "x" });
        expect(response.status, method).toBe(405);
        expect(response.headers.get("allow")).toBe("GET");
        expect((await refusal(response)).msg.message).toBe(words["proof.error.method"]);
      }
    },
  );

  it("says it in five different languages", () => {
    const said = new Set(LANGS.map(({ words }) => words["proof.error.forbidden"]));
    expect(said.size).toBe(5);
  });
});

describe("an unchanged order's PDF (issue 26)", () => {
  it("is served again from the cache without being built; a cancelled order's is built afresh; no proof, no PDF", async () => {
    const checkIn = addDays(today, 38);
    const created = await placeOrder(checkIn);
    const { order_doc: doc, order } = created.body.data;
    const link = `/en-US/hxa/orders/${doc}/confirmation.pdf?valid_hash=${encodeURIComponent(order.valid_hash)}`;
    const first = await fetchAs(HOST, link);
    expect(first.headers.get("x-pdf-cache")).toBe("MISS");
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    const again = await fetchAs(HOST, link);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-pdf-cache")).toBe("HIT");
    // Byte for byte the first one: a rebuilt PDF differs at least in its fonts' random subset tags.
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(firstBytes);
    // The cached copy is never an answer to a request that did not prove access.
    expect((await fetchAs(HOST, `/en-US/hxa/orders/${doc}/confirmation.pdf`)).status).toBe(404);
    expect((await fetchAs(OTHER, link)).status).toBe(404);
    // Another language is another document.
    const japanese = await fetchAs(HOST, link.replace("/en-US/", "/ja-JP/"));
    expect(japanese.headers.get("x-pdf-cache")).toBe("MISS");

    const browser = new Browser(HOST);
    const cancelPath = `/en-US/hxa/orders/${doc}/cancel?cancel_hash=${encodeURIComponent(order.cancel_hash)}`;
    const shown = await browser.request(cancelPath);
    expect((await browser.request(cancelPath, { csrf: hidden(shown.html, "csrf"), reason: "plans changed" })).status).toBe(303);
    const cancelled = await fetchAs(HOST, link);
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get("x-pdf-cache")).toBe("MISS");
    expect(new Uint8Array(await cancelled.arrayBuffer())).not.toEqual(firstBytes);
    expect((await fetchAs(HOST, link)).headers.get("x-pdf-cache")).toBe("HIT");
  });
});

describe("the member's order page", () => {
  it("shows the member's own order without a link, cancels it from the page, and shows nothing of another member's", async () => {
    const signIn = async (email: string) => {
      await env.DB.prepare("INSERT INTO members (hotel_id, email, first_name, points) VALUES (?, ?, 'Mei', 100)")
        .bind(hotelId, email)
        .run();
      const row = await env.DB.prepare("SELECT id FROM members WHERE hotel_id = ? AND email = ?")
        .bind(hotelId, email)
        .first<{ id: number }>();
      const token = await issueMemberToken(env.DB, row?.id ?? 0);
      const cookie = await memberSessionCookie(parseEnv(env as unknown as Record<string, unknown>)).serialize({ domain: HOST, token });
      return { token, browser: new Browser(HOST, [cookie]) };
    };
    const owner = await signIn("owner@example.com");
    const stranger = await signIn("stranger@example.com");
    const checkIn = addDays(today, 38);
    // Booked as the member (the site's API client sends the member's token as a bearer token).
    const placed = await placeOrder(checkIn, { orders: [{ room_class_id: roomClassId, proposal_id: planId, num: 1 }] }, "en-US", {
      authorization: `Bearer ${owner.token}`,
    });
    expect(placed.status).toBe(201);
    const doc = placed.body.data.order_doc;
    const taken = await booked(checkIn);

    const page = await owner.browser.request(`/en-US/hxa/orders/${doc}`);
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain(`Booking ${doc}`);
    // The member's links need no hash.
    expect(page.html).toContain(`href="/en-US/hxa/orders/${doc}/cancel"`);
    expect(page.html).toMatch(/<meta name="robots" content="noindex"\/?>/);
    expect((await stranger.browser.request(`/en-US/hxa/orders/${doc}`)).status).toBe(404);
    expect((await stranger.browser.request(`/en-US/hxa/orders/${doc}/cancel`)).status).toBe(404);

    const cancelPage = await owner.browser.request(`/en-US/hxa/orders/${doc}/cancel`);
    expect(await booked(checkIn)).toBe(taken);
    const done = await owner.browser.request(`/en-US/hxa/orders/${doc}/cancel`, { csrf: hidden(cancelPage.html, "csrf") });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/en-US/hxa/orders/${doc}?cancelled=1`);
    expect(await booked(checkIn)).toBe(taken - 1);
  });
});
