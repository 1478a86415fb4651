import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  base64,
  base64Url,
  fromBase64Url,
  fromHex,
  hmacKey,
  hmacSha256Base64,
  hmacSha256Base64Url,
  hmacSha256Hex,
  randomToken,
  safeEqual,
  sha256,
  sha256Hex,
  toHex,
} from "~/lib/crypto";

describe("hex", () => {
  it("writes and reads bytes", () => {
    expect(toHex(new Uint8Array([0, 15, 255]))).toBe("000fff");
    expect(fromHex("000fFF")).toEqual(new Uint8Array([0, 15, 255]));
  });

  it("refuses what is not hex", () => {
    expect(fromHex("abc")).toBeNull();
    expect(fromHex("zz")).toBeNull();
  });
});

describe("base64 and base64url", () => {
  it("encode bytes and a text's UTF-8 (RFC 4648 test vectors)", () => {
    expect(base64("foob")).toBe("Zm9vYg==");
    expect(base64Url("foob")).toBe("Zm9vYg");
    expect(base64Url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
    expect(base64("台")).toBe("5Y+w");
    expect(base64Url("台")).toBe("5Y-w");
  });

  it("read base64url back, with or without padding", () => {
    expect(new TextDecoder().decode(fromBase64Url("Zm9vYg") ?? undefined)).toBe("foob");
    expect(new TextDecoder().decode(fromBase64Url("Zm9vYg==") ?? undefined)).toBe("foob");
    expect(fromBase64Url("-_8")).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(fromBase64Url("")).toEqual(new Uint8Array());
  });

  it("refuse what is not base64url", () => {
    expect(fromBase64Url("Zm9v+g")).toBeNull();
    expect(fromBase64Url("Zm9vY")).toBeNull();
    expect(fromBase64Url("a b")).toBeNull();
  });

  it("pad 0, 1, 2 and 3 bytes as RFC 4648 says, and the url form drops the padding", () => {
    const cases: [number[], string, string][] = [
      [[], "", ""],
      [[0x66], "Zg==", "Zg"],
      [[0x66, 0x6f], "Zm8=", "Zm8"],
      [[0x66, 0x6f, 0x6f], "Zm9v", "Zm9v"],
      [[0xff], "/w==", "_w"],
      [[0xfb, 0xef], "++8=", "--8"],
      [[0xff, 0xff, 0xfe], "///+", "___-"],
    ];
    for (const [bytes, standard, url] of cases) {
      expect(base64(new Uint8Array(bytes))).toBe(standard);
      expect(base64Url(new Uint8Array(bytes))).toBe(url);
      expect(fromBase64Url(url)).toEqual(new Uint8Array(bytes));
    }
  });

  it("encode 1 MB (a PDF attachment's size) as Node's Buffer does, and read it back", () => {
    const bytes = new Uint8Array(randomBytes(1024 * 1024));
    const standard = base64(bytes);
    const url = base64Url(bytes);
    expect(standard).toBe(Buffer.from(bytes).toString("base64"));
    expect(url).toBe(Buffer.from(bytes).toString("base64url"));
    // Compared as Node's base64 of the bytes read back: a deep equal of a million numbers is slow.
    expect(Buffer.from(fromBase64Url(url) ?? []).toString("base64")).toBe(Buffer.from(bytes).toString("base64"));
    expect(base64(bytes.buffer)).toBe(standard);
  });
});

describe("SHA-256 and HMAC-SHA256", () => {
  it("give the known digests", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(toHex(await sha256("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("sign as RFC 4231 test case 2 says, in hex, base64 and base64url", async () => {
    const mac = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(await hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe(mac);
    expect(await hmacSha256Base64("Jefe", "what do ya want for nothing?")).toBe(base64(fromHex(mac) ?? new Uint8Array()));
    expect(await hmacSha256Base64Url("Jefe", "what do ya want for nothing?")).toBe(base64Url(fromHex(mac) ?? new Uint8Array()));
  });

  it("make a key that verifies its own signatures and no other", async () => {
    const key = await hmacKey("secret");
    const text = new TextEncoder().encode("order-link:1:PT1:view:0");
    const signature = await crypto.subtle.sign("HMAC", key, text);
    expect(await crypto.subtle.verify("HMAC", key, signature, text)).toBe(true);
    expect(await crypto.subtle.verify("HMAC", await hmacKey("other"), signature, text)).toBe(false);
  });
});

describe("random tokens", () => {
  it("are 43 base64url characters, a new one each time", () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
  });
});

describe("safeEqual", () => {
  it("compares texts and bytes", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("é", "e")).toBe(false);
    expect(safeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(safeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
  });
});
