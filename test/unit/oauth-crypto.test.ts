import { describe, expect, it } from "vitest";
import { builtInClientSecret, CODE_VERIFIER, pkceChallenge } from "~/lib/oauth-crypto";
import { hmacSha256Base64Url, randomToken } from "~/lib/crypto";
import { hashPassword, verifyPassword, PBKDF2_ITERATIONS, MAX_PBKDF2_ITERATIONS } from "~/backend/account/passwords";

describe("PKCE S256", () => {
  it("gives RFC 7636 appendix B's challenge for its verifier", async () => {
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("makes verifiers of 43 unreserved characters, a new one each time", () => {
    const a = randomToken();
    expect(a).toMatch(CODE_VERIFIER);
    expect(a).toHaveLength(43);
    expect(randomToken()).not.toBe(a);
  });
});

describe("the built-in account service's client secret", () => {
  it("is the HMAC of the client id under the signing secret, so nothing is stored", async () => {
    const secret = await builtInClientSecret("signing-secret", "hotel.example");
    expect(secret).toBe(await hmacSha256Base64Url("signing-secret", "oauth-client:hotel.example"));
    expect(secret).not.toBe(await builtInClientSecret("signing-secret", "other.example"));
  });
});

describe("member passwords", () => {
  it("use PBKDF2 with no more than the 100,000 iterations deployed Workers allow", async () => {
    expect(MAX_PBKDF2_ITERATIONS).toBe(100_000);
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(MAX_PBKDF2_ITERATIONS);
    const stored = await hashPassword("portico-demo-1");
    expect(Number(stored.split("$")[0])).toBeLessThanOrEqual(100_000);
    expect(await verifyPassword("portico-demo-1", stored)).toBe(true);
    expect(await verifyPassword("portico-demo-2", stored)).toBe(false);
  });

  it("refuses a stored hash asking for more iterations than Workers allow, without deriving it", async () => {
    const stored = await hashPassword("portico-demo-1");
    const [, salt, hash] = stored.split("$");
    expect(await verifyPassword("portico-demo-1", `100001$${salt}$${hash}`)).toBe(false);
    expect(await verifyPassword("portico-demo-1", `abc$${salt}$${hash}`)).toBe(false);
  });
});
