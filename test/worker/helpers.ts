import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { validateHotelFile, type HotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";
import { addDays, todayIn } from "~/domain/dates";
import { markOrderPaid } from "~/backend/payments/settle.server";
import { createLogger } from "~/platform/log.server";
import minimal from "../fixtures/minimal-hotel.json";

/** A copy of the minimal fixture hotel under another domain, so test files never share a hotel. */
export function fixtureHotel(domain: string, change: (file: typeof minimal) => void = () => undefined): unknown {
  const file = structuredClone(minimal);
  file.hotel.domain = domain;
  change(file);
  return file;
}

/** Loads a hotel file into the test D1 through the same SQL the import command runs. */
export async function loadHotel(
  input: unknown,
  loadDay = todayIn("Asia/Taipei"),
  options: { allowTestGateway?: boolean } = {},
): Promise<HotelFile> {
  const result = validateHotelFile(input, options);
  if (!result.success) throw new Error(`fixture does not validate: ${result.errors.join("; ")}`);
  const statements = hotelFileToSql(result.file, { loadDay });
  await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
  return result.file;
}

/** The built Worker's fetch handler (build/index.js, what wrangler deploys). */
interface BuiltWorker {
  fetch(request: Request, bindings: unknown, ctx: ExecutionContext): Promise<Response>;
}
let built: Promise<BuiltWorker> | undefined;

/**
 * A request to the built Worker, called in this isolate with the test's bindings, its background
 * work (waitUntil) awaited before the answer is handed back. Not through SELF: SELF.fetch gets
 * slower with every request one instance has served (cloudflare/workers-sdk#15446; decision 153),
 * so a file of a thousand requests spent nearly all its time there. Same handler, same bindings.
 */
export async function workerFetch(request: Request, bindings: unknown = env): Promise<Response> {
  built ??= import(/* @vite-ignore */ BUILT_WORKER).then((module: { default: BuiltWorker }) => module.default);
  const worker = await built;
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/**
 * A request to the Worker as a browser at `host` would send it. Redirects are followed as fetch
 * follows them (unless `redirect: "manual"`): the same headers, a 301/302/303 after a POST as a GET.
 */
export async function fetchAs(host: string, path: string, init: RequestInit = {}): Promise<Response> {
  let request = new Request(`http://${host}${path}`, { ...init, redirect: "manual" });
  for (let hops = 0; ; hops++) {
    const response = await workerFetch(request);
    const location = response.headers.get("location");
    if (init.redirect === "manual" || !location || response.status < 300 || response.status > 399) return response;
    if (hops === 20) throw new TypeError("fetchAs: too many redirects");
    const next = new URL(location, request.url);
    const asGet = response.status !== 307 && response.status !== 308;
    const headers = new Headers(request.headers);
    if (asGet) headers.delete("content-type");
    request = new Request(next, { method: asGet ? "GET" : request.method, headers, body: asGet ? null : init.body, redirect: "manual" });
  }
}

export interface Envelope<T = unknown> {
  success: boolean;
  msg: { code: string; message: string; extrainfo?: { message: string; field?: string } };
  data: T;
}

export async function apiJson<T = unknown>(host: string, path: string, init?: RequestInit) {
  const response = await fetchAs(host, path, init);
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

/** A browser without JavaScript at one host: GETs pages, POSTs forms, keeps its cookies. */
export class Browser {
  private cookies = new Map<string, string>();

  constructor(
    private readonly host: string,
    initial: string[] = [],
    /** The client's address as Cloudflare would give it (`cf-connecting-ip`); none by default. */
    private readonly address?: string,
  ) {
    for (const cookie of initial) this.keep(cookie);
  }

  private keep(setCookie: string) {
    const [pair = ""] = setCookie.split(";");
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (value === "" || /max-age=0/i.test(setCookie)) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  async request(path: string, form?: Record<string, string>): Promise<{ status: number; html: string; location: string | null }> {
    const headers = new Headers({ cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") });
    if (this.address) headers.set("cf-connecting-ip", this.address);
    const init: RequestInit = { headers, redirect: "manual" };
    if (form) {
      init.method = "POST";
      init.body = new URLSearchParams(form);
      headers.set("content-type", "application/x-www-form-urlencoded");
    }
    const response = await fetchAs(this.host, path, init);
    for (const cookie of response.headers.getSetCookie()) this.keep(cookie);
    return { status: response.status, html: await response.text(), location: response.headers.get("location") };
  }
}

export const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

/** The fields of the account service's sign-in form that carry its authorization request and CSRF token. */
const SIGN_IN_FIELDS = [
  "client_id",
  "redirect_uri",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "response_type",
  "role",
  "csrf",
];

/** The hidden fields of an account page's form (sign-in or sign-up), as the page carries them. */
export const accountFormFields = (html: string): Record<string, string> =>
  Object.fromEntries(SIGN_IN_FIELDS.map((name) => [name, hidden(html, name)]));

/** The sign-in form of a new sign-in on the site at `host`, as `browser` sees it: its hidden fields and page. */
export async function openSignIn(browser: Browser, host: string, lang = "en-US") {
  const login = await browser.request(`/${lang}/hxa/login?back=/${lang}/about`);
  const url = new URL(login.location ?? "", `http://${host}`);
  if (url.host !== host) throw new Error(`sign-in went to ${url.host}, not ${host}`);
  const page = await browser.request(`${url.pathname}${url.search}`);
  return { form: accountFormFields(page.html), page };
}

/** The checkout form as its page sends it: the page's CSRF token and checkout key, a booker (Chen Yi), then `fields`. */
export function checkoutFields(html: string, fields: Record<string, string>): Record<string, string> {
  return {
    csrf: hidden(html, "csrf"),
    checkout_key: hidden(html, "checkout_key"),
    booker_last_name: "Chen",
    booker_first_name: "Yi",
    booker_phone: "0912345678",
    ...fields,
  };
}
/** What the guest reads: the page without its scripts (which carry every translation) and tags. */
export const text = (html: string) =>
  html
    .replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

/**
 * A night's price in the minimal fixture as docs/hotel-file.md defines it, worked out here rather
 * than read back from the Worker: the weekend price for Friday and Saturday nights (the default
 * `weekend_nights`), the weekday price otherwise. The fixture has no holidays.
 */
export function fixtureNightPrice(night: string, prices: { weekday: number; weekend: number } = minimal.rate_plans[0]!.rooms[0]!): number {
  const day = new Date(`${night}T00:00:00Z`).getUTCDay();
  return day === 5 || day === 6 ? prices.weekend : prices.weekday;
}

/** The booker of the tests' orders, as the order payload names them. */
export const BOOKER = {
  booker_first_name: "Mei",
  booker_last_name: "Lin",
  booker_phone: "+886 912 345 678",
  booker_email: "mei@example.com",
} as const;

/** A loaded hotel's id and its first room class and rate plan: what a one-room order names. */
export interface HotelRefs {
  id: number;
  room: number;
  plan: number;
}

export async function hotelRefs(domain: string): Promise<HotelRefs> {
  const row = await env.DB.prepare(
    `SELECT h.id, (SELECT id FROM room_classes WHERE hotel_id = h.id LIMIT 1) AS room, (SELECT id FROM rate_plans WHERE hotel_id = h.id LIMIT 1) AS plan FROM hotels h WHERE domain = ?`,
  )
    .bind(domain)
    .first<HotelRefs>();
  if (!row) throw new Error(`no hotel ${domain}`);
  return row;
}

/** Books one night from `checkIn` by card through the API as BOOKER (fields in `overrides` replace the defaults). */
export function orderOneNight<T>(domain: string, hotel: HotelRefs, checkIn: string, overrides: Record<string, unknown> = {}) {
  return apiJson<T>(domain, "/api/ota/order/personal-new?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      domain,
      ...BOOKER,
      check_in_day: checkIn,
      check_out_day: addDays(checkIn, 1),
      pay_way: "credit",
      payment_vendor: 1,
      orders: [{ room_class_id: hotel.room, proposal_id: hotel.plan, num: 1 }],
      adults_count: 2,
      ...overrides,
    }),
  });
}

/**
 * The D1 binding, counting what reaches the database: each statement run on its own and each batch
 * is one round trip (`count`); `statements` is the SQL of every statement sent, batches included,
 * so a test can say which tables a call read and how often.
 */
export function countingDb(db: D1Database) {
  const trips: string[][] = [];
  const originals = new WeakMap<object, { statement: D1PreparedStatement; sql: string }>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (property === "first" || property === "all" || property === "run" || property === "raw") {
          return (...args: unknown[]) => {
            trips.push([sql]);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    originals.set(proxy, { statement, sql });
    return proxy;
  };
  const counted = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          trips.push(statements.map((statement) => originals.get(statement)?.sql ?? "?"));
          return target.batch(statements.map((statement) => originals.get(statement)?.statement ?? statement));
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    db: counted,
    count: () => trips.length,
    statements: () => trips.flat(),
    /** How many statements sent read `table` (name it as it follows FROM or JOIN). */
    reads: (table: string) => trips.flat().filter((sql) => new RegExp(`\\b(FROM|JOIN)\\s+${table}\\b`, "i").test(sql)).length,
  };
}

export { answerQuestion } from "../captcha-question";

/** The question of the captcha shown in a page. */
export const captchaQuestion = (html: string) =>
  /<p id="captcha-question">.*?<\/span> ([^<]+)<\/p>/
    .exec(html)?.[1]
    ?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))) ?? "";

/** The built Worker (npm run build), imported through this name so that typechecking needs no build. */
export const BUILT_WORKER = "../../build/index.js";

/** The add-on items the add-on tests share (hotel file `addons`, decision 115), by code. */
export const TEST_ADDONS = {
  breakfast: {
    code: "breakfast",
    name: { "zh-TW": "早餐", "en-US": "Breakfast" },
    unit: "person_night",
    price: 400,
    child_price: 200,
    max_per_booking: 6,
    plans: ["BAR"],
  },
  pickup: {
    code: "pickup",
    name: { "zh-TW": "機場接送", "en-US": "Airport pickup" },
    unit: "stay",
    price: 1200,
    max_per_booking: 2,
    plans: ["BAR"],
    inventory: { per_day: 3 },
  },
  parking: {
    code: "parking",
    name: { "zh-TW": "停車位", "en-US": "Parking" },
    unit: "night",
    price: 300,
    max_per_booking: 2,
    plans: ["BAR", "PLAIN"],
    inventory: { per_day: 5, days: [{ days: ["today+20"], count: 1 }] },
  },
};

/** A second public plan beside the fixture's BAR (it offers parking only). */
export const PLAIN_PLAN = {
  rate_plan_code: "PLAIN",
  name: { "zh-TW": "純住宿", "en-US": "Plain" },
  rooms: [{ room_code: "double", weekday: 2000, weekend: 2000, holiday: 2000 }],
};

/** A fixture hotel's ids by name: its `hotel`, its `room`, its plans by code and its add-ons by code. */
export async function fixtureIds(domain: string): Promise<Record<string, number>> {
  const rows = await env.DB.prepare(
    `SELECT 'room' AS k, rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?1
     UNION ALL SELECT 'hotel', id FROM hotels WHERE domain = ?1
     UNION ALL SELECT rp.rate_plan_code, rp.id FROM rate_plans rp JOIN hotels h ON h.id = rp.hotel_id WHERE h.domain = ?1
     UNION ALL SELECT a.addon_code, a.id FROM addons a JOIN hotels h ON h.id = a.hotel_id WHERE h.domain = ?1`,
  )
    .bind(domain)
    .all<{ k: string; id: number }>();
  return Object.fromEntries(rows.results.map((row) => [row.k, row.id]));
}

/**
 * Pays an order in full by bank transfer, as the back end's settlement does when the transfer
 * arrives (a payment row, then markOrderPaid). `prefix` keeps trade numbers of test files apart.
 */
export async function payInFull(orderDoc: string, prefix: string): Promise<void> {
  const row = await env.DB.prepare("SELECT id, pay_amount FROM orders WHERE order_doc = ?")
    .bind(orderDoc)
    .first<{ id: number; pay_amount: number }>();
  const tradeNo = `${prefix}${orderDoc.replace(/-/g, "")}`;
  await env.DB.prepare(
    "INSERT INTO payments (order_id, vendor_id, provider, trade_no, amount, purpose) VALUES (?, 8, 'sandbox', ?, ?, 'full')",
  )
    .bind(row?.id, tradeNo, row?.pay_amount)
    .run();
  const payment = await env.DB.prepare("SELECT id, order_id, amount FROM payments WHERE trade_no = ?")
    .bind(tradeNo)
    .first<{ id: number; order_id: number; amount: number }>();
  if (!payment) throw new Error(`no payment for ${orderDoc}`);
  await markOrderPaid(env.DB, createLogger("test"), payment, `G${tradeNo}`);
}

/**
 * Other test files share this database (decision 164), and a delivery run sends the oldest due
 * messages first, a few at a time: the queued messages of every hotel but `domains` are set aside
 * (marked failed, as a message the provider refused for good) so that the run this test starts
 * sends this test's messages.
 */
export async function setAsideOtherHotelsMail(...domains: string[]): Promise<void> {
  await env.DB.prepare(
    `UPDATE mail_outbox SET status = 'failed', last_error = 'set aside: another test file''s hotel'
     WHERE status = 'queued' AND hotel_id NOT IN (SELECT id FROM hotels WHERE domain IN (SELECT value FROM json_each(?)))`,
  )
    .bind(JSON.stringify(domains))
    .run();
}

/**
 * Ends the rest of these hotels' e-invoice providers (decision 170): a test that makes the sandbox
 * answer HTTP 403 puts its hotel's provider to rest for 30 minutes of real time, which the file's
 * later tests, on the same hotel and today's clock, must not inherit.
 */
export async function endProviderRest(...hotelIds: number[]): Promise<void> {
  await env.DB.prepare(`DELETE FROM einvoice_provider_rest WHERE hotel_id IN (${hotelIds.map(() => "?").join(", ")})`)
    .bind(...hotelIds)
    .run();
}
