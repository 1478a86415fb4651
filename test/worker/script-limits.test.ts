/**
 * Limits a script cannot walk through (issue 37, decision 132), through the real Worker and D1, as
 * the attacker of issue 37 tried them: the captcha's question answered by a script on every
 * attempt, 40 wrong passwords on one account; pay-at-arrival orders from eight /64s of one /48,
 * each naming a new mailbox and phone, holding a room class; one Gmail mailbox spelled nine ways at
 * sign-up. A challenge is a speed bump: behind each there is a ceiling it does not lift, and a way
 * in that proves more than a sum (an emailed link, or paying online).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, todayIn } from "~/domain/dates";
import { hashPassword } from "~/backend/account/passwords";
import {
  accountFormFields,
  BOOKER,
  Browser,
  answerQuestion,
  apiJson,
  captchaQuestion,
  fixtureHotel,
  hidden,
  hotelRefs,
  loadHotel,
  openSignIn as openSignInAt,
  text,
  type HotelRefs,
} from "./helpers";

// Each sign-in derives PBKDF2 (100,000 iterations) and these tests sign in dozens of times.
vi.setConfig({ testTimeout: 120_000 });

const SIGNIN = "limits-signin.localhost";
const SHARE = "limits-share.localhost";
const NETWORK = "limits-network.localhost";
const PASSWORD = "correct-horse-37";
const today = todayIn("Asia/Taipei");
const refs: Record<string, HotelRefs> = {};

/** A hotel of the shipped limits, taking pay at arrival, bank transfer and cards (the built-in test gateway). */
async function limitsHotel(domain: string, rooms: number) {
  await loadHotel(
    fixtureHotel(domain, (file) => {
      const hotel = file.hotel as Record<string, unknown>;
      hotel.payment_list = [
        { vendor_id: 1, method: "credit" },
        { vendor_id: 8, method: "remittance" },
        { vendor_id: 14, method: "pay_arrival" },
      ];
      hotel.payment_gateways = [{ vendor_id: 1, provider: "sandbox", merchant_id: "2000132" }];
      hotel.payment_deadlines = {};
      hotel.abuse_limits = {};
      file.room_classes[0]!.total_rooms = rooms;
    }),
  );
  refs[domain] = await hotelRefs(domain);
}

beforeAll(async () => {
  await limitsHotel(SIGNIN, 3);
  await limitsHotel(SHARE, 4);
  await limitsHotel(NETWORK, 40);
  await env.DB.prepare(
    "INSERT INTO members (hotel_id, email, first_name, last_name, phone, points, password_hash) VALUES (?, 'owner@example.com', 'Mei', 'Lin', '0912345678', 0, ?)",
  )
    .bind(refs[SIGNIN]!.id, await hashPassword(PASSWORD))
    .run();
});

/** A same-host Location as a path the Browser follows. */
function path(location: string | null): string {
  expect(location).not.toBeNull();
  const url = new URL(location ?? "", `http://${SIGNIN}`);
  expect(url.host).toBe(SIGNIN);
  return `${url.pathname}${url.search}`;
}

/** The sign-in form of a new sign-in on the hotel's site, as `browser` sees it. */
async function openSignIn(browser: Browser, lang = "en-US") {
  const opened = await openSignInAt(browser, SIGNIN, lang);
  expect(opened.page.status).toBe(200);
  return opened;
}

/**
 * The three-line script of issue 37: send the password; when the answer asks a challenge, read its
 * question, answer it and send the password again with it.
 */
async function scriptedAttempt(browser: Browser, form: Record<string, string>, password: string, lang = "en-US") {
  const send = (challenge: Record<string, string>) =>
    browser.request(`/account/signin?lang=${lang}`, { ...form, email: "owner@example.com", password, ...challenge });
  let answer = await send({});
  for (let i = 0; i < 2 && answer.status === 400 && answer.html.includes('name="captcha_answer"'); i++)
    answer = await send({
      captcha_token: hidden(answer.html, "captcha_token"),
      captcha_answer: answerQuestion(captchaQuestion(answer.html)),
    });
  return answer;
}

describe("password guessing has a ceiling a solved challenge does not lift", () => {
  it("40 wrong passwords with every challenge solved: checked ten times, then refused for that caller only; the owner signs in from elsewhere, and by an emailed link from the refused address", async () => {
    const guesser = new Browser(SIGNIN, [], "203.0.113.37");
    const { form, page } = await openSignIn(guesser);
    // The sign-in page offers the emailed link to everyone, before anything went wrong.
    expect(text(page.html)).toContain("Email me a sign-in link");
    let shown = page.html;
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const answer = await scriptedAttempt(guesser, form, `guess-${i}`);
      statuses.push(answer.status);
      shown = answer.html;
    }
    // Nine wrong passwords answered "not correct", the tenth and every one after it refused unchecked.
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(9).every((status) => status === 429)).toBe(true);
    expect(text(shown)).toContain("signing in with a password from here is paused for 24 hours");
    const failures = await env.DB.prepare("SELECT COUNT(*) AS n FROM login_failures WHERE hotel_id = ? AND email = 'owner@example.com'")
      .bind(refs[SIGNIN]!.id)
      .first<{ n: number }>();
    expect(failures?.n).toBe(10);
    // The right password from the guessing address: refused too, never checked.
    const right = await scriptedAttempt(guesser, form, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.location).toBeNull();
    // A neighbour in the guesser's /24 (another caller) and the owner elsewhere sign in as usual.
    const owner = new Browser(SIGNIN, [], "203.0.113.38");
    const ownerForm = await openSignIn(owner);
    expect(
      (await owner.request("/account/signin?lang=en-US", { ...ownerForm.form, email: "owner@example.com", password: PASSWORD })).status,
    ).toBe(303);

    // From the refused address, the owner asks for a link: the same answer a stranger gets.
    const asked = await guesser.request("/account/signin/email-link?lang=en-US", { ...form, email: "Owner@Example.com", password: "" });
    expect(asked.status).toBe(200);
    expect(text(asked.html)).toContain("If Owner@Example.com has a member account here, we sent it a sign-in link.");
    const stranger = await guesser.request("/account/signin/email-link?lang=en-US", { ...form, email: "nobody@example.com", password: "" });
    expect(stranger.status).toBe(200);
    expect(text(stranger.html)).toContain("If nobody@example.com has a member account here, we sent it a sign-in link.");
    const mails = await env.DB.prepare(
      "SELECT to_address, text_body FROM mail_outbox WHERE hotel_id = ? AND kind = 'account_signin_link' ORDER BY id",
    )
      .bind(refs[SIGNIN]!.id)
      .all<{ to_address: string; text_body: string }>();
    expect(mails.results.map((mail) => mail.to_address)).toEqual(["owner@example.com"]);
    const link = /http:\/\/[^\s]+\/account\/signin\/link\?[^\s]+/.exec(mails.results[0]!.text_body)?.[0] ?? "";
    expect(link).toContain(`http://${SIGNIN}/account/signin/link?token=`);

    // Following it: a button (a mail scanner signs nobody in), then signed in on the site.
    const button = await guesser.request(path(link));
    expect(button.status).toBe(200);
    expect(text(button.html)).toContain("Sign me in");
    const followed = await guesser.request("/account/signin/link?lang=en-US", {
      token: hidden(button.html, "token"),
      csrf: hidden(button.html, "csrf"),
    });
    expect(followed.status).toBe(303);
    const login = await guesser.request(path(followed.location));
    const authorize = await guesser.request(path(login.location));
    expect(authorize.status).toBe(303);
    const callback = await guesser.request(path(authorize.location));
    expect(callback.status).toBe(303);
    expect(text((await guesser.request(path(callback.location))).html)).toContain("Mei Lin");
    // The link works once.
    const again = await new Browser(SIGNIN, [], "198.51.100.9").request(path(link));
    expect(again.status).toBe(400);
    expect(text(again.html)).toContain("This sign-in link has expired or was already used.");
  });

  it("a link is refused on another hotel's site, and a sign-up link is no sign-in link", async () => {
    const browser = new Browser(SIGNIN, [], "203.0.113.40");
    const { form } = await openSignIn(browser);
    await browser.request("/account/signin/email-link?lang=en-US", { ...form, email: "owner@example.com", password: "" });
    const mail = await env.DB.prepare(
      "SELECT text_body FROM mail_outbox WHERE hotel_id = ? AND kind = 'account_signin_link' ORDER BY id DESC LIMIT 1",
    )
      .bind(refs[SIGNIN]!.id)
      .first<{ text_body: string }>();
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail?.text_body ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    const elsewhere = new Browser(SHARE, [], "203.0.113.40");
    const shown = await elsewhere.request(`/account/signin/link?token=${token}&lang=en-US`);
    expect(shown.status).toBe(400);
    // Its own site still takes it: the refusal elsewhere spent nothing.
    expect((await browser.request(`/account/signin/link?token=${token}&lang=en-US`)).status).toBe(200);
    // A made-up token of the right shape, or a sign-up link's, opens nothing.
    expect((await browser.request(`/account/signin/link?token=${"A".repeat(43)}&lang=en-US`)).status).toBe(400);
  });

  it("the /64s of one /48 share one ceiling per account; the owner on another network signs in (answering the account's challenge)", async () => {
    // Thirty wrong passwords on the owner from thirty /64s of one /48, each solving its challenges.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const browser = new Browser(SIGNIN, [], `2001:db8:37:${(i + 1).toString(16)}::1`);
      const { form } = await openSignIn(browser);
      statuses.push((await scriptedAttempt(browser, form, `net-guess-${i}`)).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(29);
    expect(statuses.slice(29)).toEqual([429, 429]);
    // Another /48 is another network: the owner there signs in, past the challenge every caller
    // meets on an account that failed twenty times in a quarter of an hour (decision 070).
    const owner = new Browser(SIGNIN, [], "2001:db8:38:1::1");
    expect((await scriptedAttempt(owner, (await openSignIn(owner)).form, PASSWORD)).status).toBe(303);
  });

  it("one caller spraying a password over fifty accounts is refused on any account after it", async () => {
    const sprayer = new Browser(SIGNIN, [], "203.0.113.42");
    const { form } = await openSignIn(sprayer);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const send = (challenge: Record<string, string>) =>
        sprayer.request("/account/signin?lang=en-US", { ...form, email: `spray${i}@example.com`, password: "Summer2026!", ...challenge });
      let answer = await send({});
      if (answer.status === 400)
        answer = await send({
          captcha_token: hidden(answer.html, "captcha_token"),
          captcha_answer: answerQuestion(captchaQuestion(answer.html)),
        });
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 49).every((status) => status === 401)).toBe(true);
    expect(statuses[49]).toBe(429);
    // The owner's own right password from the sprayer's address: refused, unchecked.
    expect((await scriptedAttempt(sprayer, form, PASSWORD)).status).toBe(429);
  });

  it("the refusal is in the guest's language", async () => {
    const guesser = new Browser(SIGNIN, [], "203.0.113.41");
    const { form } = await openSignIn(guesser, "ja-JP");
    let shown = "";
    let last = 0;
    for (let i = 0; i < 10; i++) {
      const answer = await scriptedAttempt(guesser, form, `ja-guess-${i}`, "ja-JP");
      shown = answer.html;
      last = answer.status;
    }
    expect(last).toBe(429);
    expect(text(shown)).toContain("ここからのパスワードでのログインを24時間停止しています");
    expect(text(shown)).toContain("ログインリンクをメールで受け取る");
  });
});

interface OrderAnswer {
  order_doc?: string;
}

/** A one-room order for the same ten nights, as a new guest each time (mailbox, phone) from `address`. */
function holdTenNights(domain: string, i: number, address: string, pay = "pay_arrival", lang = "en-US") {
  const start = addDays(today, 20);
  return apiJson<OrderAnswer>(domain, `/api/ota/order/personal-new?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": address },
    body: JSON.stringify({
      domain,
      ...BOOKER,
      booker_email: `guest${i}-${pay}@catch-all.example`,
      booker_phone: `0912 ${String(100_000 + i * 7919).slice(0, 3)} ${String(i).padStart(3, "0")}`,
      check_in_day: start,
      check_out_day: addDays(start, 10),
      pay_way: pay,
      payment_vendor: pay === "credit" ? 1 : pay === "remittance" ? 8 : 14,
      orders: [{ room_class_id: refs[domain]!.room, proposal_id: refs[domain]!.plan, num: 1 }],
      adults_count: 2,
    }),
  });
}

describe("one actor cannot hold a room class unpaid", () => {
  it("pay-at-arrival orders from eight /64s of one /48 hold half the rooms, then the next is told to pay online, and paying online books", async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await holdTenNights(SHARE, i, `2001:db8:48:${(i * 0x100).toString(16)}::5`));
    // Four rooms to sell: two may be held for nothing (50 %), from anyone.
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 409, 409, 409, 409, 409, 409]);
    expect(answers[2]!.body.msg.message).toBe(
      "Too many rooms on these dates are already held by bookings paid at the hotel or by bank transfer. To book these rooms, please choose to pay online now.",
    );
    // A bank transfer is no way around it, and nothing of a refused order was written.
    const transfer = await holdTenNights(SHARE, 9, "198.51.100.77", "remittance", "zh-TW");
    expect(transfer.status).toBe(409);
    expect(transfer.body.msg.message).toBe("這些日期已有過多房間由到店付款或銀行轉帳的訂單保留。如要預訂這些房間，請改選線上付款。");
    const held = await env.DB.prepare(
      "SELECT COUNT(*) AS orders, (SELECT MAX(booked) FROM room_nights WHERE room_class_id = ?2) AS booked FROM orders WHERE hotel_id = ?1",
    )
      .bind(refs[SHARE]!.id, refs[SHARE]!.room)
      .first<{ orders: number; booked: number }>();
    expect(held).toEqual({ orders: 2, booked: 2 });
    // Paying online books the rest.
    expect((await holdTenNights(SHARE, 10, "198.51.100.78", "credit")).status).toBe(201);
    expect((await holdTenNights(SHARE, 11, "198.51.100.79", "credit")).status).toBe(201);
  });

  it("unpaid holds from one /48 meet a ceiling whatever mailbox and phone they name; another network still books, and paying online from the same /48 does", async () => {
    const statuses: number[] = [];
    // Ten /56s of one /48 (so ten guests, not one household), each a new mailbox and phone.
    for (let i = 0; i < 10; i++)
      statuses.push((await holdTenNights(NETWORK, i, `2001:db8:99:${((i + 1) * 0x100).toString(16)}::1`)).status);
    expect(statuses).toEqual(Array<number>(10).fill(201));
    const refused = await holdTenNights(NETWORK, 11, "2001:db8:99:ff00::1");
    expect(refused.status).toBe(429);
    expect(refused.body.msg.message).toBe(
      "Too many bookings without payment were made from your network. To book, please choose to pay online now.",
    );
    expect((await holdTenNights(NETWORK, 12, "2001:db8:99:fe00::1", "credit")).status).toBe(201);
    expect((await holdTenNights(NETWORK, 13, "2001:db8:100:100::1")).status).toBe(201);
  });

  it("two /64s of one /56 are one guest: their unpaid orders count together", async () => {
    const domain = NETWORK;
    const answers: { status: number; code: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const start = addDays(today, 40 + i);
      const answer = await apiJson<OrderAnswer>(domain, "/api/ota/order/personal-new?lang=en-US", {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": `2001:db8:56:1${i}::9` },
        body: JSON.stringify({
          domain,
          ...BOOKER,
          booker_email: `household${i}@example.com`,
          booker_phone: `0913 000 00${i}`,
          check_in_day: start,
          check_out_day: addDays(start, 1),
          pay_way: "pay_arrival",
          payment_vendor: 14,
          orders: [{ room_class_id: refs[domain]!.room, proposal_id: refs[domain]!.plan, num: 1 }],
          adults_count: 2,
        }),
      });
      answers.push({ status: answer.status, code: answer.body.msg.code });
    }
    // Three unpaid holds per guest (the default), then a captcha.
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
    expect(answers[3]!.code).toBe("captcha_required");
  });
});

describe("sign-up emails are counted by mailbox", () => {
  it("nine spellings of one Gmail mailbox get three emails, and every sign-up answers the same", async () => {
    const spellings = [
      "mei.lin.37@gmail.com",
      "meilin37@gmail.com",
      "Mei.Lin.37@Gmail.com",
      "m.e.i.l.i.n.37@gmail.com",
      "meilin37+a@gmail.com",
      "mei.lin.37+b@googlemail.com",
      "MEILIN37@GOOGLEMAIL.COM",
      "meilin.37+c@gmail.com",
      "me.ilin37@gmail.com",
    ];
    for (const [i, email] of spellings.entries()) {
      const browser = new Browser(SIGNIN, [], `192.0.2.${150 + i}`);
      const login = await browser.request("/en-US/hxa/login?back=/en-US/about");
      const authorize = await browser.request(path(login.location));
      const query = new URL(path(login.location), `http://${SIGNIN}`).search;
      const signUp = await browser.request(`/account/signup${query}`);
      expect(authorize.status).toBe(200);
      const form = accountFormFields(signUp.html);
      const answer = await browser.request("/account/signup?lang=en-US", {
        ...form,
        last_name: "Lin",
        first_name: "Mei",
        email,
        phone: "0912 000 111",
        password: "spelling-password-1",
      });
      expect(answer.status, email).toBe(200);
      expect(text(answer.html)).toContain(`We sent a message to ${email}.`);
    }
    const sent = await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE hotel_id = ? AND kind = 'account_signup'")
      .bind(refs[SIGNIN]!.id)
      .first<{ n: number }>();
    expect(sent?.n).toBe(3);
  });
});
