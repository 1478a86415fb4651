/**
 * The built-in account service and signing in on the site, through the real Worker and D1 as a
 * browser without JavaScript would: OAuth with PKCE, its refusals, the PMS exchange, sign-out,
 * login_back_url, hotel isolation and spec §8's failure paths.
 */
import { SELF, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import * as oauth from "oauth4webapi";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { hashPassword } from "~/backend/account/passwords";
import { handleBackendRequest } from "~/backend/router.server";
import { memberSessionCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { builtInClientSecret, pkceChallenge } from "~/lib/oauth-crypto";
import { randomToken } from "~/lib/crypto";
import { issueMemberToken } from "~/backend/account/members.server";
import {
  BOOKER,
  Browser,
  answerQuestion,
  apiJson,
  captchaQuestion,
  fetchAs,
  fixtureHotel,
  hidden,
  loadHotel,
  openSignIn as openSignInAt,
  text,
  BUILT_WORKER,
} from "./helpers";

// Each sign-in derives PBKDF2 at 100,000 iterations (the deployed cap) and several tests sign in more
// than once: on a shared two-core machine running other test files, past the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

const HOST = "signin.localhost";
const OTHER = "signin-other.localhost";
const CLOSED = "signin-closed.localhost";
const PASSWORD = "correct-horse-1";
const CALLBACK = `http://${HOST}/hxa/oauth/callback`;

/** A path the Browser can follow: same-host absolute Locations become paths. */
function follow(location: string | null, host = HOST): string {
  expect(location).not.toBeNull();
  const url = new URL(location ?? "", `http://${host}`);
  expect(url.host).toBe(host);
  return `${url.pathname}${url.search}`;
}

async function addMember(domain: string, email: string, points = 800) {
  const hotel = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>();
  await env.DB.prepare(
    "INSERT INTO members (hotel_id, email, first_name, last_name, phone, points, password_hash) VALUES (?, ?, 'Mei', 'Lin', '0912345678', ?, ?)",
  )
    .bind(hotel?.id, email, points, await hashPassword(PASSWORD))
    .run();
}

/** Signs in through the site's "Sign in": login → authorize → sign-in form → callback. Returns where it ends. */
async function signIn(browser: Browser, email: string, back = "/en-US/about", password = PASSWORD) {
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
async function codeFor(browser: Browser, email: string, options: { verifier?: string; state?: string; redirectUri?: string } = {}) {
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

async function token(fields: Record<string, string>, now?: Date) {
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

async function tokenFields(code: string, verifier: string) {
  return {
    grant_type: "authorization_code",
    client_id: HOST,
    client_secret: await builtInClientSecret(env.SESSION_SECRET as string, HOST),
    redirect_uri: CALLBACK,
    code,
    code_verifier: verifier,
  };
}

const hotelId = async (domain: string) =>
  (await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>())?.id ?? 0;

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

describe("the account service's pages", () => {
  // The fixture hotel is named in zh-TW (its main language) and en-US only.
  it.each([
    ["zh-TW", "會員登入", "登入 測試旅館 的會員帳號"],
    ["zh-CN", "会员登录", "登录 測試旅館 的会员账号"],
    ["en-US", "Member sign-in", "Sign in to your member account at Fixture Hotel"],
    ["ja-JP", "会員ログイン", "測試旅館 の会員アカウント"],
    ["ko-KR", "회원 로그인", "測試旅館 회원 계정"],
  ])("show the sign-in form in %s, naming the hotel in that language, without any script", async (lang, heading, intro) => {
    const login = await new Browser(HOST).request(`/${lang === "zh-TW" ? "" : `${lang}/`}hxa/login?back=/`);
    const page = await fetchAs(HOST, follow(login.location));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(`<html lang="${lang}">`);
    expect(text(html)).toContain(heading);
    expect(text(html)).toContain(intro);
    expect(html).not.toContain("<script");
    expect(html).toMatch(/<form method="post" action="\/account\/signin/);
  });

  // Issue 25 item 6, decision 093: the pages are the hotel's own, not a blank form.
  const BRAND = "signin-brand.localhost";
  const attributes = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, (value ?? "").replace(/&amp;/g, "&")]));

  beforeAll(() =>
    loadHotel(
      fixtureHotel(BRAND, (file) =>
        Object.assign(file.hotel, {
          template_code: "layout_501",
          support_lang: ["zh-TW", "en-US", "ja-JP"],
          logo_images: { dark: "/brand/logo-dark.svg", white: "/brand/logo-white.svg" },
        }),
      ),
    ),
  );

  it.each([
    ["/account/oauth/authorize", "ja-JP"],
    ["/account/signup", "en-US"],
  ])(
    "%s (%s) wears the hotel's name, logo and colours, links back to its site and to itself in the hotel's languages, query kept",
    async (path, lang) => {
      const browser = new Browser(BRAND);
      const login = await browser.request(`/${lang}/hxa/login?back=/`);
      const authorize = new URL(login.location ?? "");
      const address = `${path}${authorize.search}`;
      const page = await fetchAs(BRAND, address);
      const html = await page.text();
      expect(page.status).toBe(200);
      // The hotel's name (ja-JP has none of its own: its main language's) and its logo for a dark layout, linking to its site in this language.
      const name = lang === "en-US" ? "Fixture Hotel" : "測試旅館";
      const home = /<a class="brand__home" href="([^"]+)"><img ([^>]+)><\/a>/.exec(html);
      expect(home?.[1]).toBe(`http://${BRAND}/${lang}`);
      expect(attributes(home?.[2] ?? "")).toMatchObject({ src: `http://${BRAND}/brand/logo-white.svg`, alt: name });
      expect(page.headers.get("content-security-policy")).toContain(`img-src data: http://${BRAND};`);
      expect(html).toContain("--accent:#e6a88e;"); // layout_501's
      // A way back to the site, in words.
      const back = { "ja-JP": "サイトに戻る", "en-US": "Back to the website" }[lang];
      expect(html).toContain(`<a class="standalone" href="http://${BRAND}/${lang}">${back}</a>`);
      // The same page in each of the hotel's languages, the authorization request kept.
      const links = [...html.matchAll(/<a ([^>]*hreflang="[^"]+"[^>]*)>([^<]+)<\/a>/g)].map(([, tag, label]) => ({
        ...attributes(tag ?? ""),
        label,
      }));
      expect(links.map((link) => [link.hreflang, link.label, link["aria-current"] ?? ""])).toEqual([
        ["zh-TW", "繁體中文", lang === "zh-TW" ? "true" : ""],
        ["en-US", "English", lang === "en-US" ? "true" : ""],
        ["ja-JP", "日本語", lang === "ja-JP" ? "true" : ""],
      ]);
      for (const link of links) {
        const target = new URL(link.href ?? "", `http://${BRAND}`);
        expect(target.pathname).toBe(path);
        for (const [key, value] of authorize.searchParams)
          expect(target.searchParams.get(key), key).toBe(key === "lang" ? link.hreflang : value);
      }
      const other = await fetchAs(BRAND, links.find((link) => link.hreflang === "zh-TW")?.href ?? "");
      const otherHtml = await other.text();
      expect(other.status).toBe(200);
      expect(otherHtml).toContain('<html lang="zh-TW">');
      expect(text(otherHtml)).toContain(path === "/account/signup" ? "建立會員帳號" : "會員登入");
      expect(otherHtml).toContain(`href="http://${BRAND}/"`);
    },
  );

  it("a hotel without a logo is named in words, in its layout's colours", async () => {
    const login = await new Browser(HOST).request("/en-US/hxa/login?back=/");
    const html = await (await fetchAs(HOST, follow(login.location))).text();
    expect(html).toContain(`<a class="brand__home" href="http://${HOST}/en-US">Fixture Hotel</a>`);
    expect(html).not.toContain("<img");
    expect(html).toContain("--accent:#7a5c2e;"); // layout_700's
  });

  /** The sign-up form of a new sign-in on the site, for a guest at `address`. */
  async function openSignUp(browser: Browser, lang = "en-US") {
    const login = await browser.request(`/${lang}/hxa/login?back=${encodeURIComponent(`/${lang}/facilities`)}`);
    const authorize = await browser.request(follow(login.location));
    const signupLink = /href="(\/account\/signup\?[^"]+)"/.exec(authorize.html)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const page = await browser.request(signupLink);
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
      form[name] = hidden(page.html, name);
    return { form, page };
  }

  /** The newest sign-up email to `to`: its text and the link in it. */
  async function signUpMail(to: string) {
    const row = await env.DB.prepare(
      "SELECT subject, text_body, html_body FROM mail_outbox WHERE kind = 'account_signup' AND to_address = ? ORDER BY id DESC LIMIT 1",
    )
      .bind(to)
      .first<{ subject: string; text_body: string; html_body: string }>();
    const link = /http:\/\/[^\s]+\/account\/signup\/confirm\?[^\s]+/.exec(row?.text_body ?? "")?.[0] ?? "";
    return { row, link: link ? `${new URL(link).pathname}${new URL(link).search}` : "" };
  }

  /** Follows an emailed sign-up link as a browser does: the page, then its button. */
  async function followSignUpLink(browser: Browser, link: string) {
    const confirm = await browser.request(link);
    const token = hidden(confirm.html, "token");
    return { confirm, done: await browser.request("/account/signup/confirm?lang=en-US", { token, csrf: hidden(confirm.html, "csrf") }) };
  }

  const memberCount = async (email: string) =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM members WHERE email = ?").bind(email).first<{ n: number }>())?.n ?? -1;

  it("a sign-up answers 'check your email', makes nobody a member until the emailed link is followed, and the link works once (decision 071)", async () => {
    const browser = new Browser(HOST, [], "198.51.100.80");
    const { form, page } = await openSignUp(browser);
    expect(text(page.html)).toContain("Create a member account");
    const short = await browser.request("/account/signup?lang=en-US", {
      ...form,
      last_name: "Chen",
      first_name: "Ann",
      email: "ann@example.com",
      phone: "0912 000 111",
      password: "short",
    });
    expect(short.status).toBe(400);
    expect(text(short.html)).toContain("The password needs at least 8 characters.");
    expect(short.html).toContain('value="ann@example.com"');
    const created = await browser.request("/account/signup?lang=en-US", {
      ...form,
      last_name: "Chen",
      first_name: "Ann",
      email: "ann@example.com",
      phone: "0912 000 111",
      password: "ann-password-1",
    });
    expect(created.status).toBe(200);
    expect(text(created.html)).toContain("We sent a message to ann@example.com. Follow the link in it within 24 hours");
    expect(await memberCount("ann@example.com")).toBe(0);
    expect((await signIn(new Browser(HOST), "ann@example.com", "/", "ann-password-1")).status).toBe(401);

    const { row, link } = await signUpMail("ann@example.com");
    expect(row?.subject).toBe("Fixture Hotel: finish creating your member account");
    // The email carries no name the guest typed: nothing of theirs to turn into a message.
    expect(row?.text_body).not.toContain("Ann");
    // A mail scanner fetching the link changes nothing: only its button does.
    const { confirm, done } = await followSignUpLink(new Browser(HOST), link);
    expect(text(confirm.html)).toContain("Finish creating my account");
    expect(done.status).toBe(200);
    expect(text(done.html)).toContain("Your account is ready");
    expect(await memberCount("ann@example.com")).toBe(1);
    const stored = await env.DB.prepare("SELECT password_hash FROM members WHERE email = 'ann@example.com'").first<{
      password_hash: string;
    }>();
    expect(stored?.password_hash).toMatch(/^100000\$/);
    expect((await signIn(new Browser(HOST), "ann@example.com", "/en-US/about", "ann-password-1")).status).toBe(303);
    // Followed again: refused, nothing changes.
    const twice = await followSignUpLink(new Browser(HOST), link);
    expect(twice.done.status).toBe(400);
    expect(text(twice.done.html)).toContain("This link has expired or was already used.");
  });

  it("answers a taken email exactly as a new one, and the owner of the address claims it by the link (decision 071)", async () => {
    await addMember(HOST, "taken@example.com");
    const browser = new Browser(HOST, [], "198.51.100.81");
    const { form } = await openSignUp(browser);
    const fresh = await browser.request("/account/signup?lang=en-US", {
      ...form,
      last_name: "Wu",
      first_name: "Bo",
      email: "fresh@example.com",
      phone: "0912 000 111",
      password: "fresh-password-1",
    });
    const taken = await browser.request("/account/signup?lang=en-US", {
      ...form,
      last_name: "Wu",
      first_name: "Bo",
      email: "TAKEN@example.com",
      phone: "0912 000 111",
      password: "claimed-password-1",
    });
    expect(taken.status).toBe(fresh.status);
    expect(text(taken.html).replace("taken@example.com", "…").replace("TAKEN@example.com", "…")).toBe(
      text(fresh.html).replace("fresh@example.com", "…"),
    );
    // Until the link is followed, the member's password is what it was.
    expect((await signIn(new Browser(HOST), "taken@example.com", "/", "claimed-password-1")).status).toBe(401);
    const member = new Browser(HOST);
    expect((await signIn(member, "taken@example.com", "/en-US/about")).status).toBe(303);
    const { done } = await followSignUpLink(new Browser(HOST), (await signUpMail("taken@example.com")).link);
    expect(done.status).toBe(200);
    expect(await memberCount("taken@example.com")).toBe(1);
    // The owner's password now; the old one no longer; whoever was signed in with it is signed out.
    expect((await signIn(new Browser(HOST), "taken@example.com", "/", "claimed-password-1")).status).toBe(303);
    expect((await signIn(new Browser(HOST), "taken@example.com", "/", PASSWORD)).status).toBe(401);
    // The booking page asks the back end, which no longer knows the token: the site signs them out (decision 023).
    await member.request("/en-US/hxa/booking?adults=2");
    expect(text((await member.request("/en-US/about")).html)).not.toContain("Signed in as");
  });

  it("a burst of sign-ups from one caller meets a captcha after three, then a refusal after ten, in the guest's language; another caller is not asked", async () => {
    const address = "2001:db8:5:5::1";
    let shown = { status: 0, html: "", location: null as string | null };
    for (let i = 0; i < 10; i++) {
      // Each from another address of the same /64: one caller.
      const browser = new Browser(HOST, [], `2001:db8:5:5::${i + 1}`);
      const { form } = await openSignUp(browser);
      const fields = {
        ...form,
        last_name: "Bot",
        first_name: "Net",
        email: `burst${i}@example.com`,
        phone: "0912 000 111",
        password: "burst-password-1",
      };
      shown = await browser.request("/account/signup?lang=en-US", fields);
      if (i < 3) {
        expect(shown.status, `sign-up ${i + 1}`).toBe(200);
        continue;
      }
      expect(shown.status, `sign-up ${i + 1}`).toBe(400);
      expect(text(shown.html)).toContain("Many accounts were requested from your connection. Please confirm you are a person.");
      expect(shown.html).toContain('value="burst' + i + '@example.com"');
      shown = await browser.request("/account/signup?lang=en-US", {
        ...fields,
        captcha_token: hidden(shown.html, "captcha_token"),
        captcha_answer: answerQuestion(captchaQuestion(shown.html)),
      });
      expect(shown.status, `sign-up ${i + 1} with the challenge`).toBe(200);
    }
    const browser = new Browser(HOST, [], address);
    const { form } = await openSignUp(browser, "ja-JP");
    const refused = await browser.request("/account/signup?lang=ja-JP", {
      ...form,
      last_name: "Bot",
      first_name: "Net",
      email: "burst-last@example.com",
      phone: "0912 000 111",
      password: "burst-password-1",
    });
    expect(refused.status).toBe(429);
    expect(text(refused.html)).toContain("お使いの接続から多数のアカウントが申請されました。1時間後にもう一度お試しください。");
    const other = new Browser(HOST, [], "2001:db8:5:6::1");
    const accepted = await other.request("/account/signup?lang=en-US", {
      ...(await openSignUp(other)).form,
      last_name: "Li",
      first_name: "Lu",
      email: "neighbour-signup@example.com",
      phone: "0912 000 111",
      password: "lu-password-12",
    });
    expect(accepted.status).toBe(200);
  });

  it("sends one address at most three sign-up emails a day, answering the same", async () => {
    for (let i = 0; i < 5; i++) {
      const browser = new Browser(HOST, [], `192.0.2.${100 + i}`);
      const { form } = await openSignUp(browser);
      const answer = await browser.request("/account/signup?lang=en-US", {
        ...form,
        last_name: "Flood",
        first_name: "Ed",
        email: "target@example.com",
        phone: "0912 000 111",
        password: "flood-password-1",
      });
      expect(answer.status).toBe(200);
      expect(text(answer.html)).toContain("We sent a message to target@example.com.");
    }
    const sent = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE to_address = 'target@example.com'").first<{
      n: number;
    }>();
    expect(sent?.n).toBe(3);
  });
});

describe("names at sign-up (decision 052)", () => {
  /** The sign-up page of a new sign-in in `lang`, and its form's hidden fields. */
  async function signUpForm(browser: Browser, lang = "en-US") {
    const login = await browser.request(`/${lang}/hxa/login?back=/`);
    const authorize = await browser.request(follow(login.location));
    const link = /href="(\/account\/signup\?[^"]+)"/.exec(authorize.html)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const page = await browser.request(link);
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
      form[name] = hidden(page.html, name);
    return form;
  }
  const fieldError = (html: string, name: string) => new RegExp(`id="f-${name}-error">([^<]*)<`).exec(html)?.[1] ?? null;
  const members = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM members").first<{ n: number }>())?.n ?? -1;

  it("refuses NUL, CR LF, BEL, a right-to-left override and every direction control in a name, at the field, and writes no member", async () => {
    const browser = new Browser(HOST);
    const form = await signUpForm(browser);
    const before = await members();
    const controls = [
      "\u0000",
      "\r\n",
      "\u0007",
      "\u001b",
      "\u007f",
      "\u0085",
      "\u202A",
      "\u202B",
      "\u202C",
      "\u202D",
      "\u202E",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
      "\u200E",
      "\u200F",
      "\u061C",
    ];
    for (const control of controls) {
      const refused = await browser.request("/account/signup?lang=en-US", {
        ...form,
        last_name: `Ch${control}en`,
        first_name: `Ann${control}`,
        email: "bidi@example.com",
        phone: "0912 000 111",
        password: "ann-password-1",
      });
      const name = JSON.stringify(control);
      expect(refused.status, name).toBe(400);
      expect(fieldError(refused.html, "last_name"), name).toBe(
        "This contains hidden control characters that cannot be used; please type it again.",
      );
      if (control !== "\r\n")
        expect(fieldError(refused.html, "first_name"), name).toBe(
          "This contains hidden control characters that cannot be used; please type it again.",
        );
      expect(fieldError(refused.html, "email"), name).toBeNull();
    }
    // A line break inside the phone number too (the old rule's \s let it through).
    const phone = await browser.request("/account/signup?lang=en-US", {
      ...form,
      last_name: "Chen",
      first_name: "Ann",
      email: "bidi@example.com",
      phone: "0912\r\n000111",
      password: "ann-password-1",
    });
    expect(phone.status).toBe(400);
    expect(fieldError(phone.html, "phone")).toBe("Please enter a valid phone number.");
    expect(await members()).toBe(before);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM signup_requests WHERE email = 'bidi@example.com'").first<{ n: number }>())?.n,
    ).toBe(0);
  });

  it("refuses a link in a name (decision 072), saying so, and keeps no sign-up", async () => {
    const browser = new Browser(HOST, [], "198.51.100.90");
    const form = await signUpForm(browser);
    for (const name of ["https://evil.example/verify", "re-verify at evil.example", "www.evil"]) {
      const refused = await browser.request("/account/signup?lang=en-US", {
        ...form,
        last_name: name,
        first_name: "Ann",
        email: "linky@example.com",
        phone: "0912 000 111",
        password: "ann-password-1",
      });
      expect(refused.status, name).toBe(400);
      expect(fieldError(refused.html, "last_name"), name).toBe("A name cannot contain a web address or a link; please type only the name.");
    }
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM signup_requests WHERE email = 'linky@example.com'").first<{ n: number }>())?.n,
    ).toBe(0);
  });

  it("says so in the guest's language, and takes a right-to-left name", async () => {
    const browser = new Browser(HOST);
    const form = await signUpForm(browser, "ja-JP");
    const refused = await browser.request("/account/signup?lang=ja-JP", {
      ...form,
      last_name: "山田\u202E",
      first_name: "太郎",
      email: "yamada@example.com",
      phone: "090-1234-5678",
      password: "taro-password-1",
    });
    expect(refused.status).toBe(400);
    expect(fieldError(refused.html, "last_name")).toBe("使用できない制御文字が含まれています。もう一度入力してください。");
    const created = await browser.request("/account/signup?lang=ja-JP", {
      ...form,
      last_name: "כהן",
      first_name: "שרה",
      email: "sarah@example.com",
      phone: "+972 50 123 4567",
      password: "sarah-password-1",
    });
    expect(created.status).toBe(200);
    const stored = await env.DB.prepare("SELECT first_name, last_name FROM signup_requests WHERE email = 'sarah@example.com'").first();
    expect(stored).toEqual({ first_name: "שרה", last_name: "כהן" });
  });

  it("a name stored before the rule is shown isolated in the header, without its controls", async () => {
    await addMember(HOST, "legacy@example.com");
    await env.DB.prepare("UPDATE members SET last_name = ? WHERE email = 'legacy@example.com'").bind("Lin\u202E\u0007").run();
    const browser = new Browser(HOST);
    await signIn(browser, "legacy@example.com", "/en-US/about");
    const page = await browser.request("/en-US/about");
    expect(page.html).toContain("Signed in as <bdi>Mei Lin</bdi>");
    expect(page.html).not.toContain("\u202E");
  });
});

describe("signing in on the site", () => {
  it("returns to the saved address with mem_token and pms_token, shows who is signed in, and member prices", async () => {
    const browser = new Browser(HOST);
    const login = await browser.request(`/en-US/hxa/login?back=${encodeURIComponent("/en-US/about")}`);
    const cookies = (
      await fetchAs(HOST, `/en-US/hxa/login?back=${encodeURIComponent("/en-US/about")}`, { redirect: "manual" })
    ).headers.getSetCookie();
    const back = cookies.find((cookie) => cookie.startsWith("login_back_url="));
    expect(back).toMatch(/HttpOnly/i);
    expect(back).toMatch(/Secure/i);
    expect(back).toMatch(/SameSite=Lax/i);
    const authorizeUrl = new URL(login.location ?? "");
    expect(authorizeUrl.pathname).toBe("/account/oauth/authorize");
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      client_id: HOST,
      response_type: "code",
      redirect_uri: CALLBACK,
      role: "mem",
      code_challenge_method: "S256",
    });

    const done = await signIn(new Browser(HOST), "mei@example.com");
    expect(done.status).toBe(303);
    expect(done.location).toBe("/en-US/about");
    const signedIn = new Browser(HOST);
    const response = await signInRaw(signedIn, "mei@example.com");
    const set = response.headers.getSetCookie();
    for (const name of ["mem_token", "pms_token"]) {
      const cookie = set.find((line) => line.startsWith(`${name}=`));
      expect(cookie, name).toMatch(/HttpOnly/i);
      expect(cookie, name).toMatch(/Secure/i);
      expect(cookie, name).toMatch(/SameSite=Lax/i);
    }
    const about = await signedIn.request("/en-US/about");
    expect(text(about.html)).toContain("Signed in as Mei Lin");
    expect(text(about.html)).toContain("My orders");
    const booking = await signedIn.request("/en-US/hxa/booking?adults=2");
    expect(booking.status).toBe(200);
  });

  /** The sign-in form of a new sign-in on the site, as `browser` sees it: its hidden fields and page. */
  const openSignIn = (browser: Browser, lang = "en-US") => openSignInAt(browser, HOST, lang);

  it("asks a captcha after three wrong passwords, of that address on that account only: the right password from elsewhere signs in (decision 070)", async () => {
    await addMember(HOST, "limited@example.com");
    const guesser = new Browser(HOST, [], "203.0.113.50");
    const { form } = await openSignIn(guesser);
    for (let i = 0; i < 3; i++) {
      const wrong = await guesser.request("/account/signin?lang=en-US", {
        ...form,
        email: "limited@example.com",
        password: "wrong-password",
      });
      expect(wrong.status).toBe(401);
      expect(text(wrong.html)).toContain("The email or password is not correct.");
      // The third failure already shows the challenge for the next attempt, in the same form.
      expect(wrong.html.includes('name="captcha_answer"'), `attempt ${i + 1}`).toBe(i === 2);
    }
    // The right password without an answer: not checked, the challenge again, the email kept.
    const unanswered = await guesser.request("/account/signin?lang=en-US", { ...form, email: "limited@example.com", password: PASSWORD });
    expect(unanswered.status).toBe(400);
    expect(text(unanswered.html)).toContain("please confirm you are a person before signing in again");
    expect(unanswered.html).toContain('value="limited@example.com"');
    // Two more wrong passwords, each after a passed challenge: five failures on the account in all,
    // which once locked it for everyone.
    let shown = unanswered;
    for (let i = 0; i < 2; i++) {
      shown = await guesser.request("/account/signin?lang=en-US", {
        ...form,
        email: "limited@example.com",
        password: "wrong-again",
        captcha_token: hidden(shown.html, "captcha_token"),
        captcha_answer: answerQuestion(captchaQuestion(shown.html)),
      });
      expect(shown.status).toBe(401);
    }
    // The same account from another address, the right password: signed in, no challenge.
    const owner = new Browser(HOST, [], "198.51.100.60");
    const ownerForm = await openSignIn(owner);
    const signedIn = await owner.request("/account/signin?lang=en-US", {
      ...ownerForm.form,
      email: "limited@example.com",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    // Another account from the guessing address: no challenge either.
    await addMember(HOST, "neighbour@example.com");
    const neighbour = await guesser.request("/account/signin?lang=en-US", { ...form, email: "neighbour@example.com", password: PASSWORD });
    expect(neighbour.status).toBe(303);
  });

  it.each([
    ["en-US", "That answer did not match. Here is a new challenge; please try again.", "Your answer"],
    ["ja-JP", "回答が一致しませんでした。新しい問題を表示しましたので、もう一度お試しください。", "回答"],
  ])(
    "in %s the challenge is refused once when wrong, then passed with the question's answer, and signs in",
    async (lang, wrongMessage, label) => {
      const email = `captcha-${lang}@example.com`;
      await addMember(HOST, email);
      const browser = new Browser(HOST, [], `203.0.113.${lang === "en-US" ? 61 : 62}`);
      const { form } = await openSignIn(browser, lang);
      let page = { status: 0, html: "", location: null as string | null };
      for (let i = 0; i < 3; i++)
        page = await browser.request(`/account/signin?lang=${lang}`, { ...form, email, password: "wrong-password" });
      expect(text(page.html)).toContain(label);
      expect(page.html).toMatch(/<img src="data:image\/svg\+xml;base64,[^"]+" alt="[^"]+" width="220" height="72">/);
      const wrong = await browser.request(`/account/signin?lang=${lang}`, {
        ...form,
        email,
        password: PASSWORD,
        captcha_token: hidden(page.html, "captcha_token"),
        captcha_answer: String(Number(answerQuestion(captchaQuestion(page.html))) + 1),
      });
      expect(wrong.status).toBe(400);
      expect(text(wrong.html)).toContain(wrongMessage);
      expect(wrong.html).toContain('aria-invalid="true"');
      expect(wrong.html).toContain(`value="${email}"`);
      expect(hidden(wrong.html, "captcha_token")).not.toBe(hidden(page.html, "captcha_token"));
      // The right answer to the challenge already spent does not pass.
      const replayed = await browser.request(`/account/signin?lang=${lang}`, {
        ...form,
        email,
        password: PASSWORD,
        captcha_token: hidden(page.html, "captcha_token"),
        captcha_answer: answerQuestion(captchaQuestion(page.html)),
      });
      expect(replayed.status).toBe(400);
      const passed = await browser.request(`/account/signin?lang=${lang}`, {
        ...form,
        email,
        password: PASSWORD,
        captcha_token: hidden(replayed.html, "captcha_token"),
        captcha_answer: answerQuestion(captchaQuestion(replayed.html)),
      });
      expect(passed.status).toBe(303);
      const callback = await browser.request(follow(passed.location));
      expect(callback.status).toBe(303);
      // Signed in: the header names the member, given name first in English, family name first in Japanese (decision 086).
      expect(text((await browser.request(follow(callback.location))).html)).toContain(lang === "en-US" ? "Mei Lin" : "Lin Mei");
      // Signed in, the address starts afresh on this account: the next sign-in asks nothing.
      const again = await openSignIn(new Browser(HOST, [], `203.0.113.${lang === "en-US" ? 61 : 62}`), lang);
      expect(again.page.html).not.toContain("captcha_answer");
    },
  );

  it("a passed challenge with a wrong password counts the failure and asks a new challenge", async () => {
    await addMember(HOST, "persistent@example.com");
    const browser = new Browser(HOST, [], "203.0.113.63");
    const { form } = await openSignIn(browser);
    let page = { status: 0, html: "", location: null as string | null };
    for (let i = 0; i < 3; i++)
      page = await browser.request("/account/signin?lang=en-US", { ...form, email: "persistent@example.com", password: "wrong-password" });
    const answered = await browser.request("/account/signin?lang=en-US", {
      ...form,
      email: "persistent@example.com",
      password: "still-wrong",
      captcha_token: hidden(page.html, "captcha_token"),
      captcha_answer: answerQuestion(captchaQuestion(page.html)),
    });
    expect(answered.status).toBe(401);
    expect(text(answered.html)).toContain("The email or password is not correct.");
    expect(answered.html).toContain('name="captcha_answer"');
  });

  it("the new-challenge button draws another challenge and keeps the email, checking nothing", async () => {
    const browser = new Browser(HOST, [], "203.0.113.64");
    const { form } = await openSignIn(browser);
    let page = { status: 0, html: "", location: null as string | null };
    for (let i = 0; i < 3; i++)
      page = await browser.request("/account/signin?lang=en-US", { ...form, email: "mei@example.com", password: "wrong-password" });
    const renewed = await browser.request("/account/signin?lang=en-US", {
      ...form,
      email: "mei@example.com",
      password: "",
      captcha_token: hidden(page.html, "captcha_token"),
      captcha_answer: "",
      captcha_new: "1",
    });
    expect(renewed.status).toBe(200);
    expect(renewed.html).toContain('value="mei@example.com"');
    expect(hidden(renewed.html, "captcha_token")).not.toBe(hidden(page.html, "captcha_token"));
    expect(text(renewed.html)).toContain("Show a new challenge");
    expect(renewed.html).not.toContain("aria-invalid");
  });

  it("asks a captcha of an address that failed on ten accounts, on any account; another address is not asked", async () => {
    const browser = new Browser(HOST, [], "2001:db8:aa:1::1");
    const { form } = await openSignIn(browser);
    for (let i = 0; i < 10; i++)
      expect(
        (await browser.request("/account/signin?lang=en-US", { ...form, email: `nobody${i}@example.com`, password: "wrong-password" }))
          .status,
      ).toBe(401);
    // A neighbour in the same /64 is the same caller.
    const neighbour = new Browser(HOST, [], "2001:db8:aa:1::2");
    const asked = await neighbour.request("/account/signin?lang=en-US", {
      ...(await openSignIn(neighbour)).form,
      email: "ken@example.com",
      password: PASSWORD,
    });
    expect(asked.status).toBe(400);
    expect(asked.html).toContain('name="captcha_answer"');
    const elsewhere = new Browser(HOST, [], "2001:db8:aa:2::1");
    const signedIn = await elsewhere.request("/account/signin?lang=en-US", {
      ...(await openSignIn(elsewhere)).form,
      email: "ken@example.com",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
  });
});

/** Signs in and answers the callback's raw response (to read its Set-Cookie headers). */
async function signInRaw(browser: Browser, email: string): Promise<Response> {
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

describe("OAuth refusals", () => {
  it("exchanges the RFC 7636 appendix B verifier for a token, once", async () => {
    const browser = new Browser(HOST);
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const { code, location } = await codeFor(browser, "mei@example.com", { verifier });
    expect(location?.searchParams.get("state")).toBeTruthy();
    expect(code).toBeTruthy();
    const row = await env.DB.prepare("SELECT code_challenge FROM oauth_codes ORDER BY rowid DESC LIMIT 1").first<{
      code_challenge: string;
    }>();
    expect(row?.code_challenge).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const first = await token(await tokenFields(code ?? "", verifier));
    expect(first.status).toBe(200);
    expect(first.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const reused = await token(await tokenFields(code ?? "", verifier));
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
  });

  it("never redirects to an unregistered redirect_uri", async () => {
    for (const redirectUri of [
      "https://evil.example/hxa/oauth/callback",
      `http://${HOST}/hxa/oauth/callback/`,
      `http://${HOST}/hxa/oauth/callback?x=1`,
      `http://${HOST}/en-US/hxa/oauth/callback`,
      `http://${OTHER}/hxa/oauth/callback`,
    ]) {
      const { answer } = await codeFor(new Browser(HOST), "mei@example.com", { redirectUri });
      expect(answer.status, redirectUri).toBe(400);
      expect(answer.location, redirectUri).toBeNull();
      expect(text(answer.html)).toContain("This sign-in link is not valid.");
    }
  });

  it("refuses a token call with another redirect_uri, a wrong or missing verifier, a wrong secret, or an expired code", async () => {
    const browser = new Browser(HOST);
    const cases: [string, (fields: Record<string, string>) => Record<string, string>, string][] = [
      ["another redirect_uri", (f) => ({ ...f, redirect_uri: `https://${HOST}/hxa/oauth/callback` }), "invalid_grant"],
      ["a wrong verifier", (f) => ({ ...f, code_verifier: randomToken() }), "invalid_grant"],
      ["no verifier", ({ code_verifier: _omit, ...f }) => f, "invalid_grant"],
      ["a wrong client secret", (f) => ({ ...f, client_secret: "not-the-secret" }), "invalid_client"],
    ];
    for (const [name, change, expected] of cases) {
      const { code, verifier } = await codeFor(browser, "mei@example.com");
      const refused = await token(change(await tokenFields(code ?? "", verifier)));
      expect(refused.status, name).toBeGreaterThanOrEqual(400);
      expect(refused.body.error, name).toBe(expected);
    }
    // A code refused once is spent: the right verifier afterwards is refused too.
    const { code, verifier } = await codeFor(browser, "mei@example.com");
    await token({ ...(await tokenFields(code ?? "", verifier)), code_verifier: randomToken() });
    expect((await token(await tokenFields(code ?? "", verifier))).body.error).toBe("invalid_grant");

    const late = await codeFor(browser, "mei@example.com");
    const expired = await token(await tokenFields(late.code ?? "", late.verifier), new Date(Date.now() + 121_000));
    expect(expired.body.error).toBe("invalid_grant");
  });

  it("refuses a state used before", async () => {
    const browser = new Browser(HOST);
    const state = randomToken();
    const first = await codeFor(browser, "mei@example.com", { state });
    expect(first.code).toBeTruthy();
    const again = await codeFor(browser, "mei@example.com", { state });
    expect(again.code).toBeNull();
    expect(again.answer.status).toBe(400);
  });

  it("the site's callback refuses a state it did not start, or one it already used (spec §8: tokens removed)", async () => {
    const browser = new Browser(HOST);
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
    const posted = await browser.request("/account/signin", { ...form, email: "mei@example.com", password: PASSWORD });
    const callback = follow(posted.location);
    const forged = new URL(callback, `http://${HOST}`);
    forged.searchParams.set("state", randomToken());
    const refused = await browser.request(`${forged.pathname}${forged.search}`);
    expect(refused.location).toBe("/en-US/hxa/oauth/callback?error=state");
    const page = await browser.request(refused.location ?? "");
    expect(text(page.html)).toContain("Sign-in did not finish: this sign-in was already used or has timed out.");
    expect(text(page.html)).not.toContain("Signed in as");
    // The pending sign-in was spent by the refusal: the genuine callback is refused too.
    const replay = await browser.request(callback);
    expect(replay.location).toBe("/hxa/oauth/callback?error=state");
    expect(text((await browser.request("/hxa/oauth/callback?error=state")).html)).toContain("登入未完成");

    // A forged callback link does not sign a signed-in member out.
    const member = new Browser(HOST);
    await signIn(member, "mei@example.com", "/en-US/about");
    const forgedLink = await member.request(`/hxa/oauth/callback?code=${randomToken()}&state=${randomToken()}`);
    expect(forgedLink.location).toBe("/hxa/oauth/callback?error=state");
    expect(text((await member.request("/en-US/about")).html)).toContain("Signed in as Mei Lin");
  });
});

describe("the token endpoint is OAuth 2.0 (RFC 6749 §5), as a standard client reads it", () => {
  // oauth4webapi (panva): a strict OAuth 2.0 client nobody here wrote, run inside workerd against the
  // real Worker. It talks to the service at the hotel's address, as any OAuth client of the site would.
  const as: oauth.AuthorizationServer = {
    issuer: `http://${HOST}/account`,
    authorization_endpoint: `http://${HOST}/account/oauth/authorize`,
    token_endpoint: `http://${HOST}/account/oauth/token`,
  };
  const client: oauth.Client = { client_id: HOST };
  const answers: Response[] = [];
  const options = {
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: async (url: string, init: RequestInit) => {
      const response = await SELF.fetch(url, init);
      answers.push(response.clone());
      return response;
    },
  };
  const secret = () => builtInClientSecret(env.SESSION_SECRET as string, HOST);

  /** Authorize in a browser, then let oauth4webapi check the callback and redeem the code. */
  async function redeem(auth: oauth.ClientAuth, change: { verifier?: string; redirectUri?: string; params?: URLSearchParams } = {}) {
    const { verifier, state, location } = await codeFor(new Browser(HOST), "mei@example.com");
    const params = change.params ?? oauth.validateAuthResponse(as, client, location ?? new URL(CALLBACK), state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      params,
      change.redirectUri ?? CALLBACK,
      change.verifier ?? verifier,
      options,
    );
    return { params, verifier, result: oauth.processAuthorizationCodeResponse(as, client, response) };
  }

  async function refusal(promise: Promise<unknown>) {
    const error = await promise.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    const refused = error as oauth.ResponseBodyError;
    return { error: refused.error, status: refused.status, description: refused.error_description };
  }

  it("gives oauth4webapi a token it accepts (client_secret_post and client_secret_basic), never cached, that names the member", async () => {
    for (const auth of [oauth.ClientSecretPost(await secret()), oauth.ClientSecretBasic(await secret())]) {
      answers.length = 0;
      const { result } = await redeem(auth);
      const tokens = await result;
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(tokens.expires_in).toBe(30 * 86_400);
      expect(tokens.scope).toBe("member");
      const answer = answers.at(-1);
      expect(answer?.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer?.headers.get("cache-control")).toBe("no-store");
      expect(answer?.headers.get("pragma")).toBe("no-cache");
      const profile = await apiJson<{ email: string }>(HOST, `/api/member/profile?domain=${HOST}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(profile.body.data.email).toBe("mei@example.com");
    }
  });

  it("refuses, as RFC 6749 §5.2 errors oauth4webapi reads: a wrong secret, a replayed code, a wrong verifier or redirect_uri, another client's code", async () => {
    const wrongSecret = await refusal((await redeem(oauth.ClientSecretPost("not-the-secret"))).result);
    expect(wrongSecret).toMatchObject({ error: "invalid_client", status: 401 });
    expect(wrongSecret.description).toBeTruthy();
    expect(answers.at(-1)?.headers.get("cache-control")).toBe("no-store");
    expect(answers.at(-1)?.headers.get("pragma")).toBe("no-cache");
    // With HTTP Basic the 401 names its scheme (RFC 6749 §5.2), which oauth4webapi reads as a challenge.
    const basic = await (await redeem(oauth.ClientSecretBasic("not-the-secret"))).result.catch((thrown: unknown) => thrown);
    expect(basic).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = basic as oauth.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]).toMatchObject({ scheme: "basic", parameters: { error: "invalid_client" } });
    expect(await challenge.response.json()).toMatchObject({ error: "invalid_client" });

    // A code is good once: the replay is refused, and so is a code refused once for a wrong verifier.
    const first = await redeem(oauth.ClientSecretPost(await secret()));
    expect((await first.result).access_token).toBeTruthy();
    const replay = oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(await secret()),
      first.params,
      CALLBACK,
      first.verifier,
      options,
    );
    expect(await refusal(oauth.processAuthorizationCodeResponse(as, client, await replay))).toMatchObject({
      error: "invalid_grant",
      status: 400,
    });
    expect(
      await refusal((await redeem(oauth.ClientSecretPost(await secret()), { verifier: oauth.generateRandomCodeVerifier() })).result),
    ).toMatchObject({ error: "invalid_grant", status: 400 });
    expect(
      await refusal((await redeem(oauth.ClientSecretPost(await secret()), { redirectUri: `https://${HOST}/hxa/oauth/callback` })).result),
    ).toMatchObject({ error: "invalid_grant", status: 400 });

    // Another hotel's client (with its own right secret) cannot redeem this hotel's code.
    const { verifier, state, location } = await codeFor(new Browser(HOST), "mei@example.com");
    const params = oauth.validateAuthResponse(as, client, location ?? new URL(CALLBACK), state);
    const other: oauth.Client = { client_id: OTHER };
    const stolen = await oauth.authorizationCodeGrantRequest(
      as,
      other,
      oauth.ClientSecretPost(await builtInClientSecret(env.SESSION_SECRET as string, OTHER)),
      params,
      CALLBACK,
      verifier,
      options,
    );
    expect(await refusal(oauth.processAuthorizationCodeResponse(as, other, stolen))).toMatchObject({ error: "invalid_grant", status: 400 });
  });

  it("answers malformed token requests with RFC 6749 errors, never the site envelope", async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      SELF.fetch(`http://${HOST}/account/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    const cases: [string, Response, string, number][] = [
      ["no grant_type", await post(`client_id=${HOST}`), "invalid_request", 400],
      ["the password grant", await post(`grant_type=password&client_id=${HOST}&username=a&password=b`), "unsupported_grant_type", 400],
      ["a repeated parameter", await post(`grant_type=authorization_code&code=a&code=b&client_id=${HOST}`), "invalid_request", 400],
      [
        "no code",
        await post(
          new URLSearchParams({
            grant_type: "authorization_code",
            client_id: HOST,
            client_secret: await secret(),
            redirect_uri: CALLBACK,
          }).toString(),
        ),
        "invalid_request",
        400,
      ],
      [
        "an unknown code",
        await post(
          new URLSearchParams({
            grant_type: "authorization_code",
            client_id: HOST,
            client_secret: await secret(),
            redirect_uri: CALLBACK,
            code: randomToken(),
            code_verifier: randomToken(),
          }).toString(),
        ),
        "invalid_grant",
        400,
      ],
      [
        "an unknown client",
        await post(
          new URLSearchParams({
            grant_type: "authorization_code",
            client_id: "evil.example",
            client_secret: "x",
            redirect_uri: CALLBACK,
            code: randomToken(),
          }).toString(),
        ),
        "invalid_client",
        401,
      ],
      [
        "two ways of client authentication",
        await post(
          new URLSearchParams({
            grant_type: "authorization_code",
            client_id: HOST,
            client_secret: await secret(),
            code: randomToken(),
          }).toString(),
          { authorization: `Basic ${btoa(`${HOST}:${await secret()}`)}` },
        ),
        "invalid_request",
        400,
      ],
      ["a broken Basic header", await post("grant_type=authorization_code", { authorization: "Basic !!!" }), "invalid_client", 401],
      ["an empty body", await post(""), "invalid_request", 400],
      [
        "a body that is not a form",
        await SELF.fetch(`http://${HOST}/account/oauth/token`, {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: "grant_type=authorization_code",
        }),
        "invalid_request",
        400,
      ],
    ];
    for (const [name, response, error, status] of cases) {
      expect(response.status, name).toBe(status);
      expect(response.headers.get("cache-control"), name).toBe("no-store");
      expect(response.headers.get("pragma"), name).toBe("no-cache");
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.error, name).toBe(error);
      expect(typeof body.error_description, name).toBe("string");
      expect(body, name).not.toHaveProperty("success");
    }
  });
});

describe("tokens are worth something only at their own hotel", () => {
  it("the PMS exchange gives a token for the member's hotel only, and neither token works at another hotel", async () => {
    const browser = new Browser(HOST);
    const { code, verifier } = await codeFor(browser, "mei@example.com");
    const memToken = (await token(await tokenFields(code ?? "", verifier))).body.access_token ?? "";
    const exchange = (id: number) =>
      apiJson<{ access_token: string; hotel_id: number }>(HOST, "/pms/oauth/token/exchange?lang=en-US", {
        method: "POST",
        headers: { authorization: `Bearer ${memToken}`, "content-type": "application/json" },
        body: JSON.stringify({ hotel_id: id }),
      });
    const wrong = await exchange(await hotelId(OTHER));
    expect(wrong.status).toBe(403);
    expect(wrong.body.msg.code).toBe("wrong_hotel");
    const right = await exchange(await hotelId(HOST));
    expect(right.status).toBe(200);
    const pms = right.body.data.access_token;
    for (const bearer of [memToken, pms]) {
      const here = await apiJson(HOST, `/api/member/profile?domain=${HOST}`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(here.status).toBe(200);
      const there = await apiJson(OTHER, `/api/member/profile?domain=${OTHER}`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(there.status).toBe(401);
      const orders = await apiJson(OTHER, `/api/ota/order/personal-order-list?domain=${OTHER}`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(orders.status).toBe(401);
    }
    const noToken = await apiJson(HOST, "/pms/oauth/token/exchange", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hotel_id: await hotelId(HOST) }),
    });
    expect(noToken.status).toBe(401);
  });

  it("one-tap names the member for their own hotel's client only", async () => {
    const { code, verifier } = await codeFor(new Browser(HOST), "mei@example.com");
    const memToken = (await token(await tokenFields(code ?? "", verifier))).body.access_token ?? "";
    const tap = (client: string, body = memToken) =>
      apiJson<{ member: { email: string } }>(HOST, "/account/api/v1/onetap", {
        method: "POST",
        headers: { authorization: `Bearer ${memToken}`, "content-type": "application/json" },
        body: JSON.stringify({ client, token: body }),
      });
    expect((await tap(HOST)).body.data.member.email).toBe("mei@example.com");
    expect((await tap(OTHER)).status).toBe(403);
    expect((await tap(HOST, randomToken())).status).toBe(401);
  });
});

describe("login_back_url", () => {
  const VARIANTS = [
    "//evil.com",
    "/\\evil.com",
    "\\/evil.com",
    "https:evil.com",
    "https://evil.com/",
    "%2F%2Fevil.com",
    "/%5Cevil.com",
    "/%2F/evil.com",
    "javascript:alert(1)",
    "/\t/evil.com",
    "http:/evil.com",
    "///evil.com",
  ];
  it.each(VARIANTS)("%j ends on the site", async (variant) => {
    const browser = new Browser(HOST);
    // The first sign-in leaves an account session: the next authorize answers at once with a code.
    await signIn(browser, "mei@example.com", "/");
    const done = await signIn(browser, "mei@example.com", variant);
    expect(done.status).toBe(303);
    const landed = new URL(done.location ?? "", `http://${HOST}`);
    expect(landed.host).toBe(HOST);
    expect(done.location).toBe("/en-US");
  });
});

describe("return addresses with characters nobody sees (issue 37)", () => {
  // A right-to-left override, the other bidi controls, zero-width characters and C0/C1 controls,
  // raw or percent-encoded: the guest returns to the default page instead.
  const UNSEEN = [
    "/\u202Eabout",
    "/%E2%80%AEabout",
    "/en-US/about?q=%E2%81%A6x",
    "/en-US/about%E2%80%8E",
    "/%D8%9Cx",
    "/%E2%80%8Bx",
    "/x%EF%BB%BF",
    "/%C2%85x",
    "/%C2%9Bx",
    "/%25E2%2580%25AEx",
  ];

  it("signing in with one as `back` lands on the home page", async () => {
    const browser = new Browser(HOST);
    // The first sign-in leaves an account session: the next authorize answers at once with a code.
    await signIn(browser, "mei@example.com", "/");
    for (const variant of UNSEEN) {
      const done = await signIn(browser, "mei@example.com", variant);
      expect(done.status, variant).toBe(303);
      expect(done.location, variant).toBe("/en-US");
    }
  });

  it("signing out with one as `back` lands on the home page", async () => {
    const browser = new Browser(HOST);
    // Each sign-out ends the account session, so each sign-in costs a password hash: a few suffice.
    for (const variant of ["/\u202Eabout", "/%E2%80%8Bx", "/%C2%85x"]) {
      await signIn(browser, "mei@example.com", "/en-US/about");
      const page = await browser.request("/en-US/about");
      const token = /name="sign_out_token" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
      const out = await browser.request("/en-US/hxa/logout", { sign_out_token: token, back: variant });
      expect(out.status, variant).toBe(303);
      expect(out.location, variant).toBe("/en-US");
    }
  });
});

describe("signing out", () => {
  it("the header's POST form revokes the tokens and the account session; a GET or a forged form does nothing", async () => {
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com", "/en-US/about");
    const page = await browser.request("/en-US/about");
    const csrf = /action="\/en-US\/hxa\/logout"><input type="hidden" name="sign_out_token" value="([^"]+)"/.exec(page.html)?.[1] ?? "";
    expect(csrf).not.toBe("");
    expect((await browser.request("/en-US/hxa/logout")).status).toBe(303);
    expect((await browser.request("/en-US/hxa/logout", { sign_out_token: "forged", back: "/en-US/about" })).status).toBe(403);
    expect(text((await browser.request("/en-US/about")).html)).toContain("Signed in as Mei Lin");
    const out = await browser.request("/en-US/hxa/logout", { sign_out_token: csrf, back: "/en-US/about" });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/en-US/about");
    const after = text((await browser.request("/en-US/about")).html);
    expect(after).not.toContain("Signed in as");
    expect(after).toContain("Sign in");
    // The account service asks for the password again: its session ended with the token.
    const login = await browser.request("/en-US/hxa/login?back=/");
    expect((await browser.request(follow(login.location))).html).toContain('name="password"');
  });

  it("logout/json answers JSONP and ends the account session; the POST logout form returns to the site", async () => {
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com", "/");
    const jsonp = await fetchAs(HOST, "/account/logout/json?callback=done", {
      headers: {
        cookie: `account_session=${(browser as unknown as { cookies: Map<string, string> }).cookies.get("account_session")}`,
        "sec-fetch-site": "same-origin",
      },
    });
    expect(jsonp.headers.get("content-type")).toMatch(/^application\/javascript/);
    expect(await jsonp.text()).toBe('/**/done({"success":true,"msg":{"code":"ok","message":""}});');
    expect((await fetchAs(HOST, "/account/logout/json?callback=alert(1)//")).status).toBe(400);

    await signIn(browser, "mei@example.com", "/");
    const form = await browser.request(
      `/account/logout?lang=en-US&client_id=${HOST}&redirect_uri=${encodeURIComponent(`http://${HOST}/`)}`,
    );
    expect(text(form.html)).toContain("Sign out");
    expect(form.html).not.toContain("<script");
    expect((await browser.request("/account/logout", { client_id: HOST, redirect_uri: `http://${HOST}/`, csrf: "forged" })).status).toBe(
      403,
    );
    const out = await browser.request("/account/logout", {
      client_id: HOST,
      redirect_uri: `http://${HOST}/`,
      csrf: hidden(form.html, "csrf"),
    });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`http://${HOST}/`);
    const elsewhere = await browser.request("/account/logout", {
      client_id: HOST,
      redirect_uri: "https://evil.example/",
      csrf: hidden(form.html, "csrf"),
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.location).toBeNull();
    const login = await browser.request("/en-US/hxa/login?back=/");
    expect((await browser.request(follow(login.location))).html).toContain('name="password"');
  });
});

describe("the JSONP logout and other sites", () => {
  const cookieOf = (browser: Browser) =>
    [...(browser as unknown as { cookies: Map<string, string> }).cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  /** Still signed in, as the member sees it: a booking page (which asks the back end about the token) keeps the name, and the service needs no password. */
  async function stillSignedIn(browser: Browser) {
    expect((await browser.request("/en-US/hxa/booking?adults=2")).status).toBe(200);
    expect(text((await browser.request("/en-US/about")).html)).toContain("Signed in as Mei Lin");
    const login = await browser.request("/en-US/hxa/login?back=/");
    const authorize = await browser.request(follow(login.location));
    expect(authorize.status).toBe(303);
    expect(authorize.html).not.toContain('name="password"');
  }

  it("a link, redirect or script on another site signs nobody out, whatever the headers say", async () => {
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com", "/en-US/about");
    const attacks: [string, Record<string, string>][] = [
      [
        "a link on another site (Chromium)",
        {
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          "sec-fetch-dest": "document",
          "sec-fetch-user": "?1",
          referer: "https://evil.example/",
        },
      ],
      [
        "another site bouncing the member's own click back",
        { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", referer: `http://${HOST}/en-US/about` },
      ],
      [
        "another hotel on the same parent domain",
        { "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", referer: `http://${OTHER}/` },
      ],
      ["a link opened from a mail app or typed", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }],
      ["an Origin of another site", { origin: "https://evil.example" }],
      ["a sandboxed frame (Origin null) on another site", { origin: "null", referer: "https://evil.example/frame" }],
      ["a Referer of another site", { referer: "https://evil.example/page" }],
      ["a Referer of a look-alike host", { referer: `http://${HOST}.evil.example/` }],
      ["a Referer that is not an address", { referer: "not an address" }],
      ["no header at all (Referrer-Policy: no-referrer, an old browser)", {}],
    ];
    for (const [name, headers] of attacks) {
      const response = await fetchAs(HOST, "/account/logout/json?callback=done&lang=en-US", {
        headers: { cookie: cookieOf(browser), ...headers },
      });
      expect(response.status, name).toBe(403);
      expect(
        response.headers.getSetCookie().some((cookie) => cookie.startsWith("account_session=")),
        name,
      ).toBe(false);
      const body = await response.text();
      expect(body, name).toMatch(/^\/\*\*\/done\(\{"success":false,"msg":\{"code":"cross_site_request"/);
      expect(body, name).toContain("A sign-out from another site is not accepted.");
    }
    const japanese = await fetchAs(HOST, "/account/logout/json?callback=done&lang=ja-JP", {
      headers: { cookie: cookieOf(browser), "sec-fetch-site": "cross-site" },
    });
    expect(await japanese.text()).toContain("他のサイトからのログアウト要求は受け付けません。");
    await stillSignedIn(browser);
  });

  it("a script or link on the service's own pages signs out (Fetch Metadata, or Origin or Referer when a browser sends none)", async () => {
    const cases: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin", "sec-fetch-dest": "script", "sec-fetch-mode": "no-cors" },
      { referer: `http://${HOST}/en-US/about` },
      { origin: `http://${HOST}` },
    ];
    for (const headers of cases) {
      const browser = new Browser(HOST);
      await signIn(browser, "mei@example.com", "/en-US/about");
      const response = await fetchAs(HOST, "/account/logout/json?callback=done", { headers: { cookie: cookieOf(browser), ...headers } });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await response.text()).toBe('/**/done({"success":true,"msg":{"code":"ok","message":""}});');
      // The session's tokens ended with it: the next booking page finds the member signed out.
      await browser.request("/en-US/hxa/booking?adults=2");
      expect(text((await browser.request("/en-US/about")).html), JSON.stringify(headers)).not.toContain("Signed in as");
    }
  });
});

describe("a hotel whose member system is closed", () => {
  it("shows no member feature and its sign-in addresses do not exist", async () => {
    const home = await new Browser(CLOSED).request("/en-US/about");
    expect(text(home.html)).not.toContain("Sign in");
    expect(home.html).not.toContain("/hxa/login");
    for (const path of ["/en-US/hxa/login?back=/", "/en-US/hxa/orders", "/hxa/oauth/callback?code=x&state=y"]) {
      expect((await new Browser(CLOSED).request(path)).status, path).toBe(404);
    }
    const start = new Date(Date.now() + (8 * 3600 + 30 * 86_400) * 1000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + (8 * 3600 + 31 * 86_400) * 1000).toISOString().slice(0, 10);
    const results = await new Browser(CLOSED).request(`/en-US/hxa/booking?start=${start}&end=${end}&adults=2`);
    expect(text(results.html)).toContain("Room only");
    expect(text(results.html)).not.toContain("Members NT$");
    const search = await apiJson<{ rooms: { price_set: { member_price: number | null }[] }[] }>(
      CLOSED,
      `/api/ota/room/empty-by-date?domain=${CLOSED}&start_date=${start}&end_date=${end}`,
    );
    expect(search.body.data.rooms.flatMap((room) => room.price_set.map((plan) => plan.member_price))).toEqual([null]);
    const query = new URLSearchParams({
      client_id: CLOSED,
      response_type: "code",
      redirect_uri: `http://${CLOSED}/hxa/oauth/callback`,
      role: "mem",
      state: randomToken(),
      code_challenge: await pkceChallenge(randomToken()),
      code_challenge_method: "S256",
    });
    const authorize = await new Browser(CLOSED).request(`/account/oauth/authorize?${query}`);
    expect(authorize.status).toBe(400);
    expect(authorize.location).toBeNull();
  });
});

describe("the edge page cache", () => {
  it("never serves a signed-in member a guest's copy, nor a guest the member's page", async () => {
    await fetchAs(HOST, "/en-US/facilities");
    const guestCopy = await fetchAs(HOST, "/en-US/facilities");
    expect(text(await guestCopy.text())).not.toContain("Signed in as");
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com", "/en-US/facilities");
    const cookies = (browser as unknown as { cookies: Map<string, string> }).cookies;
    const own = await fetchAs(HOST, "/en-US/facilities", { headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
    expect(own.headers.get("x-edge-cache")).toBeNull();
    expect(text(await own.text())).toContain("Signed in as Mei Lin");
    expect(text(await (await fetchAs(HOST, "/en-US/facilities")).text())).not.toContain("Signed in as");
  });
});

describe("the old member cookie", () => {
  it("moves to mem_token and pms_token", async () => {
    const row = await env.DB.prepare("SELECT id FROM members WHERE email = 'ken@example.com'").first<{ id: number }>();
    const legacy = await memberSessionCookie(env as unknown as AppEnv).serialize({
      domain: HOST,
      token: await issueMemberToken(env.DB, row?.id ?? 0),
    });
    const response = await fetchAs(HOST, "/en-US/about", { headers: { cookie: legacy.split(";")[0] ?? "" } });
    const set = response.headers.getSetCookie();
    expect(set.some((cookie) => cookie.startsWith("mem_token=") && /HttpOnly/i.test(cookie))).toBe(true);
    expect(set.some((cookie) => cookie.startsWith("pms_token="))).toBe(true);
    expect(set.some((cookie) => cookie.startsWith("member=;") || /^member=.*Max-Age=0/i.test(cookie))).toBe(true);
  });
});

describe("spec §8: failing at the exchange step", () => {
  interface Worker {
    fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response>;
  }
  it("removes the tokens and shows the alert, in the guest's language", async () => {
    const worker = ((await import(/* @vite-ignore */ BUILT_WORKER)) as { default: Worker }).default;
    const backends = inject("brokenBackends");
    const vars = { ...env, PMS_ORIGIN: backends.garbage };
    const cookies = new Map<string, string>();
    const get = async (path: string, form?: Record<string, string>) => {
      const ctx = createExecutionContext();
      const init: RequestInit = { headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") }, redirect: "manual" };
      if (form)
        Object.assign(init, {
          method: "POST",
          body: new URLSearchParams(form),
          headers: { ...(init.headers as object), "content-type": "application/x-www-form-urlencoded" },
        });
      const response = await worker.fetch(new Request(`http://${HOST}${path}`, init), vars, ctx);
      await waitOnExecutionContext(ctx);
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        if (/max-age=0/i.test(line)) cookies.delete(pair.slice(0, at));
        else cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return { response, html: await response.text() };
    };
    const login = await get("/ja-JP/hxa/login?back=/ja-JP/about");
    const authorize = await get(follow(login.response.headers.get("location")));
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
    const posted = await get("/account/signin", { ...form, email: "mei@example.com", password: PASSWORD });
    const callback = await get(follow(posted.response.headers.get("location")));
    expect(callback.response.headers.get("location")).toBe("/ja-JP/hxa/oauth/callback?error=exchange");
    expect(cookies.has("mem_token")).toBe(false);
    expect(cookies.has("pms_token")).toBe(false);
    const page = await get("/ja-JP/hxa/oauth/callback?error=exchange");
    expect(text(page.html)).toContain("システムへのログイン中にエラーが発生しました。しばらくしてからもう一度お試しください。");
    expect(page.html).toContain('role="alert"');
  });
});

describe("my orders", () => {
  /** A member token and this hotel's token for `email`, as the site's sign-in gets them. */
  async function tokensOf(email: string) {
    const { code, verifier } = await codeFor(new Browser(HOST), email);
    const mem = (await token(await tokenFields(code ?? "", verifier))).body.access_token ?? "";
    const pms = await apiJson<{ access_token: string }>(HOST, "/pms/oauth/token/exchange", {
      method: "POST",
      headers: { authorization: `Bearer ${mem}`, "content-type": "application/json" },
      body: JSON.stringify({ hotel_id: await hotelId(HOST) }),
    });
    return { mem, pms: pms.body.data.access_token };
  }

  it("lists the member's own orders, newest first, each linking to its page; nobody else reaches them", async () => {
    const room = await env.DB.prepare("SELECT rc.id FROM room_classes rc JOIN hotels h ON h.id = rc.hotel_id WHERE h.domain = ?")
      .bind(HOST)
      .first<{ id: number }>();
    const plan = await env.DB.prepare("SELECT rp.id FROM rate_plans rp JOIN hotels h ON h.id = rp.hotel_id WHERE h.domain = ?")
      .bind(HOST)
      .first<{ id: number }>();
    const mei = await tokensOf("mei@example.com");
    const day = (offset: number) => new Date(Date.now() + (8 * 3600 + offset * 86_400) * 1000).toISOString().slice(0, 10);
    const place = async (offset: number) => {
      const created = await apiJson<{ order_doc: string }>(HOST, "/api/ota/order/personal-new?lang=en-US", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${mei.pms}`,
          "idempotency-key": `my-orders-${offset}-${Date.now()}`,
        },
        body: JSON.stringify({
          domain: HOST,
          ...BOOKER,
          booking_from: "HXA",
          check_in_day: day(offset),
          check_out_day: day(offset + 1),
          pay_way: "remittance",
          payment_vendor: 8,
          pay_option: "all",
          orders: [{ room_class_id: room?.id, proposal_id: plan?.id, num: 1, occupant_name: "Mei Lin" }],
          adults_count: 2,
          children_count: 0,
        }),
      });
      expect(created.status).toBe(201);
      return created.body.data.order_doc;
    };
    const older = await place(50);
    const newer = await place(52);

    // Mei, signed in on the site: both, newest first, linked to their pages.
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com");
    const list = await browser.request("/en-US/hxa/orders");
    expect(list.status).toBe(200);
    const docs = [...list.html.matchAll(/data-order="([^"]+)"/g)].map((match) => match[1]);
    expect(docs.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(docs.indexOf(newer)).toBeLessThan(docs.indexOf(older));
    const href = new RegExp(`href="(/en-US/hxa/orders/${newer})"`).exec(list.html)?.[1] ?? "";
    expect(href).not.toBe("");
    const receipt = await browser.request(href);
    expect(receipt.status).toBe(200);
    expect(text(receipt.html)).toContain(newer);
    const cancelled = await browser.request("/en-US/hxa/orders?status=cancelled");
    expect(cancelled.html).not.toContain(`data-order="${newer}"`);

    // Ken, another member of the same hotel: not in his list, not by number, not cancellable.
    const ken = await tokensOf("ken@example.com");
    const kenBrowser = new Browser(HOST);
    await signIn(kenBrowser, "ken@example.com");
    expect((await kenBrowser.request("/en-US/hxa/orders")).html).not.toContain(newer);
    const byNumber = await apiJson<unknown[]>(HOST, `/api/ota/order/personal-order-list?domain=${HOST}&order_doc=${newer}`, {
      headers: { authorization: `Bearer ${ken.pms}` },
    });
    expect(byNumber.body.data).toEqual([]);
    const cancel = await apiJson(HOST, `/api/wota/order/cancel_apply/${newer}?lang=en-US`, {
      method: "POST",
      headers: { authorization: `Bearer ${ken.pms}`, "content-type": "application/json" },
      body: JSON.stringify({ domain: HOST, reason: "" }),
    });
    expect(cancel.status).toBe(404);

    // An anonymous guest: sent to sign in; the API refuses; the order page needs its signed link.
    const guest = new Browser(HOST);
    const asked = await guest.request("/en-US/hxa/orders");
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`/en-US/hxa/login?back=${encodeURIComponent("/en-US/hxa/orders")}`);
    expect((await apiJson(HOST, `/api/ota/order/personal-order-list?domain=${HOST}`)).status).toBe(401);
    expect((await guest.request(`/en-US/redirect/receipt/${newer}`)).status).toBe(404);
    expect((await guest.request(`/en-US/hxa/orders/${newer}`)).status).toBe(404);
    expect((await kenBrowser.request(`/en-US/hxa/orders/${newer}`)).status).toBe(404);

    // Mei's tokens at another hotel: worthless.
    expect(
      (await apiJson(OTHER, `/api/ota/order/personal-order-list?domain=${OTHER}`, { headers: { authorization: `Bearer ${mei.pms}` } }))
        .status,
    ).toBe(401);
    expect(
      (await apiJson(OTHER, `/api/ota/order/personal-order-list?domain=${OTHER}`, { headers: { authorization: `Bearer ${mei.mem}` } }))
        .status,
    ).toBe(401);
  });
});

describe("members-only plans", () => {
  it("are listed, priced and booked for a signed-in member only", async () => {
    const start = new Date(Date.now() + (8 * 3600 + 30 * 86_400) * 1000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + (8 * 3600 + 31 * 86_400) * 1000).toISOString().slice(0, 10);
    const search = `/api/ota/room/empty-by-date?domain=${HOST}&start_date=${start}&end_date=${end}&lang=en-US`;
    const names = (body: { data: { rooms: { price_set: { proposal_name: string }[] }[] } }) =>
      body.data.rooms.flatMap((room) => room.price_set.map((plan) => plan.proposal_name));
    const guest = await apiJson<{ rooms: { price_set: { proposal_name: string }[] }[] }>(HOST, search);
    expect(names(guest.body)).toContain("Room only");
    expect(names(guest.body)).not.toContain("Member early bird");

    const { code, verifier } = await codeFor(new Browser(HOST), "mei@example.com");
    const mem = (await token(await tokenFields(code ?? "", verifier))).body.access_token ?? "";
    const member = await apiJson<{ rooms: { room_class_id: number; price_set: { proposal_name: string; proposal_id: number }[] }[] }>(
      HOST,
      search,
      { headers: { authorization: `Bearer ${mem}` } },
    );
    expect(names(member.body)).toContain("Member early bird");
    const room = member.body.data.rooms[0];
    const plan = room?.price_set.find((candidate) => candidate.proposal_name === "Member early bird");

    const order = (authorization?: string) =>
      apiJson(HOST, "/api/ota/order/personal-new?lang=en-US", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "idempotency-key": `members-only-${authorization ? "m" : "g"}-${Date.now()}`,
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({
          domain: HOST,
          ...BOOKER,
          booking_from: "HXA",
          check_in_day: start,
          check_out_day: end,
          pay_way: "remittance",
          payment_vendor: 8,
          pay_option: "all",
          orders: [{ room_class_id: room?.room_class_id, proposal_id: plan?.proposal_id, num: 1, occupant_name: "Mei Lin" }],
          adults_count: 2,
          children_count: 0,
        }),
      });
    const refused = await order();
    expect(refused.status).toBe(401);
    expect(refused.body.msg.code).toBe("member_only");
    expect(refused.body.msg.extrainfo?.field).toBe("orders.0.proposal_id");
    expect((await order(`Bearer ${mem}`)).status).toBe(201);

    // On the site: hidden from a guest, shown and labelled for the signed-in member.
    const page = `/en-US/hxa/booking?start=${start}&end=${end}&adults=2`;
    expect(text((await new Browser(HOST).request(page)).html)).not.toContain("Member early bird");
    const browser = new Browser(HOST);
    await signIn(browser, "mei@example.com");
    const signedIn = text((await browser.request(page)).html);
    expect(signedIn).toContain("Member early bird");
    expect(signedIn).toContain("Members-only plan");
  });
});
