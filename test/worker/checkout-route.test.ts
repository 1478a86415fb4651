import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { cartCookie } from "~/platform/cookies.server";
import { parseEnv } from "~/platform/env.server";
import { handleFetch } from "~/worker/worker.server";
import * as checkoutRoute from "~/routes/($lang).$product.checkout";
import en from "../../locales/en-US/common.json";
import jaApi from "../../locales/ja-JP/api.json";
import ja from "../../locales/ja-JP/common.json";
import { fixtureHotel, fixtureIds, fixtureNightPrice, loadHotel } from "./helpers";

/**
 * The checkout's loader and action called as functions, without a browser and without Remix's
 * request handler (decision 146): a real Request (form data, cookies) goes through the Worker's own
 * pipeline (handleFetch), which builds the load context as it does for every request (the D1 of
 * this pool, the built-in back end in process); in place of Remix, the route module's exported
 * `loader` or `action` is called with that context. What the export answered is checked as the
 * guest would meet it: where they are sent, the messages in their language, and the orders written.
 */
const HOST = "checkout-route.localhost";
const today = todayIn("Asia/Taipei");
const START = addDays(today, 20);
const END = addDays(today, 22);
const STAY = `start=${START}&end=${END}&adults=2`;
// The fixture's double room, two nights of its BAR plan as docs/hotel-file.md prices them.
const TOTAL = fixtureNightPrice(START) + fixtureNightPrice(addDays(START, 1));

type RouteExport = (args: LoaderFunctionArgs & ActionFunctionArgs) => Promise<unknown>;

/** What a route export gave back: a value (Remix's `data()`: body and status) or a thrown Response (a redirect). */
interface Answer {
  status: number;
  /** The body of a `data()` answer. */
  data: Record<string, unknown> | null;
  /** A redirect's target. */
  location: string | null;
  /** The Set-Cookie headers the Worker sent with it. */
  cookies: string[];
}

/** `data(body, init)` of Remix: the body with its response init. */
function isDataWithInit(value: unknown): value is { data: Record<string, unknown>; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && "data" in value && "init" in value;
}

/**
 * Sends `request` through the Worker's pipeline; where the Worker hands the request and its load
 * context to Remix, the route's export is called instead, as Remix would call it.
 */
async function callRoute(routeExport: RouteExport, request: Request, lang = "en-US"): Promise<Answer> {
  let data: Record<string, unknown> | null = null;
  const ctx = createExecutionContext();
  const response = await handleFetch(
    request,
    env as unknown as Record<string, unknown>,
    ctx,
    async (siteRequest: Request, context: AppLoadContext) => {
      try {
        const value = await routeExport({ request: siteRequest, context, params: { lang, product: "hxa" } });
        if (value instanceof Response) return value;
        if (!isDataWithInit(value)) throw new Error(`the route answered neither data() nor a Response: ${JSON.stringify(value)}`);
        data = value.data;
        return new Response(null, { status: value.init?.status ?? 200, headers: value.init?.headers });
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    },
    "test-build",
  );
  await waitOnExecutionContext(ctx);
  await response.body?.cancel();
  return { status: response.status, data, location: response.headers.get("location"), cookies: response.headers.getSetCookie() };
}

/** A browser's cookies for this host: what the Worker sets is kept and sent back. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const checkoutUrl = (lang: string) => `http://${HOST}/${lang}/hxa/checkout?${STAY}`;

/** A guest who chose one double room for the stay: the cart cookie the booking page leaves (signed with the Worker's secret). */
async function guestWithCart(): Promise<CookieJar> {
  const ids = await fixtureIds(HOST);
  const cart = await cartCookie(parseEnv(env as unknown as Record<string, unknown>)).serialize({
    domain: HOST,
    start: START,
    end: END,
    lines: [{ room_class_id: ids.room, proposal_id: ids.BAR, num: 1 }],
    checkoutKey: crypto.randomUUID(),
  });
  const jar = new CookieJar();
  jar.keep([cart]);
  return jar;
}

/** The guest opens the checkout (its loader): the page's data, and its cookies kept. */
async function openCheckout(jar: CookieJar, lang = "en-US") {
  const answer = await callRoute(checkoutRoute.loader, new Request(checkoutUrl(lang), { headers: { cookie: jar.header() } }), lang);
  jar.keep(answer.cookies);
  return answer;
}

/** The form as the page sends it: its CSRF token and checkout key, a booker, a way of paying, the amount shown due. */
async function filledForm(jar: CookieJar, lang = "en-US", fields: Record<string, string> = {}): Promise<Record<string, string>> {
  const page = await openCheckout(jar, lang);
  expect(page.status).toBe(200);
  const price = page.data?.price as { pay_amount: number } | null;
  return {
    csrf: String(page.data?.csrf),
    checkout_key: String(page.data?.checkoutKey),
    due_now: String(price?.pay_amount),
    intent: "order",
    booker_last_name: "Chen",
    booker_first_name: "Yi",
    booker_phone: "0912345678",
    booker_email: "yi@example.com",
    pay_option: "all",
    payment: "1:credit",
    ...fields,
  };
}

/** The guest places the booking (the action), from this browser, with `headers` besides its cookies. */
async function place(jar: CookieJar, form: Record<string, string>, lang = "en-US", headers: Record<string, string> = {}) {
  const request = new Request(checkoutUrl(lang), {
    method: "POST",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  const answer = await callRoute(checkoutRoute.action, request, lang);
  jar.keep(answer.cookies);
  return answer;
}

/** A redirect to the booking page of this stay. */
function expectBookingPage(location: string | null) {
  const url = new URL(location ?? "", `http://${HOST}`);
  expect(url.host).toBe(HOST);
  expect(url.pathname).toBe("/en-US/hxa/booking");
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ start: START, end: END, adults: "2" });
}

/** A signed cookie's value with one character of its payload changed, its signature kept. */
function editedCookie(value: string): string {
  const raw = decodeURIComponent(value);
  const at = 8;
  return encodeURIComponent(`${raw.slice(0, at)}${raw[at] === "A" ? "B" : "A"}${raw.slice(at + 1)}`);
}

const orders = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ?")
    .bind(HOST)
    .first<number>("n")) ?? 0;

beforeAll(async () => {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      const hotel = file.hotel as Record<string, unknown>;
      hotel.support_lang = ["zh-TW", "en-US", "ja-JP"];
      hotel.payment_list = [
        { vendor_id: 1, method: "credit" },
        { vendor_id: 8, method: "remittance" },
      ];
      hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "2000132" }];
      // Every test books the same stay.
      file.room_classes[0]!.total_rooms = 10;
    }),
  );
});

describe("the checkout's loader", () => {
  it("shows a guest with a room chosen the price of the stay, from the fixture's nightly prices", async () => {
    const page = await openCheckout(await guestWithCart());
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ title: "Checkout | Fixture Hotel", stay: { start: START, end: END, adults: 2 }, priceError: null });
    expect(page.data?.price).toMatchObject({ total_price: TOTAL, pay_amount: TOTAL });
    expect(String(page.data?.csrf)).toMatch(/\S{16,}/);
  });

  it("sends a guest with nothing chosen back to the booking page", async () => {
    const page = await openCheckout(new CookieJar());
    expect(page.status).toBe(303);
    expectBookingPage(page.location);
  });
});

describe("the checkout's action", () => {
  it("books a valid form, takes the guest to the pay page of the new order, empties the cart, and books once when sent again", async () => {
    const jar = await guestWithCart();
    const form = await filledForm(jar);
    const before = await orders();
    const placed = await place(jar, form);
    expect(placed.status).toBe(303);
    const order = await env.DB.prepare(
      "SELECT o.order_doc, o.hotel_id, o.booker_last_name, o.pay_amount FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE h.domain = ? ORDER BY o.id DESC",
    )
      .bind(HOST)
      .first<{ order_doc: string; hotel_id: number; booker_last_name: string; pay_amount: number }>();
    expect(await orders()).toBe(before + 1);
    expect(order).toMatchObject({ booker_last_name: "Chen", pay_amount: TOTAL });
    expect(placed.location).toMatch(new RegExp(`^/en-US/pay/${order?.hotel_id}/${order?.order_doc}\\?valid_hash=`));
    expect(jar.has("cart")).toBe(false);
    // The back button and the same form again: the order already made, not a second one.
    const again = await place(jar, form);
    expect(again.status).toBe(303);
    expect(again.location).toBe(placed.location);
    expect(await orders()).toBe(before + 1);
  });

  it("answers a missing name and a bad email with the form again, the guest's Japanese messages at their fields, and books nothing", async () => {
    const jar = await guestWithCart();
    const form = await filledForm(jar, "ja-JP", { booker_last_name: "", booker_email: "yi-at-example" });
    const before = await orders();
    const refused = await place(jar, form, "ja-JP");
    expect(refused.status).toBe(400);
    const { fieldErrors, formError, values } = refused.data as {
      fieldErrors: Record<string, keyof typeof ja>;
      formError: keyof typeof ja;
      values: Record<string, string>;
    };
    // The page shows these keys through the ja-JP catalogue: what the guest reads.
    expect(ja[formError]).toBe("下記の項目を修正してください。");
    expect(fieldErrors.booker_last_name && ja[fieldErrors.booker_last_name]).toBe("必須項目です");
    expect(fieldErrors.booker_email && ja[fieldErrors.booker_email]).toBe("有効なメールアドレスを入力してください");
    // What was typed is kept (the CSRF token is not sent back).
    expect(values).toMatchObject({ booker_first_name: "Yi", booker_email: "yi-at-example", payment: "1:credit" });
    expect(values).not.toHaveProperty("csrf");
    expect(await orders()).toBe(before);
  });

  it("answers a form placed at an amount no longer due with the price-changed message and the amount now, and books nothing", async () => {
    const jar = await guestWithCart();
    const form = await filledForm(jar, "en-US", { due_now: String(TOTAL - 500) });
    const before = await orders();
    const stale = await place(jar, form);
    expect(stale.status).toBe(409);
    expect(en[stale.data?.formError as keyof typeof en]).toBe(
      "The amount due now has changed for what you chose. Please check it below, then place the booking again.",
    );
    expect(stale.data?.price).toMatchObject({ pay_amount: TOTAL });
    expect(await orders()).toBe(before);
    // Placed again at the amount now shown, it books.
    const placed = await place(jar, { ...form, due_now: String(TOTAL) });
    expect(placed.status).toBe(303);
    expect(await orders()).toBe(before + 1);
  });

  it("refuses a form without this browser's CSRF token, or sent from another site, and books nothing", async () => {
    const jar = await guestWithCart();
    const form = await filledForm(jar);
    const before = await orders();
    const expired = "This page has expired: reload it and try again.";
    // Another browser's token (its own page), with this browser's cookies.
    const other = await filledForm(await guestWithCart());
    const foreignToken = await place(jar, { ...form, csrf: other.csrf ?? "" });
    expect(foreignToken.status).toBe(403);
    expect(en[foreignToken.data?.formError as keyof typeof en]).toBe(expired);
    // No token at all.
    const { csrf: _dropped, ...withoutToken } = form;
    expect((await place(jar, withoutToken)).status).toBe(403);
    // The right token, from a page of another site (its Origin): the Worker marks it cross-site.
    const crossSite = await place(jar, form, "en-US", { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(en[crossSite.data?.formError as keyof typeof en]).toBe(expired);
    expect(await orders()).toBe(before);
    // The same form from this site still books: the refusals changed nothing.
    expect((await place(jar, form, "en-US", { origin: `http://${HOST}` })).status).toBe(303);
    expect(await orders()).toBe(before + 1);
  });

  it("refuses forged fields (a checkout key, a way of paying the hotel does not offer) and a tampered cart, and books nothing", async () => {
    const jar = await guestWithCart();
    const form = await filledForm(jar);
    const before = await orders();
    const forgedKey = await place(jar, { ...form, checkout_key: "../../orders" });
    expect(forgedKey.status).toBe(400);
    expect(forgedKey.data?.fieldErrors).toMatchObject({ checkout_key: "form.error.expired" });
    // ECPay (6) is not among this hotel's ways of paying: the back end's refusal, in the guest's language (here Japanese).
    const forgedPayment = await place(jar, { ...form, payment: "6:credit" }, "ja-JP");
    expect(forgedPayment.status).toBe(400);
    expect(forgedPayment.data?.formError).toBe(jaApi.payment_not_available);
    // A cart cookie whose signed value was edited (one character of the cart) reads as no cart: back to the booking page.
    const edited = await place(jar, form, "en-US", {
      cookie: jar.header().replace(/cart=([^;]+)/, (_, value: string) => `cart=${editedCookie(value)}`),
    });
    expect(edited.status).toBe(303);
    expectBookingPage(edited.location);
    expect(await orders()).toBe(before);
  });
});
