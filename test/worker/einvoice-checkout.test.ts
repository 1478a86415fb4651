import { env } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { issueMemberToken } from "~/backend/account/members.server";
import { runInvoiceQueue } from "~/backend/einvoice/runner.server";
import type { EinvoiceDeps } from "~/backend/einvoice/registry.server";
import { deliverMail } from "~/backend/mail/deliver.server";
import { resendMailer } from "~/backend/mail/transports.server";
import { markOrderPaid } from "~/backend/payments/settle.server";
import { addDays, todayIn } from "~/domain/dates";
import { memberSessionCookie } from "~/platform/cookies.server";
import { parseEnv, type AppEnv } from "~/platform/env.server";
import { createLogger } from "~/platform/log.server";
import { Browser, apiJson, checkoutFields, fetchAs, fixtureHotel, hidden, loadHotel, setAsideOtherHotelsMail, text } from "./helpers";

/**
 * The guest's side of the e-invoice (issue 41, decision 159): the checkout's invoice section as a
 * browser without JavaScript uses it (GET pages, POST forms, cookies) against the real Worker and
 * D1, the choice stored on the order's invoice row, the refusals beside their fields, a member's
 * choice remembered; then, once the sandbox has issued (the queue's runner called as the Cron will),
 * the number on the order page, in the email and its PDF, and the master order's invoice_numbers.
 */
const AT_PAYMENT = "einvguest.localhost";
const AT_CHECKOUT = "einvguestout.localhost";
const OWN_SYSTEM = "einvguestown.localhost";
const today = todayIn("Asia/Taipei");

const deps: EinvoiceDeps = {
  db: env.DB,
  secret: () => undefined,
  fetcher: () => Promise.reject(new Error("no network in this test")),
  testGateway: true,
};

let memberId = 0;

beforeAll(async () => {
  const issuers = { [AT_PAYMENT]: "portico_at_payment", [AT_CHECKOUT]: "portico_at_checkout", [OWN_SYSTEM]: "hotel_system" } as const;
  for (const [domain, issuer] of Object.entries(issuers)) {
    await loadHotel(
      fixtureHotel(domain, (file) => {
        (file as { invoicing?: unknown }).invoicing = { issuer, provider: "sandbox", seller_tax_id: "04595257" };
        // Nights enough for a stay of its own for every booking of the file.
        file.inventory.months = 6;
        file.hotel.support_lang = ["zh-TW", "en-US", "ja-JP"];
        for (const room of file.room_classes) room.total_rooms = 20;
        Object.assign(file, {
          members: [{ email: "mei@example.com", first_name: "Mei", last_name: "Lin", phone: "0912 345 678", points: 0 }],
        });
      }),
    );
  }
  const row = await env.DB.prepare("SELECT m.id FROM members m JOIN hotels h ON h.id = m.hotel_id WHERE h.domain = ?")
    .bind(AT_PAYMENT)
    .first<{ id: number }>();
  memberId = row?.id ?? 0;
});

let nextDay = 60;
/** A browser at `host` with one room for a night of its own in the cart, at the checkout page in `lang`. */
async function atCheckout(host: string, lang = "en-US", cookies: string[] = []) {
  nextDay += 1;
  const stay = `start=${addDays(today, nextDay)}&end=${addDays(today, nextDay + 1)}&adults=2`;
  const browser = new Browser(host, cookies);
  // The hotel's main language has no prefix.
  const at = lang === "zh-TW" ? "" : `/${lang}`;
  const page = await browser.request(`${at}/hxa/booking?${stay}`);
  const added = await browser.request(`${at}/hxa/booking?${stay}`, {
    csrf: hidden(page.html, "csrf"),
    intent: "add",
    room_class_id: hidden(page.html, "room_class_id"),
    proposal_id: hidden(page.html, "proposal_id"),
    num: "1",
  });
  expect(added.status, `${page.status} ${text(added.html).match(/.{0,100}(alert|error|expired|Please)[^.]{0,200}/i)?.[0] ?? ""}`).toBe(303);
  const checkout = await browser.request(`${at}/hxa/checkout?${stay}`);
  expect(checkout.status).toBe(200);
  const place = (fields: Record<string, string>) =>
    browser.request(
      `${at}/hxa/checkout?${stay}`,
      checkoutFields(checkout.html, {
        booker_email: "mei@example.com",
        payment: "8:remittance",
        intent: "order",
        // Placed at the amount the page shows as due now (decision 065).
        due_now: hidden(checkout.html, "due_now"),
        ...fields,
      }),
    );
  return { browser, html: checkout.html, place, at };
}

const counts = async (host: string) =>
  env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?1) AS orders,
            (SELECT COUNT(*) FROM order_invoices i JOIN hotels h ON h.id = i.hotel_id WHERE h.domain = ?1) AS invoices,
            (SELECT COUNT(*) FROM member_invoice_choices) AS remembered`,
  )
    .bind(host)
    .first<{ orders: number; invoices: number; remembered: number }>();

/** The newest order of the hotel: its company fields and its invoice row's issuer and buyer. */
const newestOrder = (host: string) =>
  env.DB.prepare(
    `SELECT o.id, o.order_doc, o.company_reg_number, o.company_name, i.issuer, i.buyer, i.status FROM orders o
     JOIN hotels h ON h.id = o.hotel_id LEFT JOIN order_invoices i ON i.order_id = o.id WHERE h.domain = ? ORDER BY o.id DESC LIMIT 1`,
  )
    .bind(host)
    .first<{
      id: number;
      order_doc: string;
      company_reg_number: string;
      company_name: string;
      issuer: string | null;
      buyer: string | null;
      status: string | null;
    }>();

/** The message beside a field, as the page shows it. */
const errorOf = (html: string, field: string) =>
  new RegExp(`id="${field}-error">([^<]*)<`).exec(html)?.[1]?.replace(/&#x27;/g, "'") ?? null;
/** What a text field of the page holds. */
const valueOf = (html: string, field: string) =>
  new RegExp(`<input[^>]*name="${field}"[^>]*>`).exec(html)?.[0].match(/value="([^"]*)"/)?.[1] ?? "";

describe("the checkout's invoice section", () => {
  it("is asked where Portico issues, says when it is issued at check-out, and is absent where the hotel's own system issues", async () => {
    const atPayment = await atCheckout(AT_PAYMENT);
    expect(text(atPayment.html)).toContain("E-invoice The hotel issues a Taiwan e-invoice for your stay. Choose how to receive it.");
    expect(text(atPayment.html)).not.toContain("It is issued at check-out.");
    // Without JavaScript every kind's fields are on the page, the member carrier chosen.
    for (const name of ["mobile_barcode", "citizen_certificate", "love_code", "company_reg_number", "company_name", "company_address"])
      expect(atPayment.html).toContain(`name="${name}"`);
    expect(atPayment.html).toMatch(/<input type="radio" name="invoice_kind" checked="" value="carrier"/);
    expect(atPayment.html).toMatch(/<input type="radio" name="carrier_kind" checked="" value="member"/);

    const zh = await atCheckout(AT_CHECKOUT, "zh-TW");
    const words = text(zh.html);
    expect(words).toContain("發票將於退房時開立。");
    for (const term of ["手機條碼載具", "自然人憑證條碼", "捐贈碼", "統一編號", "公司抬頭"]) expect(words).toContain(term);

    const own = await atCheckout(OWN_SYSTEM);
    expect(own.html).not.toContain('name="invoice_kind"');
    // The booker's company fields stay, for the hotel's own system.
    expect(own.html).toContain('name="company_reg_number"');
  });

  it("stores each kind of buyer's choice on the order's invoice row, the company's on the order's own fields", async () => {
    const cases: [Record<string, string>, Record<string, string>, { reg: string; name: string }][] = [
      [{}, { kind: "carrier", carrier: "member", code: "", email: "mei@example.com" }, { reg: "", name: "" }],
      [
        { invoice_kind: "carrier", carrier_kind: "mobile", mobile_barcode: " /abc+12.", citizen_certificate: "" },
        { kind: "carrier", carrier: "mobile", code: "/ABC+12.", email: "mei@example.com" },
        { reg: "", name: "" },
      ],
      [
        { invoice_kind: "carrier", carrier_kind: "citizen", citizen_certificate: "ab12345678901234" },
        { kind: "carrier", carrier: "citizen", code: "AB12345678901234", email: "mei@example.com" },
        { reg: "", name: "" },
      ],
      [
        { invoice_kind: "donation", love_code: "919" },
        { kind: "donation", loveCode: "919", email: "mei@example.com" },
        { reg: "", name: "" },
      ],
      [
        // Full-width digits and a hyphen, as a Taiwanese keyboard may type them. (A number the
        // sandbox's registry has no name for: "no data", decision 168.)
        {
          invoice_kind: "company",
          company_reg_number: "１２３４-５６７５",
          company_name: " Portico 股份有限公司 ",
          company_address: "台北市信義區 1 號",
        },
        {
          kind: "company",
          taxId: "12345675",
          companyName: "Portico 股份有限公司",
          companyAddress: "台北市信義區 1 號",
          email: "mei@example.com",
        },
        { reg: "12345675", name: "Portico 股份有限公司" },
      ],
    ];
    for (const [fields, buyer, company] of cases) {
      const checkout = await atCheckout(AT_PAYMENT);
      const placed = await checkout.place({ invoice_kind: "carrier", carrier_kind: "member", ...fields });
      expect(placed.status, `${JSON.stringify(fields)}: ${errorOf(placed.html, "company_reg_number")}`).toBe(303);
      const order = await newestOrder(AT_PAYMENT);
      expect(order?.issuer).toBe("portico_at_payment");
      expect(order?.status).toBe("none");
      expect(JSON.parse(order?.buyer ?? "{}")).toEqual(buyer);
      expect({ reg: order?.company_reg_number, name: order?.company_name }).toEqual(company);
    }
    // Nothing is queued before a payment: the settlement queues it (decision 159).
    const queued = await env.DB.prepare("SELECT COUNT(*) AS n FROM einvoice_queue q JOIN hotels h ON h.id = q.hotel_id WHERE h.domain = ?")
      .bind(AT_PAYMENT)
      .first<number>("n");
    expect(queued).toBe(0);
  });

  const wrong: [string, Record<string, string>, string, { "en-US": string; "zh-TW": string }][] = [
    [
      "a mobile barcode without its slash",
      { invoice_kind: "carrier", carrier_kind: "mobile", mobile_barcode: "ABC1234" },
      "mobile_barcode",
      {
        "en-US": "A mobile barcode is / followed by 7 characters: digits, capital letters, + - or .",
        "zh-TW": "手機條碼為 / 加 7 碼（數字、大寫英文字母、+、-、.）",
      },
    ],
    [
      "a citizen certificate too short",
      { invoice_kind: "carrier", carrier_kind: "citizen", citizen_certificate: "AB1234" },
      "citizen_certificate",
      {
        "en-US": "A citizen certificate barcode is 2 capital letters and 14 digits",
        "zh-TW": "自然人憑證條碼為 2 碼大寫英文字母加 14 碼數字",
      },
    ],
    [
      "a donation code of two digits",
      { invoice_kind: "donation", love_code: "12" },
      "love_code",
      { "en-US": "A donation code is 3 to 7 digits", "zh-TW": "捐贈碼為 3 至 7 碼數字" },
    ],
    [
      "a 統一編號 failing its checksum",
      { invoice_kind: "company", company_reg_number: "12345678", company_name: "Portico", company_address: "Taipei" },
      "company_reg_number",
      { "en-US": "This tax ID number does not exist: check its digits", "zh-TW": "統一編號有誤，請檢查號碼" },
    ],
    [
      "a 統一編號 of seven digits",
      { invoice_kind: "company", company_reg_number: "1234567", company_name: "Portico", company_address: "Taipei" },
      "company_reg_number",
      { "en-US": "A tax ID number (統一編號) is 8 digits", "zh-TW": "統一編號為 8 碼數字" },
    ],
    [
      "a company without its name",
      { invoice_kind: "company", company_reg_number: "04595257", company_name: " ", company_address: "Taipei" },
      "company_name",
      { "en-US": "Enter the company name for the invoice", "zh-TW": "請填寫公司抬頭" },
    ],
    [
      "a company without its address",
      { invoice_kind: "company", company_reg_number: "04595257", company_name: "Portico", company_address: "" },
      "company_address",
      { "en-US": "Enter the company's address: it is printed on the invoice", "zh-TW": "請填寫公司地址（列印於發票證明聯）" },
    ],
    [
      "a 統一編號 left typed under a cloud carrier",
      { invoice_kind: "carrier", carrier_kind: "member", company_reg_number: "04595257" },
      "company_reg_number",
      {
        "en-US": "A tax ID number is only for a company invoice: choose company invoice, or leave it empty",
        "zh-TW": "統一編號僅用於公司發票：請選擇公司發票，或清空此欄",
      },
    ],
    [
      "a donation code left typed under a company invoice",
      { invoice_kind: "company", company_reg_number: "04595257", company_name: "Portico", company_address: "Taipei", love_code: "919" },
      "love_code",
      {
        "en-US": "A donation code is only for a donated invoice: choose donation, or leave it empty",
        "zh-TW": "捐贈碼僅用於捐贈發票：請選擇捐贈發票，或清空此欄",
      },
    ],
    [
      "no kind of invoice",
      { invoice_kind: "paper" },
      "invoice_kind",
      { "en-US": "Choose how to receive the invoice", "zh-TW": "請選擇發票類型" },
    ],
  ];
  for (const lang of ["en-US", "zh-TW"] as const) {
    it.each(wrong)(
      `${lang}: %s is refused beside its field, keeps what was typed, and writes nothing`,
      async (_what, fields, field, messages) => {
        const checkout = await atCheckout(AT_PAYMENT, lang);
        const before = await counts(AT_PAYMENT);
        const refused = await checkout.place({ memo: "late arrival", ...fields });
        expect(refused.status).toBe(400);
        expect(errorOf(refused.html, field)).toBe(messages[lang]);
        expect(refused.html).toContain(`aria-describedby="${field}-error"`);
        // The other fields keep what was typed.
        expect(valueOf(refused.html, "booker_last_name")).toBe("Chen");
        expect(refused.html).toMatch(/<textarea[^>]*name="memo"[^>]*>late arrival<\/textarea>/);
        const typed = fields[field];
        if (typed && field !== "invoice_kind") expect(valueOf(refused.html, field)).toBe(typed);
        expect(await counts(AT_PAYMENT)).toEqual(before);
      },
    );
  }

  it("the order API refuses a forged choice the checkout would refuse, and writes nothing", async () => {
    const before = await counts(AT_PAYMENT);
    const refs = await env.DB.prepare(
      `SELECT (SELECT id FROM room_classes WHERE hotel_id = h.id LIMIT 1) AS room, (SELECT id FROM rate_plans WHERE hotel_id = h.id LIMIT 1) AS plan
       FROM hotels h WHERE domain = ?`,
    )
      .bind(AT_PAYMENT)
      .first<{ room: number; plan: number }>();
    const refused = await apiJson(AT_PAYMENT, "/api/ota/order/personal-new?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain: AT_PAYMENT,
        booker_first_name: "Mei",
        booker_last_name: "Lin",
        booker_phone: "0912345678",
        booker_email: "mei@example.com",
        check_in_day: addDays(today, 90),
        check_out_day: addDays(today, 91),
        pay_way: "remittance",
        payment_vendor: 8,
        adults_count: 2,
        orders: [{ room_class_id: refs?.room, proposal_id: refs?.plan, num: 1 }],
        company_reg_number: "12345678",
        company_name: "Portico",
        invoice: { kind: "company", company_address: "Taipei" },
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg.code).toBe("invalid_field");
    expect(refused.body.msg.extrainfo?.field).toBe("company_reg_number");
    expect(await counts(AT_PAYMENT)).toEqual(before);
  });
});

describe("a member's invoice choice", () => {
  it("is remembered with the booking and offered again at the next checkout", async () => {
    const token = await issueMemberToken(env.DB, memberId);
    const cookie = await memberSessionCookie(env as unknown as AppEnv).serialize({ domain: AT_PAYMENT, token });
    const first = await atCheckout(AT_PAYMENT, "en-US", [cookie]);
    // Nothing remembered yet: the member carrier, the company fields empty.
    expect(valueOf(first.html, "company_reg_number")).toBe("");
    const placed = await first.place({
      booker_last_name: "Lin",
      booker_first_name: "Mei",
      invoice_kind: "company",
      company_reg_number: "12345675",
      company_name: "Lin Trading",
      company_address: "Taichung",
    });
    expect(placed.status).toBe(303);
    const remembered = await env.DB.prepare("SELECT choice FROM member_invoice_choices WHERE member_id = ?")
      .bind(memberId)
      .first<string>("choice");
    expect(JSON.parse(remembered ?? "{}")).toMatchObject({ kind: "company", taxId: "12345675", companyName: "Lin Trading" });

    const again = await atCheckout(AT_PAYMENT, "en-US", [cookie]);
    expect(again.html).toMatch(/<input type="radio" name="invoice_kind" checked="" value="company"/);
    expect(valueOf(again.html, "company_reg_number")).toBe("12345675");
    expect(valueOf(again.html, "company_name")).toBe("Lin Trading");
    expect(valueOf(again.html, "company_address")).toBe("Taichung");
    // A guest who is not signed in is offered nothing of it.
    const guest = await atCheckout(AT_PAYMENT);
    expect(valueOf(guest.html, "company_reg_number")).toBe("");
  });
});

/** A PDF's text as pdftotext reads it, spaces squeezed. */
async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const response = await fetch(inject("pdfText"), { method: "POST", body: bytes });
  const said = await response.text();
  expect(response.status, said).toBe(200);
  return said.replace(/[ \t]+/g, " ");
}

/** The messages delivered now (through the real Resend adapter, its provider faked): subject, text and the PDF attached. */
async function deliverNow(): Promise<{ subject: string; text: string; attachments?: { content: string }[] }[]> {
  const sent: { subject: string; text: string; attachments?: { content: string }[] }[] = [];
  const fakeFetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(JSON.parse(String(init?.body)));
    return Response.json({ id: "re_1" });
  }) as typeof fetch;
  const appEnv = { ...parseEnv(env as unknown as Record<string, unknown>), MAIL_FROM: "Hotel <stay@example.com>" };
  await setAsideOtherHotelsMail(AT_PAYMENT, AT_CHECKOUT, OWN_SYSTEM);
  await deliverMail(appEnv, createLogger("test"), { mailer: resendMailer("re_test_key", fakeFetch), limit: 50 });
  return sent;
}

describe("the guest sees the invoice", () => {
  it("the order page says when it is issued, then, once the sandbox issued it, its number on the page, in the email, in the PDF and the master order", async () => {
    const checkout = await atCheckout(AT_PAYMENT);
    const placed = await checkout.place({ invoice_kind: "carrier", carrier_kind: "mobile", mobile_barcode: "/ABC1234" });
    expect(placed.status).toBe(303);
    const order = await newestOrder(AT_PAYMENT);
    if (!order) throw new Error("no order");
    // The view link the receipt page was reached with.
    const hash = new URL(placed.location ?? "", "http://x").searchParams.get("valid_hash") ?? "";
    const orderPage = async () =>
      text(await (await fetchAs(AT_PAYMENT, `/en-US/hxa/orders/${order.order_doc}?valid_hash=${encodeURIComponent(hash)}`)).text());
    const unpaid = await orderPage();
    expect(unpaid).toContain("E-invoice Issued once the booking is paid Sent as Cloud invoice, mobile barcode /ABC1234");
    // The messages of the booking so far go out now (the confirmation, and the hotel's).
    await deliverNow();

    // Paid by bank transfer, recorded as every payment is (markOrderPaid): the invoice is queued.
    const amount = await env.DB.prepare("SELECT pay_amount FROM orders WHERE id = ?").bind(order.id).first<number>("pay_amount");
    await env.DB.prepare(
      "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 8, 'sandbox', ?, ?, 'full')",
    )
      .bind(order.id, `EINVG${order.id}`, amount)
      .run();
    const payment = await env.DB.prepare("SELECT id, order_id, amount FROM payments WHERE trade_no = ?")
      .bind(`EINVG${order.id}`)
      .first<{ id: number; order_id: number; amount: number }>();
    if (!payment) throw new Error("no payment");
    await markOrderPaid(env.DB, createLogger("test"), payment, "GEINVG", { origin: `http://${AT_PAYMENT}`, product: "hxa" });
    expect(await orderPage()).toContain("E-invoice Being issued: the number will show on your booking page");

    // The queue's runner (the Cron pass) issues it through the sandbox.
    await runInvoiceQueue(deps);
    const issued = await env.DB.prepare("SELECT number, random_number, amount, issued_on FROM order_invoices WHERE order_id = ?")
      .bind(order.id)
      .first<{ number: string; random_number: string; amount: number; issued_on: string }>();
    expect(issued?.number).toMatch(/^TS\d{8}$/);
    expect(issued?.random_number).toMatch(/^\d{4}$/);
    expect(issued?.amount).toBe(amount);
    const numberLine = `${issued?.number} · random number ${issued?.random_number} · NT$${(amount ?? 0).toLocaleString("en-US")}`;
    const paidPage = await orderPage();
    expect(paidPage).toContain(`E-invoice Invoice number ${numberLine}`);
    expect(paidPage).toContain("Sent as Cloud invoice, mobile barcode /ABC1234");

    // The paid receipt, composed after the invoice was issued, and its confirmation PDF.
    const sent = await deliverNow();
    const receipt = sent.find((message) => message.subject.includes(order.order_doc));
    expect(receipt?.text).toContain(`Invoice number: ${numberLine}`);
    const pdfResponse = await fetchAs(
      AT_PAYMENT,
      `/en-US/hxa/orders/${order.order_doc}/confirmation.pdf?valid_hash=${encodeURIComponent(hash)}`,
    );
    expect(pdfResponse.status).toBe(200);
    const pdf = await pdfText(await pdfResponse.arrayBuffer());
    expect(pdf).toContain(issued?.number ?? "-");
    expect(pdf).toContain(`random number ${issued?.random_number}`);

    // The master-system order: "number-random", split at the hyphen (spec §3).
    const master = await apiJson<{ booking: { invoice_numbers: unknown[] }; invoices: unknown[] }>(
      AT_PAYMENT,
      `/api/order/master/${order.order_doc}?domain=${AT_PAYMENT}&lang=en-US&valid_hash=${encodeURIComponent(hash)}`,
    );
    expect(master.status).toBe(200);
    expect(master.body.data.booking.invoice_numbers).toEqual([{ number: issued?.number, random_number: issued?.random_number }]);
  });

  it("at check-out and by the hotel's own system, the page says so in the guest's language", async () => {
    for (const [host, lang, said] of [
      [AT_CHECKOUT, "zh-TW", "電子發票 於退房時開立"],
      [AT_CHECKOUT, "en-US", "E-invoice Issued at check-out"],
      [OWN_SYSTEM, "ja-JP", "電子発票 ホテルが発行します"],
    ] as const) {
      const checkout = await atCheckout(host, lang);
      const placed = await checkout.place(host === OWN_SYSTEM ? {} : { invoice_kind: "donation", love_code: "919" });
      expect(placed.status).toBe(303);
      const order = await newestOrder(host);
      const hash = new URL(placed.location ?? "", "http://x").searchParams.get("valid_hash") ?? "";
      const page = text(
        await (await fetchAs(host, `${checkout.at}/hxa/orders/${order?.order_doc}?valid_hash=${encodeURIComponent(hash)}`)).text(),
      );
      expect(page).toContain(said);
    }
  });
});
