/// <reference types="vite/client" />
/**
 * The bad-input corpus (decision 060), run by bad-input-corpus-site.test.ts and
 * bad-input-corpus-backend.test.ts. Issue 22, item 18: every route that takes a body or a cookie answers bad input with a 4xx (or its
 * normal page), never a 500, and never puts a control character in a response header.
 *
 * The routes come from the code, so a new one is covered without touching this file:
 * - the site: every module in app/routes/ (read as source by Vite's import.meta.glob), its URL
 *   worked out from the file name the way Remix's flat routes read it; the ones that export an
 *   `action` also get every bad body;
 * - the built-in back end: its route table (BACKEND_ROUTES), every POST with every bad body;
 * - the test gateway: its paths (SANDBOX_PATHS), and the invoice sandbox's consent page (EINVOICE_SANDBOX_PATHS).
 *
 * Each request is asked in Japanese (a language the hotel offers that is neither its main one nor
 * English), and where the answer is a message for a person (a page, plain text, an API message) it
 * must be in Japanese.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { BACKEND_ROUTES } from "~/backend/router.server";
import { SANDBOX_PATHS } from "~/backend/payments/sandbox/sandbox.server";
import { EINVOICE_SANDBOX_PATHS } from "~/backend/einvoice/sandbox-consent.server";
import apiJa from "../../locales/ja-JP/api.json";
import documentsJa from "../../locales/ja-JP/documents.json";
import { BOOKER, apiJson, fetchAs, fixtureHotel, hidden, hotelRefs, loadHotel } from "./helpers";

/**
 * The corpus hotel's domain, one per test file (set by `badInputCorpus`): files share one database
 * one after another (decision 164), and each places its own orders on the same nights.
 */
export let HOST = "corpus.localhost";
export const LANG = "ja-JP";
export const PRODUCT = "hxa";
const today = todayIn("Asia/Taipei");

/** Route modules as source text, keyed by path ("../../app/routes/($lang).pay.$hotelId.$orderDoc.tsx"). */
const routeSources = import.meta.glob<string>("../../app/routes/*.tsx", { query: "?raw", import: "default", eager: true });
/** Every page's source, for the names of the fields our forms post. */
const pageSources = import.meta.glob<string>(["../../app/**/*.tsx", "../../app/**/*.server.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

export interface Fixture {
  hotelId: number;
  room: number;
  plan: number;
  orderDoc: string;
  viewHash: string;
  cancelHash: string;
  /** A browser's CSRF cookie and the token its forms carry: bad bodies get past the CSRF check where they can. */
  csrfCookie: string;
  csrfToken: string;
}
let fixture: Fixture;
/** The corpus hotel's ids, its order and links, a browser's CSRF pair (after the file's beforeAll). */
export const corpusFixture = (): Fixture => fixture;

/** A card order at the corpus hotel, `offset` days ahead, with its view and cancel links. */
export async function placeOrder(
  ids: { room: number; plan: number } = fixture,
  offset = 30,
): Promise<{ orderDoc: string; viewHash: string; cancelHash: string }> {
  const created = await apiJson<{ order_doc: string; order: { valid_hash: string; cancel_hash: string } }>(
    HOST,
    "/api/ota/order/personal-new?lang=en-US",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        domain: HOST,
        ...BOOKER,
        check_in_day: addDays(today, offset),
        check_out_day: addDays(today, offset + 1),
        pay_way: "credit",
        payment_vendor: 1,
        orders: [{ room_class_id: ids.room, proposal_id: ids.plan, num: 1 }],
        adults_count: 2,
      }),
    },
  );
  if (created.status !== 201) throw new Error(`a corpus order was refused: ${JSON.stringify(created.body.msg)}`);
  return {
    orderDoc: created.body.data.order_doc,
    viewHash: created.body.data.order.valid_hash,
    cancelHash: created.body.data.order.cancel_hash,
  };
}

async function loadCorpusHotel() {
  await loadHotel(
    fixtureHotel(HOST, (file) => {
      const hotel = file.hotel as Record<string, unknown>;
      hotel.support_lang = ["zh-TW", "en-US", "ja-JP"];
      hotel.payment_list = [
        { vendor_id: 1, method: "credit" },
        { vendor_id: 8, method: "remittance" },
      ];
      hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "2000132" }];
    }),
  );
  const row = await hotelRefs(HOST);
  const created = await placeOrder({ room: row.room, plan: row.plan }, 20);
  const page = await fetchAs(HOST, `/${LANG}/${PRODUCT}/booking`);
  const csrfCookie =
    page.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("csrf="))
      ?.split(";")[0] ?? "";
  const csrfToken = hidden(await page.text(), "csrf");
  if (!csrfCookie || !csrfToken) throw new Error("the booking page handed out no CSRF token");
  fixture = {
    hotelId: row.id,
    room: row.room,
    plan: row.plan,
    orderDoc: created.orderDoc,
    viewHash: created.viewHash,
    cancelHash: created.cancelHash,
    csrfCookie,
    csrfToken,
  };
}

// ---------------------------------------------------------------------------------------------
// The routes, from the code
// ---------------------------------------------------------------------------------------------

/** A flat-routes file name split at its dots, a `[.]` kept as a literal dot. */
function segmentsOf(file: string): string[] {
  const name = file.replace(/^.*\//, "").replace(/\.tsx$/, "");
  return name
    .replace(/\[\.\]/g, "\u0001")
    .split(".")
    .map((segment) => segment.replaceAll("\u0001", "."));
}

/** The values a route's dynamic segments take here; a new parameter fails the test until it has one. */
function paramValue(name: string): string {
  const values: Record<string, string> = {
    product: PRODUCT,
    orderDoc: fixture.orderDoc,
    id: fixture.orderDoc,
    hotelId: String(fixture.hotelId),
    roomClassId: String(fixture.room),
    // The desk's CSV exports: `$kind[.]csv` is one segment, the parameter with its suffix.
    "kind.csv": "bookings.csv",
  };
  const value = values[name];
  if (value === undefined) throw new Error(`no value for the route parameter $${name}: add one to paramValue`);
  return value;
}

/** The address of a route module in the request's language, as Remix's flat routes read its name. */
export function routeUrl(file: string): string {
  const parts: string[] = [];
  let order = false;
  for (const raw of segmentsOf(file)) {
    const segment = raw.endsWith("_") && raw !== "_" ? raw.slice(0, -1) : raw;
    if (segment === "($lang)") parts.push(LANG);
    else if (segment === "_index" || segment.startsWith("_")) continue;
    else if (segment === "$") parts.push("no-such-page");
    else if (segment.startsWith("$")) {
      const name = segment.slice(1);
      order ||= name === "orderDoc" || name === "id";
      parts.push(encodeURIComponent(paramValue(name)));
    } else parts.push(segment);
  }
  // An order's pages open only with its signed links (view, cancel).
  const query = order ? `?valid_hash=${encodeURIComponent(fixture.viewHash)}&cancel_hash=${encodeURIComponent(fixture.cancelHash)}` : "";
  return `/${parts.join("/")}${query}`;
}

const hasAction = (source: string) => /export\s+(?:async\s+)?(?:function|const)\s+action\b/.test(source);
export const siteRoutes = Object.entries(routeSources).map(([file, source]) => ({
  file: file.replace(/^.*\//, ""),
  action: hasAction(source),
}));

/** A backend path with its parameters filled in. */
function backendUrl(path: string): string {
  const values: Record<string, string> = {
    id: fixture.orderDoc,
    orderDoc: fixture.orderDoc,
    hotelId: String(fixture.hotelId),
    vendorId: "1",
    kind: "return",
    serial: "breakfast",
    // The desk's booking actions (decision 151): one that takes a field of text.
    action: "note",
  };
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for the backend parameter :${name}: add one to backendUrl`);
    return encodeURIComponent(value);
  });
  return `${filled}?lang=${LANG}&domain=${HOST}`;
}

// ---------------------------------------------------------------------------------------------
// The bad input
// ---------------------------------------------------------------------------------------------

/** Text no field should take whole: NUL, CR LF (a header injection), BEL, a right-to-left override and an isolate. */
const HOSTILE = "Mei\u0000Lin\r\nSet-Cookie: evil=1\u0007\u202Eexe.txt\u2066x";

/** Every field name our forms post (harvested from the pages' source), and the account service's. */
const FIELD_NAMES = [
  ...new Set([
    ...Object.values(pageSources).flatMap((source) => [...source.matchAll(/name="([a-z_]+)"/g)].map((match) => match[1]!)),
    ...[
      "email",
      "password",
      "name",
      "client_id",
      "redirect_uri",
      "state",
      "code",
      "code_verifier",
      "grant_type",
      "number",
      "sandbox_decision",
      "token",
    ],
  ]),
].filter((name) => name !== "csrf" && name !== "viewport" && name !== "robots");
/** The intents our forms send (one route, several actions): each gets the hostile fields. */
const INTENTS = [
  ...new Set(
    Object.values(pageSources).flatMap((source) => [...source.matchAll(/name="intent" value="([a-z_]+)"/g)].map((match) => match[1]!)),
  ),
];

interface Body {
  name: string;
  contentType?: string;
  body: () => BodyInit | null;
  /** Whether the browser's CSRF cookie and token go with it (to get past the CSRF check). */
  withCsrf?: boolean;
}

function urlencoded(fields: Record<string, string>): string {
  return new URLSearchParams(Object.entries({ csrf: fixture.csrfToken, ...fields })).toString();
}

const BODIES: Body[] = [
  { name: "empty body, no Content-Type", body: () => null },
  { name: "empty urlencoded body", contentType: "application/x-www-form-urlencoded", body: () => "" },
  { name: "empty multipart body", contentType: "multipart/form-data; boundary=portico", body: () => "" },
  {
    name: "JSON",
    contentType: "application/json",
    body: () => JSON.stringify({ csrf: fixture.csrfToken, intent: "order", number: 1 }),
    withCsrf: true,
  },
  { name: "JSON that does not parse", contentType: "application/json", body: () => '{"csrf":' },
  {
    name: "text/plain",
    contentType: "text/plain;charset=UTF-8",
    body: () => `csrf=${fixture.csrfToken}\r\nintent=order\r\n`,
    withCsrf: true,
  },
  {
    name: "multipart with another boundary than it declares",
    contentType: "multipart/form-data; boundary=declared",
    body: () => `--sent\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${fixture.csrfToken}\r\n--sent--\r\n`,
    withCsrf: true,
  },
  {
    name: "multipart cut off before its end",
    contentType: "multipart/form-data; boundary=portico",
    body: () => `--portico\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${fixture.csrfToken}`,
    withCsrf: true,
  },
  { name: "multipart without a boundary", contentType: "multipart/form-data", body: () => "--x\r\n\r\n--x--", withCsrf: true },
  {
    name: "urlencoded with broken %-escapes",
    contentType: "application/x-www-form-urlencoded",
    body: () => `csrf=${fixture.csrfToken}&intent=%E0%A4%A&back=%&num=%ZZ`,
    withCsrf: true,
  },
  {
    name: "urlencoded, every field NUL / CR LF / BEL / bidi controls",
    contentType: "application/x-www-form-urlencoded",
    body: () => urlencoded(Object.fromEntries(FIELD_NAMES.map((name) => [name, HOSTILE]))),
    withCsrf: true,
  },
  ...INTENTS.map((intent) => ({
    name: `urlencoded intent=${intent}, every other field hostile`,
    contentType: "application/x-www-form-urlencoded",
    body: () => urlencoded({ ...Object.fromEntries(FIELD_NAMES.map((name) => [name, HOSTILE])), intent }),
    withCsrf: true,
  })),
  {
    name: "urlencoded, every field 256 KiB",
    contentType: "application/x-www-form-urlencoded",
    body: () => urlencoded(Object.fromEntries(FIELD_NAMES.slice(0, 4).map((name) => [name, "x".repeat(256 * 1024)]))),
    withCsrf: true,
  },
];

/** Cookies a sibling subdomain, an old deployment or an attacker may leave in the browser. */
const COOKIES: { name: string; cookie: () => string }[] = [
  { name: "d1_bookmark=%", cookie: () => "d1_bookmark=%" },
  { name: "d1_bookmark=%E0%A4%A", cookie: () => "d1_bookmark=%E0%A4%A" },
  { name: "d1_bookmark not a bookmark", cookie: () => "d1_bookmark=00000000-00000001-%00%0D%0A; d1_bookmark=zz" },
  {
    name: "garbage session cookies",
    cookie: () =>
      [
        "mem_token=%",
        "pms_token=%E0%A4%A",
        "member=a.b",
        "cart=eyJ4Ijo%.sig",
        "csrf=%00",
        "last_order=%",
        "login_back_url=%2F%2Fevil.example",
        "oauth_state=%ZZ",
        "account_session=%E0%A4%A",
        "account_csrf=%",
        `__proto__=${"%".repeat(10)}`,
      ].join("; "),
  },
];

/** Queries every page may be sent with: return addresses and links with control characters (a NUL alone passes a `\s` check). */
const HOSTILE_QUERIES: { name: string; query: string }[] = [
  {
    name: "query with CR LF",
    query: new URLSearchParams({
      back: "/\r\nLocation: https://evil.example",
      return_url: "/x\r\n",
      redirect_uri: "https://evil.example/\r\n",
      state: HOSTILE,
      valid_hash: HOSTILE,
      cancel_hash: "%E0%A4%A",
      orderId: "1\r\n",
      transactionId: "\r\n",
      lang: LANG,
    }).toString(),
  },
  {
    name: "query with a NUL",
    query: new URLSearchParams({
      back: "/x\u0000y",
      return_url: "/x\u0000",
      redirect_uri: "/\u0000",
      state: "\u0000",
      valid_hash: "\u0000",
      orderId: "1\u0000",
      lang: LANG,
    }).toString(),
  },
];

// ---------------------------------------------------------------------------------------------
// What every answer must be
// ---------------------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex -- finding control characters in headers is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const JA = apiJa as Record<string, string>;
/** The site's JSON refusals (the download steps) are worded in the documents' namespace. */
const SITE_JSON_JA = new Set(Object.values(documentsJa as Record<string, string>));

/** Why an answer is wrong, or null: a 5xx, a control character in a header, a message not in Japanese. */
async function fault(response: Response, kind: "site" | "backend" | "sandbox", method: "GET" | "POST"): Promise<string | null> {
  const type = response.headers.get("content-type") ?? "";
  // Text is read as text; anything else (the confirmation PDF) only drained.
  const body =
    type === "" || /^(text\/|application\/(json|javascript))/.test(type) ? await response.text() : (await response.arrayBuffer(), "");
  if (response.status >= 500) return `${response.status}: ${body.slice(0, 200).replace(/\s+/g, " ")}`;
  for (const [name, value] of response.headers) {
    if (CONTROL.test(value)) return `header ${name} holds a control character: ${JSON.stringify(value)}`;
  }
  if (kind === "sandbox" || response.status < 400) return null;
  if (type.startsWith("text/html")) {
    const lang = /<html[^>]*\slang="([^"]+)"/.exec(body)?.[1];
    if (lang !== LANG) return `${response.status} page in ${lang ?? "no language"}, asked in ${LANG}`;
    // A refused page says why, where the guest reads it (an alert: the form's error, the 404 box, the apology).
    if (kind === "site" && !/role="alert"/.test(body)) return `${response.status} page without a message`;
  } else if (type.startsWith("text/plain") && kind === "site") {
    // (The back end's plain text is a gateway callback's answer, `0|reason`: for a program, not a person.)
    const lang = response.headers.get("content-language");
    if (lang !== LANG) return `${response.status} text in ${lang ?? "no language"}, asked in ${LANG}`;
  } else if (kind === "site" && method === "POST" && !type.startsWith("application/json") && response.status !== 405) {
    // A refused form says why (a 405 names the methods in Allow; JSON answers the spec's download call).
    return `${response.status} ${type || "with no Content-Type"} and ${body.length} characters: no message for the guest`;
  } else if (type.startsWith("application/json") && kind === "backend") {
    const parsed = JSON.parse(body) as { msg?: { code?: string; message?: string } } & { error?: string };
    const code = parsed.msg?.code;
    // OAuth's token endpoint answers RFC 6749 errors (`error`), a code for a program, not a message.
    if (parsed.error !== undefined) return null;
    const template = code ? JA[code] : undefined;
    if (!template) return `${response.status} API answer with no Japanese message for ${String(code)}`;
    const pattern = template.replace(/[.*+?^$()[\]\\|]/g, "\\$&").replace(/\{\{\w+\}\}/g, "[^{}]*");
    if (!new RegExp(`^${pattern}$`).test(parsed.msg?.message ?? ""))
      return `${response.status} API message not in ${LANG}: ${parsed.msg?.message}`;
  } else if (type.startsWith("application/json") && kind === "site") {
    // The spec's two-step download answers JSON: its refusals say why in the guest's language too.
    const message = (JSON.parse(body) as { msg?: { message?: string } }).msg?.message ?? "";
    if (!SITE_JSON_JA.has(message)) return `${response.status} JSON answer with no message in ${LANG}: ${body.slice(0, 200)}`;
  }
  return null;
}

async function send(
  path: string,
  init: { method: string; cookie?: string; contentType?: string; body?: BodyInit | null },
): Promise<Response> {
  const headers = new Headers();
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.contentType) headers.set("content-type", init.contentType);
  return fetchAs(HOST, path, { method: init.method, headers, body: init.body ?? null, redirect: "manual" });
}

export interface Target {
  label: string;
  kind: "site" | "backend" | "sandbox";
  method: "GET" | "POST";
  path: () => string;
  /** Takes a body: every bad body is sent. */
  body: boolean;
}

/** Every route that takes a body or a cookie, from the code. */
export const targets: Target[] = [
  ...siteRoutes.flatMap((route): Target[] => {
    const get: Target = { label: `site GET ${route.file}`, kind: "site", method: "GET", path: () => routeUrl(route.file), body: false };
    if (!route.action) return [get];
    return [get, { label: `site POST ${route.file}`, kind: "site", method: "POST", path: () => routeUrl(route.file), body: true }];
  }),
  ...BACKEND_ROUTES.map(
    (route): Target => ({
      label: `backend ${route.method} ${route.path}`,
      kind: "backend",
      method: route.method,
      path: () => backendUrl(route.path),
      body: route.method === "POST",
    }),
  ),
  ...SANDBOX_PATHS.map(
    (path): Target => ({ label: `sandbox POST ${path}`, kind: "sandbox", method: "POST", path: () => path, body: true }),
  ),
  // The invoice sandbox's consent page (decision 167): its page by token, and the guest's decision.
  ...EINVOICE_SANDBOX_PATHS.flatMap((path): Target[] => [
    { label: `sandbox GET ${path}`, kind: "sandbox", method: "GET", path: () => `${path}?t=${"0".repeat(32)}`, body: false },
    { label: `sandbox POST ${path}`, kind: "sandbox", method: "POST", path: () => path, body: true },
  ]),
];

/** How many requests one target gets. */
export const requestsFor = (target: Target) =>
  (target.method === "GET" ? 1 : 0) + COOKIES.length + HOSTILE_QUERIES.length + (target.body ? BODIES.length : 0);

/**
 * The corpus over some of the targets: those of `kinds`, or the `part`th of `of` runs of them in
 * order. SELF.fetch gets slower with every request a workerd instance has served
 * (cloudflare/workers-sdk#15446), so the corpus runs as several test files, each with its own
 * instance, instead of one: the time it takes grows with the square of the requests one instance
 * serves, so halving a file's requests more than halves its time (decision 153).
 */
export function badInputCorpus(kinds: Target["kind"][], { part = 1, of = 1 }: { part?: number; of?: number } = {}) {
  const ofKinds = targets.filter((target) => kinds.includes(target.kind));
  const chosen = ofKinds.slice(Math.floor((ofKinds.length * (part - 1)) / of), Math.floor((ofKinds.length * part) / of));
  HOST = `corpus-${kinds.join("-")}-${part}-of-${of}.localhost`;
  beforeAll(loadCorpusHotel);

  describe(`bad input on every ${kinds.join(" and ")} route that takes a body or a cookie: a 4xx or the normal page, never a 500`, () => {
    // Each target is a few dozen requests one after the other; sign-in and sign-up hash passwords.
    it.each(chosen)("$label", { timeout: 60_000 }, async (target) => {
      const faults: string[] = [];
      const check = async (variant: string, response: Promise<Response>) => {
        const found = await fault(await response, target.kind, target.method);
        if (found) faults.push(`${variant} → ${found}`);
      };
      const path = target.path();
      const emptyPost = target.method === "POST" ? { contentType: "application/x-www-form-urlencoded", body: "" } : {};
      // A malformed cookie is dropped, never fatal (design.md): the page answers as it does without it.
      const baseline = target.method === "GET" ? (await send(path, { method: "GET" })).status : null;
      for (const { name, cookie } of COOKIES) {
        const response = await send(path, { method: target.method, cookie: cookie(), ...emptyPost });
        if (baseline !== null && response.status !== baseline) faults.push(`Cookie: ${name} → ${response.status}, ${baseline} without it`);
        await check(`Cookie: ${name}`, Promise.resolve(response));
      }
      for (const { name, query } of HOSTILE_QUERIES)
        await check(name, send(`${path}${path.includes("?") ? "&" : "?"}${query}`, { method: target.method, ...emptyPost }));
      if (target.body) {
        for (const body of BODIES) {
          await check(
            body.name,
            send(path, {
              method: "POST",
              cookie: body.withCsrf ? fixture.csrfCookie : undefined,
              contentType: body.contentType,
              body: body.body(),
            }),
          );
        }
      }
      expect(faults.join("\n")).toBe("");
    });
  });
}
