/**
 * Browser state in signed HttpOnly cookies (docs/decisions/003): the cart, the CSRF token and the
 * member session.
 * Every read is validated; a tampered or stale cookie reads as empty.
 */
import { createCookie, type Cookie, type CookieOptions } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { Cart } from "~/domain/cart";
import { MAX_CART_LINES } from "~/domain/cart";
import type { AppEnv } from "~/platform/env.server";
import { csrfMatches, csrfTokenFor } from "~/lib/csrf";

/**
 * A signed cookie whose parse never throws: Remix's throws on a value that is not base64 or JSON
 * (`member=a.b`), which would turn any page into a 500. A malformed cookie reads as absent.
 */
export function safeCookie(name: string, options: CookieOptions): Cookie {
  const cookie = createCookie(name, options);
  const parse = cookie.parse.bind(cookie);
  return Object.assign(cookie, {
    parse: async (header: string | null, parseOptions?: Parameters<Cookie["parse"]>[1]) => {
      try {
        return await parse(header, parseOptions);
      } catch {
        return null;
      }
    },
  });
}

export const base = (env: AppEnv) => ({ httpOnly: true, secure: true, sameSite: "lax" as const, path: "/", secrets: [env.SESSION_SECRET] });

export const cartCookie = (env: AppEnv) => safeCookie("cart", { ...base(env), maxAge: 60 * 60 * 24 * 7 });
const csrfCookie = (env: AppEnv) => safeCookie("csrf", base(env));
/** The last order placed from this browser: a resubmitted checkout form finds it again. */
export const lastOrderCookie = (env: AppEnv) => safeCookie("last_order", { ...base(env), maxAge: 60 * 60 * 24 });

const RAIL_COUNT = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10));

const CartSchema = v.object({
  domain: v.string(),
  start: v.string(),
  end: v.string(),
  lines: v.pipe(
    v.array(v.object({ room_class_id: v.number(), proposal_id: v.number(), num: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
    v.maxLength(MAX_CART_LINES),
  ),
  checkoutKey: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/)),
  rail: v.optional(
    v.pipe(
      v.array(
        v.object({
          direction: v.picklist(["outbound", "return"]),
          date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
          train_no: v.pipe(v.string(), v.regex(/^\d{1,6}$/)),
          origin: v.pipe(v.string(), v.regex(/^\d{4}$/)),
          destination: v.pipe(v.string(), v.regex(/^\d{4}$/)),
          passengers: v.object({ adult: RAIL_COUNT, child: RAIL_COUNT, senior: RAIL_COUNT, disabled: RAIL_COUNT }),
          amount: v.pipe(v.number(), v.integer(), v.minValue(0)),
          departure_time: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
          arrival_time: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
        }),
      ),
      v.maxLength(2),
    ),
  ),
});

/** The cart for this hotel and stay; any other cart (another hotel, other dates, tampered) is empty. */
export async function readCart(request: Request, env: AppEnv, domain: string, stay?: { start: string; end: string }): Promise<Cart | null> {
  const raw = await cartCookie(env).parse(request.headers.get("cookie"));
  const parsed = v.safeParse(CartSchema, raw);
  if (!parsed.success || parsed.output.domain !== domain) return null;
  if (stay && (parsed.output.start !== stay.start || parsed.output.end !== stay.end)) return null;
  return parsed.output;
}

export function newCheckoutKey(): string {
  return crypto.randomUUID();
}

/** The CSRF token of this browser (lib/csrf.ts), kept in a signed cookie; a new one comes with its Set-Cookie. */
export async function csrfToken(request: Request, env: AppEnv): Promise<{ token: string; setCookie: string | null }> {
  const { token, fresh } = csrfTokenFor(await csrfCookie(env).parse(request.headers.get("cookie")));
  return { token, setCookie: fresh ? await csrfCookie(env).serialize(token) : null };
}

/** A POST form must come from this site and carry the token of its browser's CSRF cookie. */
export async function verifyCsrf(request: Request, app: { env: AppEnv; crossSite: boolean }, form: FormData): Promise<boolean> {
  if (app.crossSite) return false;
  return csrfMatches(await csrfCookie(app.env).parse(request.headers.get("cookie")), form);
}

/**
 * The first member cookie (`member`, decision 013), before sign-in existed. The session now lives in
 * mem_token and pms_token (app/features/account/); a `member` cookie still read is moved there (decision 036).
 */
export const memberSessionCookie = (env: AppEnv) => safeCookie("member", { ...base(env), maxAge: 60 * 60 * 24 * 30 });

const MemberSessionSchema = v.object({ domain: v.string(), token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~+/-]{16,200}=*$/)) });

/** The token of a legacy `member` cookie for this hotel, or null (none, another hotel's, tampered). */
export async function readLegacyMemberToken(request: Request, env: AppEnv, domain: string): Promise<string | null> {
  const parsed = v.safeParse(MemberSessionSchema, await memberSessionCookie(env).parse(request.headers.get("cookie")));
  return parsed.success && parsed.output.domain === domain ? parsed.output.token : null;
}
