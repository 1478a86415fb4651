/**
 * What the account tests share (account.test.ts and account-tokens.test.ts, split so that no workerd
 * instance serves too many requests: decisions 153, 158): the three hotels, two members each, and
 * the steps of signing in as a browser without JavaScript and as an OAuth client.
 */
import { env } from "cloudflare:test";
import { beforeAll, expect } from "vitest";
import { hashPassword } from "~/backend/account/passwords";
import { handleBackendRequest } from "~/backend/router.server";
import { builtInClientSecret, pkceChallenge } from "~/lib/oauth-crypto";
import { randomToken } from "~/lib/crypto";
import { Browser, fetchAs, fixtureHotel, hidden, loadHotel } from "./helpers";

// The three hotels' domains, one set per test file (set by `accountHotels`): files share one
// database one after another (decision 164), and each adds the same members.
export let HOST = "signin.localhost";
export let OTHER = "signin-other.localhost";
export let CLOSED = "signin-closed.localhost";
export const PASSWORD = "correct-horse-1";
export let CALLBACK = `http://${HOST}/hxa/oauth/callback`;

/** A path the Browser can follow: same-host absolute Locations become paths. */
export function follow(location: string | null, host = HOST): string {
  expect(location).not.toBeNull();
  const url = new URL(location ?? "", `http://${host}`);
  expect(url.host).toBe(host);
  return `${url.pathname}${url.search}`;
}

export async function addMember(domain: string, email: string, points = 800) {
  const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>();
  await env.DB.prepare(
    "INSERT INTO members (hotel_id, email, first_name, last_name, phone, points, password_hash) VALUES (?, ?, 'Mei', 'Lin', '0912345678', ?, ?)",
  )
    .bind(hotel?.id, email, points, await hashPassword(PASSWORD))
    .run();
}

/** Signs in through the site's "Sign in": login → authorize → sign-in form → callback. Returns where it ends. */
export async function signIn(browser: Browser, email: string, back = "/en-US/about", password = PASSWORD) {
  const login = await browser.request(`/en-US/hxa/login?back=${encodeURIComponent(back)}`);
  expect(login.status).toBe(303);
  const authorize = await browser.request(follow(login.location));
  if (authorize.status === 303) return browser.request(follow(authorize.location));
  expect(authorize.status).toBe(200);
  const form: Record<string, string> = {};
  for (const name of [
    "client_id",
    "redirect_uri",
    "state",
    "scope",
    "code_challenge",
    "code_challenge_method",
    "response_type",
    "role",
    "csrf",
  ])
    form[name] = hidden(authorize.html, name);
  const posted = await browser.request("/account/signin?lang=en-US", { ...form, email, password });
  if (posted.status !== 303) return posted;
  return browser.request(follow(posted.location));
}

/** An authorization request of our own (as an OAuth client would make it), signed in with the password. */
export async function codeFor(browser: Browser, email: string, options: { verifier?: string; state?: string; redirectUri?: string } = {}) {
  const verifier = options.verifier ?? randomToken();
  const state = options.state ?? randomToken();
  const query = new URLSearchParams({
    client_id: HOST,
    response_type: "code",
    redirect_uri: options.redirectUri ?? CALLBACK,
    scope: "member",
    role: "mem",
    state,
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: "S256",
    lang: "en-US",
  });
  let answer = await browser.request(`/account/oauth/authorize?${query}`);
  if (answer.status === 200 && answer.html.includes('name="password"')) {
    const form: Record<string, string> = {};
    for (const name of [
      "client_id",
      "redirect_uri",
      "state",
      "scope",
      "code_challenge",
      "code_challenge_method",
      "response_type",
      "role",
      "csrf",
    ])
      form[name] = hidden(answer.html, name);
    answer = await browser.request("/account/signin", { ...form, email, password: PASSWORD });
  }
  const location = answer.location ? new URL(answer.location) : null;
  return { answer, verifier, state, code: location?.searchParams.get("code") ?? null, location };
}

export async function token(fields: Record<string, string>, now?: Date) {
  const request = new Request("https://backend.internal/account/oauth/token?lang=en-US", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const response = await handleBackendRequest(request, { db: env.DB, signingSecret: env.SESSION_SECRET as string, now });
  return {
    status: response.status,
    body: (await response.json()) as { access_token?: string; token_type?: string; error?: string; error_description?: string },
  };
}

export async function tokenFields(code: string, verifier: string) {
  return {
    grant_type: "authorization_code",
    client_id: HOST,
    client_secret: await builtInClientSecret(env.SESSION_SECRET as string, HOST),
    redirect_uri: CALLBACK,
    code,
    code_verifier: verifier,
  };
}

export const hotelId = async (domain: string) =>
  (await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>())?.id ?? 0;

/** Loads the three hotels and their members once for the test file that calls it, under domains named after `file`. */
export function accountHotels(file: string): void {
  HOST = `signin-${file}.localhost`;
  OTHER = `signin-${file}-other.localhost`;
  CLOSED = `signin-${file}-closed.localhost`;
  CALLBACK = `http://${HOST}/hxa/oauth/callback`;
  beforeAll(async () => {
    await loadHotel(
      fixtureHotel(HOST, (file) => {
        Object.assign(file.hotel, { member_price_discount: { discount: 90 }, support_lang: ["zh-TW", "en-US", "ja-JP"] });
        (file.rate_plans as unknown[]).push({
          rate_plan_code: "MEMBERS",
          name: { "zh-TW": "會員專屬", "en-US": "Member early bird" },
          members_only: true,
          rooms: [{ room_code: "double", weekday: 2500, weekend: 3000, holiday: 3500 }],
        });
      }),
    );
    await loadHotel(fixtureHotel(OTHER));
    await loadHotel(fixtureHotel(CLOSED, (file) => Object.assign(file.hotel, { close_member_system: true })));
    await addMember(HOST, "mei@example.com");
    await addMember(HOST, "ken@example.com");
    await addMember(OTHER, "mei@example.com");
  });
}

/** Signs in and answers the callback's raw response (to read its Set-Cookie headers). */
export async function signInRaw(browser: Browser, email: string): Promise<Response> {
  const login = await browser.request("/en-US/hxa/login?back=/en-US/about");
  const authorize = await browser.request(follow(login.location));
  const form: Record<string, string> = {};
  for (const name of [
    "client_id",
    "redirect_uri",
    "state",
    "scope",
    "code_challenge",
    "code_challenge_method",
    "response_type",
    "role",
    "csrf",
  ])
    form[name] = hidden(authorize.html, name);
  const posted = await browser.request("/account/signin", { ...form, email, password: PASSWORD });
  const callback = follow(posted.location);
  const cookie = (browser as unknown as { cookies: Map<string, string> }).cookies;
  const response = await fetchAs(HOST, callback, {
    redirect: "manual",
    headers: { cookie: [...cookie].map(([k, v]) => `${k}=${v}`).join("; ") },
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const at = pair.indexOf("=");
    if (/max-age=0/i.test(line)) cookie.delete(pair.slice(0, at));
    else cookie.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return response;
}
