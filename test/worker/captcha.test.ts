/**
 * The captcha of spec §7 through the real Worker and D1 (decision 070): /api/captcha/trigger asks
 * only on risk, /api/captcha/verify answers a one-time pass bound to its action and hotel, and
 * everything an abuser would try (a reused challenge, a replayed pass, a pass for another action or
 * hotel, a forged or expired token, guessing) is refused in the guest's language.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { spendPass } from "~/backend/captcha/captcha.server";
import { handleBackendRequest } from "~/backend/router.server";
import { answerQuestion, apiJson, fixtureHotel, loadHotel } from "./helpers";

const HOST = "captcha.localhost";
const OTHER = "captcha-other.localhost";

interface Challenge {
  token: string;
  picture: string;
  question: string;
  expires_in: number;
}

function post(path: string, body: unknown, address = "198.51.100.7", lang = "en-US") {
  return apiJson<{ action: string; needed: boolean; challenge: Challenge | null; pass?: string }>(HOST, `${path}?lang=${lang}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": address },
    body: JSON.stringify(body),
  });
}

/** A challenge for `action`, asked for directly (the `cancel` action always asks). */
async function challengeFor(action: string, address?: string, lang?: string): Promise<Challenge> {
  const { status, body } = await post("/api/captcha/trigger", { domain: HOST, action, email: "guest@example.com" }, address, lang);
  expect(status).toBe(200);
  expect(body.data?.needed).toBe(true);
  return body.data!.challenge!;
}

const hotelId = async (domain: string) =>
  (await env.DB.prepare("SELECT id FROM hotels WHERE domain = ?").bind(domain).first<{ id: number }>())!.id;

beforeAll(async () => {
  await loadHotel(fixtureHotel(HOST));
  await loadHotel(fixtureHotel(OTHER));
});

describe("POST /api/captcha/trigger", () => {
  it("asks nothing of a guest who has done nothing wrong", async () => {
    const { status, body } = await post(
      "/api/captcha/trigger",
      { domain: HOST, action: "sign_in", email: "fresh@example.com" },
      "198.51.100.20",
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ action: "sign_in", needed: false, challenge: null });
  });

  it("draws the challenge as SVG from outlines: no text, font, script or link in it, and a new one each time", async () => {
    const first = await challengeFor("cancel");
    const second = await challengeFor("cancel");
    expect(first.picture).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = atob(first.picture.split(",")[1] ?? "");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain("<path d=");
    expect(svg).not.toMatch(/<text|font|<script|href|<image|<foreignObject/i);
    expect(second.picture).not.toBe(first.picture);
    expect(second.token).not.toBe(first.token);
    expect(first.question).toMatch(/^What is \w+ plus \w+\?$/);
    expect(first.expires_in).toBe(600);
  });

  it("asks the question in the guest's language", async () => {
    expect((await challengeFor("cancel", undefined, "zh-TW")).question).toMatch(
      /^[一二三四五六七八九十]+加[一二三四五六七八九十]+等於多少？$/,
    );
    expect((await challengeFor("cancel", undefined, "ja-JP")).question).toMatch(/たす.*はいくつですか？$/);
    expect((await challengeFor("cancel", undefined, "ko-KR")).question).toMatch(/ 더하기 /);
  });

  it("refuses an unknown action, another body or no JSON with a 400 in the guest's language, never a 500", async () => {
    const unknown = await post("/api/captcha/trigger", { domain: HOST, action: "launch_rockets" }, undefined, "zh-TW");
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg.code).toBe("captcha_action");
    expect(unknown.body.msg.message).toBe("動作 launch_rockets 不需要驗證題目");
    const noAction = await post("/api/captcha/trigger", { domain: HOST });
    expect(noAction.status).toBe(400);
    const notJson = await apiJson(HOST, "/api/captcha/trigger?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    const noHotel = await post("/api/captcha/trigger", { domain: "nowhere.localhost", action: "sign_in" });
    expect(noHotel.status).toBe(404);
  });
});

describe("POST /api/captcha/verify", () => {
  it("answers a pass for the question's answer in digits, for that action and hotel, and spends it once", async () => {
    const challenge = await challengeFor("cancel");
    const { status, body } = await post("/api/captcha/verify", {
      domain: HOST,
      action: "cancel",
      token: challenge.token,
      answer: answerQuestion(challenge.question),
    });
    expect(status).toBe(200);
    const pass = body.data?.pass ?? "";
    expect(pass).toMatch(/^p1\.cancel\./);
    const ctx = { db: env.DB, signingSecret: env.SESSION_SECRET as string, now: new Date() };
    const id = await hotelId(HOST);
    // Another action or another hotel does not take it, and spends nothing.
    expect(await spendPass(ctx, id, "order", pass)).toBe(false);
    expect(await spendPass(ctx, await hotelId(OTHER), "cancel", pass)).toBe(false);
    // Forged: the same claims with another action written in.
    expect(await spendPass(ctx, id, "order", pass.replace("p1.cancel.", "p1.order."))).toBe(false);
    expect(await spendPass(ctx, id, "cancel", pass)).toBe(true);
    // Replayed.
    expect(await spendPass(ctx, id, "cancel", pass)).toBe(false);
  });

  it("a pass expires", async () => {
    const challenge = await challengeFor("cancel");
    const { body } = await post("/api/captcha/verify", {
      domain: HOST,
      action: "cancel",
      token: challenge.token,
      answer: answerQuestion(challenge.question),
    });
    const later = new Date(Date.now() + 6 * 60_000);
    expect(
      await spendPass(
        { db: env.DB, signingSecret: env.SESSION_SECRET as string, now: later },
        await hotelId(HOST),
        "cancel",
        body.data?.pass ?? "",
      ),
    ).toBe(false);
  });

  it("refuses a wrong answer in the guest's language with a new challenge, and the challenge cannot be answered again", async () => {
    const challenge = await challengeFor("cancel");
    const right = answerQuestion(challenge.question);
    const wrong = await post(
      "/api/captcha/verify",
      { domain: HOST, action: "cancel", token: challenge.token, answer: String(Number(right) + 1) },
      undefined,
      "ja-JP",
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg.code).toBe("captcha_wrong");
    expect(wrong.body.msg.message).toBe("確認の回答が一致しませんでした。新しい問題に答えてください");
    const fresh = (wrong.body.data as unknown as { challenge: Challenge }).challenge;
    expect(fresh.token).not.toBe(challenge.token);
    expect(fresh.question).toMatch(/たす/);
    // The right answer to the spent challenge: refused, it was used.
    const reused = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: challenge.token, answer: right });
    expect(reused.status).toBe(400);
    expect(reused.body.msg.code).toBe("captcha_expired");
  });

  it("a challenge passes once: the right answer twice gives one pass", async () => {
    const challenge = await challengeFor("cancel");
    const answer = answerQuestion(challenge.question);
    const first = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: challenge.token, answer });
    const second = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: challenge.token, answer });
    expect(first.status).toBe(200);
    expect(second.status).toBe(400);
    expect(second.body.msg.code).toBe("captcha_expired");
  });

  it("refuses a challenge of another action or hotel, a forged one and an expired one", async () => {
    const challenge = await challengeFor("cancel");
    const answer = answerQuestion(challenge.question);
    const otherAction = await post("/api/captcha/verify", { domain: HOST, action: "order", token: challenge.token, answer });
    expect(otherAction.body.msg.code).toBe("captcha_expired");
    const otherHotel = await apiJson(OTHER, "/api/captcha/verify?lang=en-US", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: OTHER, action: "cancel", token: challenge.token, answer }),
    });
    expect(otherHotel.status).toBe(400);
    expect(otherHotel.body.msg.code).toBe("captcha_expired");
    // A later expiry written into the token breaks its signature: the answer no longer matches.
    const [kind, action, hotel, expires, ...rest] = challenge.token.split(".");
    const stretched = [kind, action, hotel, String(Number(expires) + 86_400), ...rest].join(".");
    const forged = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: stretched, answer });
    expect(forged.body.msg.code).toBe("captcha_wrong");
    const garbage = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: "not-a-token", answer });
    expect(garbage.status).toBe(400);
    expect(garbage.body.msg.code).toBe("captcha_expired");
    // Answered eleven minutes later: expired.
    const late = await challengeFor("cancel");
    const response = await handleBackendRequest(
      new Request("https://backend.internal/api/captcha/verify?lang=en-US", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: HOST, action: "cancel", token: late.token, answer: answerQuestion(late.question) }),
      }),
      { db: env.DB, signingSecret: env.SESSION_SECRET as string, now: new Date(Date.now() + 11 * 60_000) },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { msg: { code: string } }).msg.code).toBe("captcha_expired");
  });

  it("takes the answer in any case and with full-width digits", async () => {
    const challenge = await challengeFor("cancel");
    const wide = answerQuestion(challenge.question).replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    const { status } = await post("/api/captcha/verify", { domain: HOST, action: "cancel", token: challenge.token, answer: ` ${wide} ` });
    expect(status).toBe(200);
  });

  it("refuses a guesser after thirty wrong answers in an hour, and only that caller", async () => {
    const guesser = "2001:db8:77::1";
    for (let i = 0; i < 30; i++) {
      const challenge = await challengeFor("cancel", guesser);
      const { status } = await post(
        "/api/captcha/verify",
        { domain: HOST, action: "cancel", token: challenge.token, answer: "0" },
        guesser,
      );
      expect(status).toBe(400);
    }
    // A neighbour in the same /64 is the same caller.
    const challenge = await challengeFor("cancel", "2001:db8:77::99");
    const refused = await post(
      "/api/captcha/verify",
      { domain: HOST, action: "cancel", token: challenge.token, answer: answerQuestion(challenge.question) },
      "2001:db8:77::99",
      "zh-TW",
    );
    expect(refused.status).toBe(429);
    expect(refused.body.msg.message).toBe("您的網路連線嘗試次數過多，請稍後再試");
    const other = await challengeFor("cancel", "2001:db8:78::1");
    const passed = await post(
      "/api/captcha/verify",
      { domain: HOST, action: "cancel", token: other.token, answer: answerQuestion(other.question) },
      "2001:db8:78::1",
    );
    expect(passed.status).toBe(200);
  });
});
