/**
 * The desk's staff part (decision 149) through the real Worker and D1: sign-in in two stages, the
 * second factor and its throttle, sessions (fixation, idle and absolute ends, removal), the team's
 * changes and their refusals, invitations, replayed forms, CSRF, and what opens nothing.
 */
import { SELF, env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "~/backend/account/passwords";
import { issueMemberToken } from "~/backend/account/members.server";
import { handleBackendRequest } from "~/backend/router.server";
import { base32Encode, totpCode } from "~/backend/desk/totp";
import { validateHotelFile } from "~/backend/hotels/hotel-file";
import { hotelFileToSql } from "~/backend/hotels/hotel-sql";
import { sha256Hex } from "~/lib/crypto";
import {
  Browser,
  answerQuestion,
  fetchAs,
  fixtureHotel,
  hidden,
  hotelRefs,
  loadHotel,
  orderOneNight,
  text,
  type Envelope,
} from "./helpers";
import { addDays, todayIn } from "~/domain/dates";

// Each sign-in derives PBKDF2 at 100,000 iterations, several times a test, on two shared cores.
vi.setConfig({ testTimeout: 60_000 });

const HOST = "desk-staff.localhost";
const OTHER = "desk-staff-other.localhost";
const PASSWORD = "front-desk-pass-1";
const SECRET = base32Encode(new TextEncoder().encode("desk-staff-test-key!"));
/** Each test signs in from its own address: the throttle counts failures by caller. */
let addressCount = 0;
const nextAddress = () => `203.0.113.${++addressCount}`;

async function hotelId(domain: string): Promise<number> {
  const row = await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>();
  return row?.id ?? 0;
}

let staffCount = 0;
/** A staff member as an accepted invitation and an enrolment leave them (no secret: not enrolled yet). */
async function addStaff(domain: string, role: "owner" | "front_desk" | "read_only", options: { enrolled?: boolean } = {}) {
  const email = `staff${++staffCount}@desk.example`;
  const row = await env.DB.prepare(
    "INSERT INTO staff (hotel_id, email, name, role, password_hash, totp_secret, status) VALUES (?, ?, ?, ?, ?, ?, 'active') RETURNING id",
  )
    .bind(await hotelId(domain), email, `Staff ${staffCount}`, role, await hashPassword(PASSWORD), options.enrolled === false ? "" : SECRET)
    .first<{ id: number }>();
  return { id: row?.id ?? 0, email };
}

async function api<T = Record<string, unknown>>(
  path: string,
  {
    host = HOST,
    body,
    session,
    address,
    headers = {},
  }: { host?: string; body?: unknown; session?: string; address?: string; headers?: Record<string, string> } = {},
) {
  const requestHeaders: Record<string, string> = { ...headers };
  if (session) requestHeaders["x-desk-session"] = session;
  if (address) requestHeaders["cf-connecting-ip"] = address;
  if (body !== undefined) requestHeaders["content-type"] = "application/json";
  const response = await fetchAs(host, `${path}${path.includes("?") ? "&" : "?"}lang=en-US`, {
    method: body === undefined ? "GET" : "POST",
    headers: requestHeaders,
    body: body === undefined ? undefined : JSON.stringify({ domain: host, ...(body as object) }),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

const code = (at = new Date()) => totpCode(SECRET, at);

/** Password then code: a full session's token. */
async function signIn(email: string, address = nextAddress(), host = HOST): Promise<string> {
  const first = await api<{ token: string }>("/api/desk/sign-in", { host, body: { email, password: PASSWORD }, address });
  expect(first.status).toBe(200);
  // Each sign-in in a test uses a code of its own step: a code is never accepted twice.
  const row = await env.DB.prepare("SELECT totp_last_step FROM staff WHERE email = ?").bind(email).first<{ totp_last_step: number }>();
  const step = Math.max(Math.floor(Date.now() / 30_000) - 1, (row?.totp_last_step ?? 0) + 1);
  const second = await api<{ token: string }>("/api/desk/sign-in/code", {
    host,
    body: { code: await code(new Date(step * 30_000)) },
    session: first.body.data.token,
    address,
  });
  expect(second.status, JSON.stringify(second.body.msg)).toBe(200);
  return second.body.data.token;
}

const formKey = () => crypto.randomUUID().replace(/-/g, "");

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  await loadHotel(fixtureHotel(OTHER));
});

describe("signing in", () => {
  it("gives a password-stage session that opens nothing, then a new full session for the right code (no fixation)", async () => {
    const staff = await addStaff(HOST, "front_desk");
    const address = nextAddress();
    const first = await api<{ token: string; stage: string; enrol: boolean }>("/api/desk/sign-in", {
      body: { email: staff.email, password: PASSWORD },
      address,
    });
    expect(first.body.data).toMatchObject({ stage: "password", enrol: false });
    const half = first.body.data.token;
    expect((await api("/api/desk/me?domain=" + HOST, { session: half })).status).toBe(401);
    const second = await api<{ token: string; stage: string }>("/api/desk/sign-in/code", {
      body: { code: await code() },
      session: half,
      address,
    });
    expect(second.body.data.stage).toBe("full");
    const full = second.body.data.token;
    expect(full).not.toBe(half);
    const me = await api<{ email: string; role: string }>(`/api/desk/me?domain=${HOST}`, { session: full });
    expect(me.body.data).toMatchObject({ email: staff.email, role: "front_desk" });
    // The password-stage token is gone: it neither opens the desk nor takes another code.
    expect((await api(`/api/desk/me?domain=${HOST}`, { session: half })).status).toBe(401);
    expect((await api("/api/desk/sign-in/code", { body: { code: await code() }, session: half, address })).status).toBe(401);
  });

  it("refuses a wrong password and an unknown email alike, and a code that was already used", async () => {
    const staff = await addStaff(HOST, "front_desk");
    const address = nextAddress();
    const wrong = await api("/api/desk/sign-in", { body: { email: staff.email, password: "not-the-password" }, address });
    const unknown = await api("/api/desk/sign-in", { body: { email: "nobody@desk.example", password: PASSWORD }, address });
    expect([wrong.status, wrong.body.msg.code]).toEqual([401, "desk_credentials"]);
    expect([unknown.status, unknown.body.msg.code]).toEqual([401, "desk_credentials"]);
    expect(wrong.body.msg.message).toBe("The email or password is not right.");
    const now = await code();
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const first = await api<{ token: string }>("/api/desk/sign-in", { body: { email: staff.email, password: PASSWORD }, address });
      sessions.push(first.body.data.token);
    }
    const used = await api("/api/desk/sign-in/code", { body: { code: now }, session: sessions[0], address });
    expect(used.status).toBe(200);
    const again = await api("/api/desk/sign-in/code", { body: { code: now }, session: sessions[1], address });
    expect([again.status, again.body.msg.code]).toEqual([400, "desk_code_wrong"]);
  });

  it("throttles guessing the code: five wrong codes end the half session, and the password then asks for the captcha", async () => {
    const staff = await addStaff(HOST, "owner");
    const address = nextAddress();
    const first = await api<{ token: string }>("/api/desk/sign-in", { body: { email: staff.email, password: PASSWORD }, address });
    const half = first.body.data.token;
    const right = await code();
    const guess = right === "000000" ? "111111" : "000000";
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await api("/api/desk/sign-in/code", { body: { code: guess }, session: half, address }));
    expect(answers.slice(0, 4).map((answer) => answer.body.msg.code)).toEqual(Array(4).fill("desk_code_wrong"));
    expect([answers[4]?.status, answers[4]?.body.msg.code]).toEqual([401, "desk_code_too_many"]);
    // Even the right code now finds no session to finish.
    expect((await api("/api/desk/sign-in/code", { body: { code: right }, session: half, address })).status).toBe(401);
    const next = await api<{ challenge: { token: string } }>("/api/desk/sign-in", {
      body: { email: staff.email, password: PASSWORD },
      address,
    });
    expect([next.status, next.body.msg.code]).toEqual([400, "desk_captcha_required"]);
    expect(next.body.data.challenge.token).toBeTruthy();
  });

  it("never locks the owner out: past the ceiling that refuses members, the captcha is asked instead", async () => {
    const staff = await addStaff(HOST, "owner");
    const id = await hotelId(HOST);
    const address = nextAddress();
    const { callerAddressKey } = await import("~/domain/identity");
    const caller = callerAddressKey(address);
    const failures = Array.from({ length: 30 }, () =>
      env.DB.prepare("INSERT INTO login_failures (hotel_id, email, ip, net, at) VALUES (?, ?, ?, '', ?)").bind(
        id,
        staff.email,
        caller,
        new Date().toISOString(),
      ),
    );
    await env.DB.batch(failures);
    const answer = await api("/api/desk/sign-in", { body: { email: staff.email, password: PASSWORD }, address });
    expect([answer.status, answer.body.msg.code]).toEqual([400, "desk_captcha_required"]);
  });

  it("takes a solved challenge once, and never one a guest's page asked for: a script cannot carry answers over", async () => {
    const staff = await addStaff(HOST, "owner");
    const id = await hotelId(HOST);
    const address = nextAddress();
    const { callerAddressKey } = await import("~/domain/identity");
    await env.DB.batch(
      Array.from({ length: 30 }, () =>
        env.DB.prepare("INSERT INTO login_failures (hotel_id, email, ip, net, at) VALUES (?, ?, ?, '', ?)").bind(
          id,
          staff.email,
          callerAddressKey(address),
          new Date().toISOString(),
        ),
      ),
    );
    const signIn = (captcha: { token: string; answer: string }, password = PASSWORD) =>
      api<{ token?: string; challenge?: { token: string; question: string } }>("/api/desk/sign-in", {
        body: { email: staff.email, password, captcha_token: captcha.token, captcha_answer: captcha.answer },
        address,
      });
    const asked = await api<{ challenge: { token: string; question: string } }>("/api/desk/sign-in", {
      body: { email: staff.email, password: PASSWORD },
      address,
    });
    expect(asked.body.msg.code).toBe("desk_captcha_required");
    const solved = { token: asked.body.data.challenge.token, answer: answerQuestion(asked.body.data.challenge.question) };

    // A challenge from the guests' trigger, solved as well, is not the desk's.
    const guests = await api<{ challenge: { token: string; question: string } }>("/api/captcha/trigger", {
      body: { action: "sign_in" },
      address,
    });
    expect(guests.body.data.challenge.token).toBeTruthy();
    const carried = await signIn({ token: guests.body.data.challenge.token, answer: answerQuestion(guests.body.data.challenge.question) });
    expect([carried.status, carried.body.msg.code]).toEqual([400, "captcha_expired"]);
    expect(carried.body.data.token).toBeUndefined();
    // Nor may a page ask the trigger for the desk's own kind of challenge.
    expect((await api("/api/captcha/trigger", { body: { action: "desk_sign_in" }, address })).body.msg.code).toBe("captcha_action");

    // The desk's own challenge is spent by one try, even one with a wrong password: sent again with
    // the right password it is refused, and the next challenge it brings passes.
    const wrongPassword = await signIn(solved, "not-the-password");
    expect([wrongPassword.status, wrongPassword.body.msg.code]).toEqual([401, "desk_credentials"]);
    const replayed = await signIn(solved);
    expect([replayed.status, replayed.body.msg.code]).toEqual([400, "captcha_expired"]);
    expect(replayed.body.data.token).toBeUndefined();
    const next = replayed.body.data.challenge!;
    const passed = await signIn({ token: next.token, answer: answerQuestion(next.question) });
    expect(passed.status, JSON.stringify(passed.body.msg)).toBe(200);
    expect(passed.body.data.token).toBeTruthy();
  });

  it("signs in with a recovery code once, and enrols a staff member without an authenticator", async () => {
    const staff = await addStaff(HOST, "read_only", { enrolled: false });
    const address = nextAddress();
    const first = await api<{ token: string; enrol: boolean }>("/api/desk/sign-in", {
      body: { email: staff.email, password: PASSWORD },
      address,
    });
    expect(first.body.data.enrol).toBe(true);
    const half = first.body.data.token;
    // No code is accepted before enrolment: the secret is not theirs yet.
    expect((await api("/api/desk/sign-in/code", { body: { code: "123456" }, session: half, address })).body.msg.code).toBe(
      "desk_enrol_first",
    );
    const offer = await api<{ secret: string; uri: string; qr_svg: string }>(`/api/desk/enrolment?domain=${HOST}`, { session: half });
    const { secret, uri } = offer.body.data;
    expect(uri).toMatch(
      new RegExp(`^otpauth://totp/[^:/?]+%20Desk:${encodeURIComponent(staff.email)}\\?secret=${secret}&issuer=[^&]+%20Desk$`),
    );
    expect(offer.body.data.qr_svg).toMatch(/^<svg [^>]*viewBox/);
    // The same offer on a second look: the secret is kept in the half session until confirmed.
    expect((await api<{ secret: string }>(`/api/desk/enrolment?domain=${HOST}`, { session: half })).body.data.secret).toBe(
      offer.body.data.secret,
    );
    const enrolled = await api<{ token: string; recovery_codes: string[] }>("/api/desk/enrolment", {
      body: { code: await totpCode(offer.body.data.secret, new Date()) },
      session: half,
      address,
    });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.data.recovery_codes).toHaveLength(10);
    const stored = await env.DB.prepare("SELECT code_hash FROM staff_recovery_codes WHERE staff_id = ?")
      .bind(staff.id)
      .all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    expect(stored.results.map((row) => row.code_hash)).not.toContain(enrolled.body.data.recovery_codes[0]);
    expect((await api(`/api/desk/me?domain=${HOST}`, { session: enrolled.body.data.token })).status).toBe(200);
    const recovery = enrolled.body.data.recovery_codes[3]!;
    const useRecovery = async () => {
      const start = await api<{ token: string }>("/api/desk/sign-in", { body: { email: staff.email, password: PASSWORD }, address });
      return api<{ recovery_code_used: boolean }>("/api/desk/sign-in/code", {
        body: { code: recovery.toLowerCase() },
        session: start.body.data.token,
        address,
      });
    };
    const once = await useRecovery();
    expect([once.status, once.body.data.recovery_code_used]).toEqual([200, true]);
    expect((await useRecovery()).body.msg.code).toBe("desk_code_wrong");
  });
});

describe("sessions", () => {
  it("open nothing with a member's Bearer token, a signed order link's signature, or another hotel's staff session", async () => {
    const id = await hotelId(HOST);
    const member = await env.DB.prepare(
      "INSERT INTO members (hotel_id, email, first_name, last_name, phone, points, password_hash) VALUES (?, 'member@desk.example', 'Mei', 'Lin', '0912345678', 0, '') RETURNING id",
    )
      .bind(id)
      .first<{ id: number }>();
    const memberToken = await issueMemberToken(env.DB, member?.id ?? 0);
    const bearer = await api(`/api/desk/me?domain=${HOST}`, { headers: { authorization: `Bearer ${memberToken}` } });
    expect([bearer.status, bearer.body.msg.code]).toEqual([401, "desk_signin_required"]);
    const asSession = await api(`/api/desk/me?domain=${HOST}`, { session: memberToken.replace(/[^A-Za-z0-9_-]/g, "").padEnd(32, "x") });
    expect(asSession.status).toBe(401);
    const signedLink = await api(`/api/desk/staff?domain=${HOST}&sign=${"a".repeat(64)}&expires=9999999999`);
    expect(signedLink.status).toBe(401);
    const otherOwner = await addStaff(OTHER, "owner");
    const otherSession = await signIn(otherOwner.email, nextAddress(), OTHER);
    expect((await api(`/api/desk/me?domain=${OTHER}`, { host: OTHER, session: otherSession })).status).toBe(200);
    expect((await api(`/api/desk/me?domain=${HOST}`, { session: otherSession })).status).toBe(401);
    expect((await api(`/api/desk/staff?domain=${HOST}`, { session: otherSession })).status).toBe(401);
  });

  it("open nothing with a real booking's own signed view and cancel links, however they are presented", async () => {
    const created = await orderOneNight<{ order_doc: string; order: { valid_hash: string; cancel_hash: string } }>(
      HOST,
      await hotelRefs(HOST),
      addDays(todayIn("Asia/Taipei"), 20),
      { pay_way: "remittance", payment_vendor: 8 },
    );
    expect(created.status, JSON.stringify(created.body.msg)).toBe(201);
    const doc = created.body.data.order_doc;
    const before = await env.DB.prepare("SELECT status, paid_amount, updated_at FROM orders WHERE order_doc = ?").bind(doc).first();
    for (const hash of [created.body.data.order.valid_hash, created.body.data.order.cancel_hash]) {
      const query = `domain=${HOST}&valid_hash=${encodeURIComponent(hash)}&cancel_hash=${encodeURIComponent(hash)}`;
      // The desk's API: as a query, as the session header, as a Bearer token.
      expect((await api(`/api/desk/bookings/${doc}?${query}`)).status).toBe(401);
      expect((await api(`/api/desk/bookings/${doc}?domain=${HOST}`, { session: hash })).status).toBe(401);
      expect((await api(`/api/desk/bookings/${doc}?domain=${HOST}`, { headers: { authorization: `Bearer ${hash}` } })).status).toBe(401);
      const acted = await api(`/api/desk/bookings/${doc}/actions/record_transfer?${query}`, {
        body: {
          form_key: `fk${crypto.randomUUID().replaceAll("-", "")}`,
          amount: 100,
          transfer_date: todayIn("Asia/Taipei"),
          account_last5: "12345",
          valid_hash: hash,
        },
        session: hash,
      });
      expect(acted.status).toBe(401);
      // The desk's page: sent to sign in, the booking not shown.
      const page = await fetchAs(HOST, `/en-US/desk/bookings/${doc}?valid_hash=${encodeURIComponent(hash)}`, { redirect: "manual" });
      expect(page.status).toBeGreaterThanOrEqual(300);
      expect(page.status).toBeLessThan(400);
      expect(page.headers.get("location")).toMatch(/^\/en-US\/desk\/sign-in/);
    }
    expect(await env.DB.prepare("SELECT status, paid_amount, updated_at FROM orders WHERE order_doc = ?").bind(doc).first()).toEqual(
      before,
    );
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE subject = ?").bind(`order:${doc}`).first<{ n: number }>();
    expect(audit?.n).toBe(0);
  });

  it("end after 30 idle minutes and 12 hours after sign-in, whatever the activity (a fixed now)", async () => {
    const staff = await addStaff(HOST, "front_desk");
    const token = await signIn(staff.email);
    const start = Date.now();
    const meAt = async (offsetMinutes: number) => {
      const response = await handleBackendRequest(
        new Request(`http://${HOST}/api/desk/me?domain=${HOST}`, { headers: { "x-desk-session": token } }),
        { db: env.DB, signingSecret: "test", now: new Date(start + offsetMinutes * 60_000) },
      );
      return response.status;
    };
    // Each request within 30 minutes of the last keeps it alive…
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) expect(await meAt(minutes), `at ${minutes} min`).toBe(200);
    // …until 12 hours after sign-in.
    expect(await meAt(12 * 60 + 1)).toBe(401);
    const idle = await signIn(staff.email);
    const idleAt = async (offsetMinutes: number) =>
      (
        await handleBackendRequest(new Request(`http://${HOST}/api/desk/me?domain=${HOST}`, { headers: { "x-desk-session": idle } }), {
          db: env.DB,
          signingSecret: "test",
          now: new Date(Date.now() + offsetMinutes * 60_000),
        })
      ).status;
    expect(await idleAt(31)).toBe(401);
  });
});

describe("the team", () => {
  it("removes a member of staff and ends their sessions at once; a replayed form changes nothing more", async () => {
    const owner = await addStaff(HOST, "owner");
    const clerk = await addStaff(HOST, "front_desk");
    const ownerSession = await signIn(owner.email);
    const clerkSession = await signIn(clerk.email);
    expect((await api(`/api/desk/me?domain=${HOST}`, { session: clerkSession })).status).toBe(200);
    const key = formKey();
    const removed = await api<{ already_done: boolean }>("/api/desk/staff/remove", {
      body: { form_key: key, staff_id: clerk.id },
      session: ownerSession,
    });
    expect(removed.body.data.already_done).toBe(false);
    expect((await api(`/api/desk/me?domain=${HOST}`, { session: clerkSession })).status).toBe(401);
    const replay = await api<{ already_done: boolean }>("/api/desk/staff/remove", {
      body: { form_key: key, staff_id: clerk.id },
      session: ownerSession,
    });
    // A replay of the same form: "already done", though its staff member is gone since.
    expect([replay.status, replay.body.data.already_done]).toEqual([200, true]);
    const audit = await env.DB.prepare("SELECT action, before, after, staff_email FROM audit_log WHERE form_key = ?").bind(key).all();
    expect(audit.results).toEqual([
      { action: "staff.remove", staff_email: owner.email, before: expect.stringContaining(clerk.email), after: '{"status":"removed"}' },
    ]);
    // The same form key on a change that still applies is answered "already done" and changes nothing.
    const reader = await addStaff(HOST, "read_only");
    const roleKey = formKey();
    const first = await api<{ already_done: boolean }>("/api/desk/staff/role", {
      body: { form_key: roleKey, staff_id: reader.id, role: "front_desk" },
      session: ownerSession,
    });
    const again = await api<{ already_done: boolean }>("/api/desk/staff/role", {
      body: { form_key: roleKey, staff_id: reader.id, role: "owner" },
      session: ownerSession,
    });
    expect([first.body.data.already_done, again.body.data.already_done]).toEqual([false, true]);
    const role = await env.DB.prepare("SELECT role FROM staff WHERE id = ?").bind(reader.id).first<{ role: string }>();
    expect(role?.role).toBe("front_desk");
  });

  it("keeps the last owner: neither removed nor demoted, and nothing written to the audit log", async () => {
    const domain = "desk-staff-alone.localhost";
    await loadHotel(fixtureHotel(domain));
    const owner = await addStaff(domain, "owner");
    const session = await signIn(owner.email, nextAddress(), domain);
    const key = formKey();
    const demote = await api("/api/desk/staff/role", {
      host: domain,
      body: { form_key: key, staff_id: owner.id, role: "read_only" },
      session,
    });
    expect([demote.status, demote.body.msg.code]).toEqual([409, "desk_last_owner"]);
    const second = await addStaff(domain, "owner");
    const secondSession = await signIn(second.email, nextAddress(), domain);
    // With two owners, one may go; then the other is the last again.
    expect(
      (await api("/api/desk/staff/remove", { host: domain, body: { form_key: formKey(), staff_id: owner.id }, session: secondSession }))
        .status,
    ).toBe(200);
    const remove = await api("/api/desk/staff/remove", {
      host: domain,
      body: { form_key: formKey(), staff_id: second.id },
      session: secondSession,
    });
    expect([remove.status, remove.body.msg.code]).toEqual([409, "desk_last_owner"]);
    const logged = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE form_key = ?").bind(key).first<{ n: number }>();
    expect(logged?.n).toBe(0);
    expect((await api(`/api/desk/me?domain=${domain}`, { host: domain, session: secondSession })).body.data).toMatchObject({
      role: "owner",
    });
  });

  it("is the owner's only: the front desk may not list, invite or remove; another hotel's staff id is not found", async () => {
    const owner = await addStaff(HOST, "owner");
    const clerk = await addStaff(HOST, "front_desk");
    const clerkSession = await signIn(clerk.email);
    expect((await api(`/api/desk/staff?domain=${HOST}`, { session: clerkSession })).status).toBe(403);
    expect((await api("/api/desk/staff/remove", { body: { form_key: formKey(), staff_id: owner.id }, session: clerkSession })).status).toBe(
      403,
    );
    const ownerSession = await signIn(owner.email);
    const stranger = await addStaff(OTHER, "front_desk");
    const foreign = await api("/api/desk/staff/remove", { body: { form_key: formKey(), staff_id: stranger.id }, session: ownerSession });
    expect([foreign.status, foreign.body.msg.code]).toEqual([404, "desk_staff_not_found"]);
    const list = await api<{ staff: { email: string }[] }>(`/api/desk/staff?domain=${HOST}`, { session: ownerSession });
    expect(list.body.data.staff.map((member) => member.email)).not.toContain(stranger.email);
  });

  it("invites by an emailed one-time link, on this hotel's site only, that sets a password and leads to enrolment", async () => {
    const owner = await addStaff(HOST, "owner");
    const session = await signIn(owner.email);
    const email = `new${Date.now()}@desk.example`;
    const invited = await api("/api/desk/staff/invite", {
      body: { form_key: formKey(), email, name: "New Clerk", role: "front_desk" },
      session,
    });
    expect(invited.status).toBe(200);
    const mail = await env.DB.prepare("SELECT subject, text_body FROM mail_outbox WHERE kind = 'staff_invite' AND to_address = ?")
      .bind(email)
      .first<{ subject: string; text_body: string }>();
    const link = /http:\/\/\S+\/desk\/invitation\?token=[\w-]+/.exec(mail?.text_body ?? "")?.[0] ?? "";
    expect(link.startsWith(`http://${HOST}/`)).toBe(true);
    const token = new URL(link).searchParams.get("token") ?? "";
    // Another hotel's site does not know the link.
    expect((await api(`/api/desk/invitation?domain=${OTHER}&token=${token}`, { host: OTHER })).status).toBe(404);
    expect((await api("/api/desk/invitation", { body: { token, password: "short" } })).body.msg.code).toBe("invalid_field");
    const accepted = await api<{ token: string; enrol: boolean }>("/api/desk/invitation", { body: { token, password: PASSWORD } });
    expect(accepted.body.data.enrol).toBe(true);
    expect((await api(`/api/desk/enrolment?domain=${HOST}`, { session: accepted.body.data.token })).status).toBe(200);
    const replay = await api("/api/desk/invitation", { body: { token, password: "another-password-2" } });
    expect([replay.status, replay.body.msg.code]).toEqual([404, "desk_invite_invalid"]);
    const again = await api("/api/desk/staff/invite", { body: { form_key: formKey(), email, name: "Twice", role: "read_only" }, session });
    expect([again.status, again.body.msg.code]).toEqual([409, "desk_staff_exists"]);
  });

  it("pages the audit log newest first by keyset", async () => {
    const domain = "desk-staff-audit.localhost";
    await loadHotel(fixtureHotel(domain));
    const id = await hotelId(domain);
    const owner = await addStaff(domain, "owner");
    await env.DB.batch(
      Array.from({ length: 60 }, (_, i) =>
        env.DB.prepare("INSERT INTO audit_log (hotel_id, staff_email, action, subject) VALUES (?, 'x@desk.example', 'test.entry', ?)").bind(
          id,
          `n:${i}`,
        ),
      ),
    );
    const session = await signIn(owner.email, nextAddress(), domain);
    const first = await api<{ entries: { subject: string }[]; next_before: number }>(`/api/desk/audit?domain=${domain}`, {
      host: domain,
      session,
    });
    expect(first.body.data.entries).toHaveLength(50);
    expect(first.body.data.entries[0]?.subject).toBe("n:59");
    const second = await api<{ entries: { subject: string }[]; next_before: number | null }>(
      `/api/desk/audit?domain=${domain}&before=${first.body.data.next_before}`,
      { host: domain, session },
    );
    expect(second.body.data.entries.map((entry) => entry.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `n:${9 - i}`));
    expect(second.body.data.next_before).toBeNull();
  });
});

describe("the desk's pages", () => {
  it("sign in with password and code in a browser without JavaScript, behind a Strict host-only cookie, never cached or indexed", async () => {
    const staff = await addStaff(HOST, "owner");
    const browser = new Browser(HOST, [], nextAddress());
    const desk = await browser.request("/en-US/desk");
    expect([desk.status, desk.location]).toEqual([302, "/en-US/desk/sign-in"]);
    const page = await browser.request("/en-US/desk/sign-in");
    expect(text(page.html)).toContain("Sign in to the desk");
    const csrf = hidden(page.html, "csrf");
    const response = await fetchAs(HOST, "/en-US/desk/sign-in");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    const first = await browser.request("/en-US/desk/sign-in", { csrf, intent: "password", email: staff.email, password: PASSWORD });
    expect([first.status, first.location]).toEqual([302, "/en-US/desk/sign-in"]);
    const codePage = await browser.request("/en-US/desk/sign-in");
    expect(text(codePage.html)).toContain("Enter your code");
    const raw = await fetchAs(HOST, "/en-US/desk/sign-in", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, intent: "password", email: staff.email, password: PASSWORD }),
    });
    // Without the CSRF cookie the same form is refused and sets no session.
    expect(raw.status).toBe(403);
    expect(raw.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-desk="))).toBe(false);
    const second = await browser.request("/en-US/desk/sign-in", { csrf, intent: "code", code: await code() });
    expect([second.status, second.location]).toEqual([302, "/en-US/desk"]);
    const staffPage = await browser.request("/en-US/desk/staff");
    expect(staffPage.status).toBe(200);
    expect(text(staffPage.html)).toContain(staff.email);
    expect(text(staffPage.html)).toContain("Audit log");
    const audit = await browser.request("/en-US/desk/audit");
    expect(audit.status).toBe(200);
    const signOut = await browser.request("/en-US/desk/sign-out", { csrf });
    expect(signOut.location).toBe("/en-US/desk/sign-in?signed_out=1");
    expect((await browser.request("/en-US/desk/staff")).location).toBe("/en-US/desk/sign-in");
  });

  it("answers every desk address private and unindexed, redirects too; robots.txt disallows the desk; a role that may not gets a 403 page", async () => {
    const redirect = await fetchAs(HOST, "/desk", { redirect: "manual" });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([302, "/desk/sign-in"]);
    expect(redirect.headers.get("cache-control")).toBe("private, no-store");
    expect(redirect.headers.get("x-robots-tag")).toBe("noindex");
    const robots = await (await fetchAs(HOST, "/robots.txt")).text();
    expect(robots).toContain("Disallow: /desk\n");
    expect(robots).toContain("Disallow: /*/desk\n");
    const reader = await addStaff(HOST, "read_only");
    const browser = new Browser(HOST, [], nextAddress());
    const page = await browser.request("/en-US/desk/sign-in");
    const csrf = hidden(page.html, "csrf");
    await browser.request("/en-US/desk/sign-in", { csrf, intent: "password", email: reader.email, password: PASSWORD });
    expect((await browser.request("/en-US/desk/sign-in", { csrf, intent: "code", code: await code() })).location).toBe("/en-US/desk");
    const forbidden = await browser.request("/en-US/desk/staff");
    expect(forbidden.status).toBe(403);
    expect(text(forbidden.html)).toContain("Your role at this hotel cannot open this page.");
    expect(text(forbidden.html)).not.toContain("Invite a member of staff");
  });

  it("enrols in the browser: the QR code drawn in the page, the secret as text, then ten recovery codes shown once", async () => {
    const staff = await addStaff(HOST, "front_desk", { enrolled: false });
    const browser = new Browser(HOST, [], nextAddress());
    const csrf = hidden((await browser.request("/en-US/desk/sign-in")).html, "csrf");
    const first = await browser.request("/en-US/desk/sign-in", { csrf, intent: "password", email: staff.email, password: PASSWORD });
    expect(first.location).toBe("/en-US/desk/enrolment");
    const page = await browser.request("/en-US/desk/enrolment");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<figure[^>]*role="img"[^>]*><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(page.html).not.toMatch(/<script/);
    const secret = /data-totp-secret="">([A-Z2-7]+)</.exec(page.html)?.[1] ?? "";
    expect(secret).toHaveLength(32);
    const wrong = await browser.request("/en-US/desk/enrolment", {
      csrf,
      code: "000000" === (await totpCode(secret, new Date())) ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(text(wrong.html)).toContain("That code is not right");
    const done = await browser.request("/en-US/desk/enrolment", { csrf, code: await totpCode(secret, new Date()) });
    expect([done.status, done.location]).toEqual([200, null]);
    const codes = [...done.html.matchAll(/<li><code>([A-Z2-9]{5}-[A-Z2-9]{5})<\/code><\/li>/g)].map((match) => match[1]);
    expect(codes).toHaveLength(10);
    expect((await browser.request("/en-US/desk/bookings")).status).toBe(200);
    // Shown once: the enrolment page is gone for an enrolled, signed-in staff member.
    expect((await browser.request("/en-US/desk/enrolment")).location).toBe("/en-US/desk/sign-in");
  });

  it("invites from the staff page (a replayed form is already done), and the invitation page leads to enrolment", async () => {
    const owner = await addStaff(HOST, "owner");
    const browser = new Browser(HOST, [], nextAddress());
    const csrf = hidden((await browser.request("/en-US/desk/sign-in")).html, "csrf");
    await browser.request("/en-US/desk/sign-in", { csrf, intent: "password", email: owner.email, password: PASSWORD });
    await browser.request("/en-US/desk/sign-in", { csrf, intent: "code", code: await code() });
    const page = await browser.request("/en-US/desk/staff");
    const formKey = /name="form_key" value="([^"]+)"/g;
    const keys = [...page.html.matchAll(formKey)].map((match) => match[1] ?? "");
    const inviteKey = keys[keys.length - 1] ?? "";
    const email = `page${Date.now()}@desk.example`;
    const form = { csrf, form_key: inviteKey, intent: "invite", email, name: "Page Clerk", role: "read_only" };
    const invited = await browser.request("/en-US/desk/staff", form);
    expect(invited.status).toBe(302);
    expect(text((await browser.request(invited.location ?? "")).html)).toContain(`Invitation sent to ${email}.`);
    const replay = await browser.request("/en-US/desk/staff", form);
    expect(text((await browser.request(replay.location ?? "")).html)).toContain("This was already done.");
    const mails = await env.DB.prepare("SELECT text_body FROM mail_outbox WHERE kind = 'staff_invite' AND to_address = ?")
      .bind(email)
      .all<{ text_body: string }>();
    expect(mails.results).toHaveLength(1);
    const link = new URL(/http:\/\/\S+\/desk\/invitation\?token=[\w-]+/.exec(mails.results[0]?.text_body ?? "")?.[0] ?? "http://x");
    // The hotel's main language is zh-TW: the link has no language prefix.
    expect(link.pathname).toBe("/desk/invitation");
    const newcomer = new Browser(HOST, [], nextAddress());
    const invitation = await newcomer.request(`${link.pathname}${link.search}`);
    expect(text(invitation.html)).toContain(email);
    const accepted = await newcomer.request(`${link.pathname}${link.search}`, {
      csrf: hidden(invitation.html, "csrf"),
      token: link.searchParams.get("token") ?? "",
      password: "a-new-password-1",
    });
    expect(accepted.location).toBe("/desk/enrolment");
    expect((await newcomer.request("/desk/enrolment")).html).toContain("data-totp-secret");
    const again = await new Browser(HOST, [], nextAddress()).request(`${link.pathname}${link.search}`);
    expect(again.status).toBe(404);
    expect(text(again.html)).toContain("邀請連結無效");
  });

  it("sets the desk cookie host-only, HttpOnly, Secure and SameSite=Strict", async () => {
    const staff = await addStaff(HOST, "front_desk");
    const page = await fetchAs(HOST, "/desk/sign-in");
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const response = await fetchAs(HOST, "/desk/sign-in", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, "cf-connecting-ip": nextAddress() },
      body: new URLSearchParams({ csrf: hidden(await page.text(), "csrf"), intent: "password", email: staff.email, password: PASSWORD }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const desk = response.headers.getSetCookie().find((line) => line.startsWith("__Host-desk="));
    expect(desk).toBeDefined();
    const attributes = (desk ?? "")
      .split(";")
      .slice(1)
      .map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/", "httponly", "secure", "samesite=strict"]));
    expect(attributes.some((part) => part.startsWith("domain="))).toBe(false);
  });
});

describe("on a hotel's own domain", () => {
  it("signs in over https on a non-local host, with this run's random secret, and the hotel file may not carry demo secrets there", async () => {
    const domain = "desk.grand-hotel.example.com";
    await loadHotel(fixtureHotel(domain), undefined, { allowTestGateway: true });
    const staff = await addStaff(domain, "owner");
    const jar = new Map<string, string>();
    const address = nextAddress();
    const go = async (path: string, form?: Record<string, string>) => {
      const response = await SELF.fetch(`https://${domain}${path}`, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        headers: {
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
          "cf-connecting-ip": address,
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body: form ? new URLSearchParams(form) : undefined,
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return { status: response.status, location: response.headers.get("location"), html: await response.text() };
    };
    const page = await go("/en-US/desk/sign-in");
    const csrf = hidden(page.html, "csrf");
    const password = await go("/en-US/desk/sign-in", { csrf, intent: "password", email: staff.email, password: PASSWORD });
    expect([password.status, password.location]).toEqual([302, "/en-US/desk/sign-in"]);
    expect(jar.has("__Host-desk")).toBe(true);
    const codePage = await go("/en-US/desk/sign-in");
    expect(text(codePage.html)).toContain("Enter your code");
    const signedIn = await go("/en-US/desk/sign-in", { csrf: hidden(codePage.html, "csrf"), intent: "code", code: await code() });
    expect([signedIn.status, signedIn.location]).toEqual([302, "/en-US/desk"]);
    const bookings = await go("/en-US/desk/bookings");
    expect(bookings.status).toBe(200);
    expect(text(bookings.html)).toContain("Bookings");
    // The same session on the hotel's other host name opens nothing: the cookie is host-only.
    expect((await SELF.fetch(`https://www.grand-hotel.example.com/en-US/desk/bookings`, { redirect: "manual" })).status).not.toBe(200);

    const withDemo = validateHotelFile(
      { ...(fixtureHotel(domain) as object), desk: { owner: { email: "owner@portico.example", demo_password: "portico-desk-1" } } },
      { allowTestGateway: true },
    );
    expect(withDemo.success).toBe(false);
    expect(withDemo.success ? [] : withDemo.errors).toContain(
      "desk.owner.demo_password: known sign-in secrets are only for demo hotels on local domains (*.localhost)",
    );
  });
});

describe("the hotel file's first owner", () => {
  async function importWithOwner(domain: string, owner: Record<string, string>, options: { password?: string; inviteToken?: string } = {}) {
    const parsed = validateHotelFile({ ...(fixtureHotel(domain) as object), desk: { owner } });
    if (!parsed.success) throw new Error(parsed.errors.join("; "));
    const statements = hotelFileToSql(parsed.file, {
      loadDay: new Date().toISOString().slice(0, 10),
      passwordHashes: new Map(options.password ? [[owner.email!, await hashPassword(options.password)]] : []),
      ownerInviteHash: options.inviteToken ? await sha256Hex(options.inviteToken) : undefined,
      ownerInviteExpires: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
  }

  it("invites a new owner on import, and a second import overwrites nobody", async () => {
    const domain = "desk-staff-import.localhost";
    const token = "import-invitation-token-0123456789abcdef";
    await importWithOwner(domain, { email: "Founder@Desk.example", name: "Founder" }, { inviteToken: token });
    const owner = await env.DB.prepare("SELECT id, email, role, status FROM staff WHERE hotel_id = ?")
      .bind(await hotelId(domain))
      .first();
    expect(owner).toMatchObject({ email: "founder@desk.example", role: "owner", status: "invited" });
    const accepted = await api<{ enrol: boolean }>("/api/desk/invitation", { host: domain, body: { token, password: PASSWORD } });
    expect(accepted.body.data.enrol).toBe(true);
    // Imported again (a changed file): the owner who set a password keeps it, and no new link is made for them.
    await importWithOwner(
      domain,
      { email: "founder@desk.example", name: "Someone Else" },
      { inviteToken: "another-invitation-token-0123456789ab" },
    );
    const after = await env.DB.prepare("SELECT name, status, password_hash != '' AS has_password FROM staff WHERE hotel_id = ?")
      .bind(await hotelId(domain))
      .all();
    expect(after.results).toEqual([{ name: "Founder", status: "active", has_password: 1 }]);
    expect((await api(`/api/desk/invitation?domain=${domain}&token=another-invitation-token-0123456789ab`, { host: domain })).status).toBe(
      404,
    );
    const logged = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE hotel_id = ? AND action = 'staff.import_owner'")
      .bind(await hotelId(domain))
      .first<{ n: number }>();
    expect(logged?.n).toBe(1);
  });

  it("gives a demo hotel an owner who signs in with the demo password and a code of the demo secret", async () => {
    const domain = "desk-staff-demo.localhost";
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    await importWithOwner(
      domain,
      { email: "owner@portico.example", demo_password: "portico-desk-1", demo_totp_secret: secret },
      { password: "portico-desk-1" },
    );
    const address = nextAddress();
    const first = await api<{ token: string; enrol: boolean }>("/api/desk/sign-in", {
      host: domain,
      body: { email: "owner@portico.example", password: "portico-desk-1" },
      address,
    });
    expect(first.body.data.enrol).toBe(false);
    const second = await api<{ stage: string }>("/api/desk/sign-in/code", {
      host: domain,
      body: { code: await totpCode(secret, new Date()) },
      session: first.body.data.token,
      address,
    });
    expect(second.body.data.stage).toBe("full");
  });
});
