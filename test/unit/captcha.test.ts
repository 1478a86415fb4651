import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, captchaPicture, normalizedAnswer, randomCode } from "~/backend/captcha/picture";
import { randomSum, sumAnswer, sumWords } from "~/backend/captcha/question";
import { checkChallenge, checkPass, signChallenge, signPass } from "~/backend/captcha/token";
import { abuseLimits, DEFAULT_ABUSE_LIMITS } from "~/domain/abuse-limits";

/** A seeded generator, so a picture can be compared with itself. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

const SECRET = "a-test-secret-of-enough-length-0123456789";
const claims = { action: "sign_in", hotelId: 7, expires: 2_000_000_000, nonce: "AAAAAAAAAAAAAAAAAAAAAA" };

describe("the picture", () => {
  it("is drawn from outlines: paths only, no text or font, and differs with the randomness", () => {
    const svg = captchaPicture("AC347", seeded(1));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="220" height="72"/);
    expect(svg).not.toMatch(/<text|font|<script|href/);
    // Five glyph paths, in stroke widths of ink, among the noise.
    expect(svg.match(/stroke-linecap="round"/g)).toHaveLength(5);
    expect(captchaPicture("AC347", seeded(2))).not.toBe(svg);
    expect(captchaPicture("AC347", seeded(1))).toBe(svg);
  });

  it("draws every character as it always has, byte for byte", () => {
    // A pin of the glyph outlines: every character of the alphabet, five to a picture, each picture
    // from its own seed. Any change to a stroke, to the order of the characters or to the drawing
    // changes the digest.
    expect(CODE_ALPHABET).toBe("34679ACEFHKLMNPRTUVWXY");
    const pictures: string[] = [];
    for (let at = 0; at < CODE_ALPHABET.length; at += 5) {
      pictures.push(captchaPicture(CODE_ALPHABET.slice(at, at + 5), seeded(at + 1)));
    }
    expect(createHash("sha256").update(pictures.join("\n")).digest("hex")).toBe(
      "e810293478eaad380e5c1ec3d547921bef752826cabfa0a88bc8206803512c3d",
    );
  });

  it("codes use only characters that cannot be read as another", () => {
    expect(CODE_ALPHABET).not.toMatch(/[0O1IZ2S5B8]/);
    const code = randomCode(seeded(3));
    expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{5}$`));
  });

  it("reads an answer in any case, with spaces or full-width characters", () => {
    expect(normalizedAnswer(" ac 3k7 ")).toBe("AC3K7");
    expect(normalizedAnswer("ＡＣ３４７")).toBe("AC347");
  });
});

describe("the question in words", () => {
  it.each([
    ["en-US", { a: "seven", b: "five" }],
    ["zh-TW", { a: "七", b: "五" }],
    ["ja-JP", { a: "七", b: "五" }],
    ["ko-KR", { a: "칠", b: "오" }],
  ] as const)("in %s", (lang, words) => {
    expect(sumWords({ a: 7, b: 5 }, lang)).toEqual(words);
    expect(sumAnswer({ a: 7, b: 5 })).toBe("12");
  });

  it("has addends that all have words", () => {
    const random = seeded(9);
    for (let i = 0; i < 200; i++) {
      const sum = randomSum(random);
      expect(sumWords(sum, "en-US").a).toMatch(/^[a-z]+$/);
      expect(sumWords(sum, "en-US").b).toMatch(/^[a-z]+$/);
    }
  });
});

describe("the tokens", () => {
  it("a challenge carries neither answer, and takes either", async () => {
    const token = await signChallenge(SECRET, claims, ["AC347", "12"]);
    expect(token).not.toContain("AC347");
    expect(token.split(".")).toHaveLength(7);
    expect((await checkChallenge(SECRET, token, "AC347")).ok).toBe(true);
    expect((await checkChallenge(SECRET, token, "12")).ok).toBe(true);
    expect(await checkChallenge(SECRET, token, "13")).toEqual({ ok: false, reason: "wrong", claims });
    expect((await checkChallenge("another-secret-of-enough-length-0123456789", token, "12")).ok).toBe(false);
    expect((await checkChallenge(SECRET, token.replace("sign_in", "order"), "12")).ok).toBe(false);
    expect((await checkChallenge(SECRET, "c1.x", "12")).ok).toBe(false);
  });

  it("a pass is signed with its claims", async () => {
    const pass = await signPass(SECRET, claims);
    expect(await checkPass(SECRET, pass)).toEqual(claims);
    expect(await checkPass(SECRET, pass.replace(".7.", ".8."))).toBeNull();
    expect(await checkPass(SECRET, `${pass}x`)).toBeNull();
    // A challenge is not a pass.
    expect(await checkPass(SECRET, await signChallenge(SECRET, claims, ["A", "B"]))).toBeNull();
  });
});

describe("abuseLimits", () => {
  it("takes a hotel's own values over the defaults, and ignores what is out of range", () => {
    expect(abuseLimits("")).toEqual(DEFAULT_ABUSE_LIMITS);
    expect(abuseLimits("not json")).toEqual(DEFAULT_ABUSE_LIMITS);
    expect(abuseLimits('{"signin_captcha_after":5,"max_room_nights_unpaid":0,"signup_max_per_hour":"x"}')).toEqual({
      ...DEFAULT_ABUSE_LIMITS,
      signin_captcha_after: 5,
    });
  });
});
