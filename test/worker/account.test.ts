/**
 * The built-in account service's pages and signing in on the site, through the real Worker and D1 as
 * a browser without JavaScript would: sign-up and its emailed link, names, the sign-in form, its
 * captcha and limits. Tokens, refusals, sign-out and the rest are in account-tokens.test.ts (decision
 * 158: one workerd instance per file serves fewer requests).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  Browser,
  answerQuestion,
  captchaQuestion,
  fetchAs,
  fixtureHotel,
  hidden,
  loadHotel,
  openSignIn as openSignInAt,
  text,
} from "./helpers";
import { accountHotels, CALLBACK, HOST, PASSWORD, addMember, follow, signIn, signInRaw } from "./account-fixture";

// Each sign-in derives PBKDF2 at 100,000 iterations (the deployed cap) and several tests sign in more
// than once: on a shared two-core machine running other test files, past the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

accountHotels("account");

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
    const sent = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM mail_outbox WHERE to_address = 'target@example.com' AND hotel_id = (SELECT id FROM hotels WHERE domain = ?)",
    )
      .bind(HOST)
      .first<{ n: number }>();
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
