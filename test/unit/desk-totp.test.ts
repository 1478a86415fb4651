import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, totpCode, totpStep } from "~/backend/desk/totp";
import { newRecoveryCodes, normalizedRecoveryCode, recoveryCodeHash } from "~/backend/desk/recovery-codes";

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");

describe("TOTP (RFC 6238)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1234567890, "89005924"],
  ])("at T = %i s gives appendix B's SHA-1 code %s", async (seconds, code) => {
    expect(await hotp(RFC_SECRET, Math.floor(seconds / 30), 8)).toBe(code);
    // What an authenticator app shows: the last six digits.
    expect(await totpCode(base32Encode(RFC_SECRET), new Date(seconds * 1000))).toBe(code.slice(2));
  });

  it("reads base32 back as written, whatever its case and spaces", () => {
    const secret = base32Encode(RFC_SECRET);
    expect(secret).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode(secret.toLowerCase().replace(/(.{4})/g, "$1 "))).toEqual(RFC_SECRET);
    expect(base32Decode("not base32!")).toBeNull();
  });

  it("accepts one step of drift either side, and no code for a step already used", async () => {
    const secret = base32Encode(RFC_SECRET);
    const now = new Date(1111111109 * 1000);
    const step = totpStep(now);
    const before = await totpCode(secret, new Date(now.getTime() - 30_000));
    const after = await totpCode(secret, new Date(now.getTime() + 30_000));
    const tooOld = await totpCode(secret, new Date(now.getTime() - 60_000));
    expect(await matchTotp(secret, before, now, 0)).toBe(step - 1);
    expect(await matchTotp(secret, after, now, 0)).toBe(step + 1);
    expect(await matchTotp(secret, tooOld, now, 0)).toBeNull();
    expect(await matchTotp(secret, await totpCode(secret, now), now, step)).toBeNull();
    expect(await matchTotp(secret, "12345", now, 0)).toBeNull();
    expect(await matchTotp(secret, "abcdef", now, 0)).toBeNull();
  });

  it("writes the URI authenticator apps read", () => {
    expect(otpauthUri("Hotel Sun", "owner@example.com", "ABC")).toBe(
      "otpauth://totp/Hotel%20Sun:owner%40example.com?secret=ABC&issuer=Hotel%20Sun",
    );
  });
});

describe("recovery codes", () => {
  it("are ten different codes that read back however they are typed", async () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const first = codes[0]!;
    expect(normalizedRecoveryCode(` ${first.toLowerCase().replace("-", " ")} `)).toBe(first.replace("-", ""));
    expect(await recoveryCodeHash(first.toLowerCase())).toBe(await recoveryCodeHash(first));
    expect(normalizedRecoveryCode("OOOOO-IIIII")).toBeNull();
  });
});
