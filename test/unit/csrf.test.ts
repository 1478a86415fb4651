import { describe, expect, it } from "vitest";
import { CSRF_FIELD, csrfMatches, csrfTokenFor, isCsrfToken } from "~/lib/csrf";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the CSRF token", () => {
  it("keeps the browser's own token, and makes a new one (to be set) for none or a bad one", () => {
    const first = csrfTokenFor(null);
    expect(first.fresh).toBe(true);
    expect(isCsrfToken(first.token)).toBe(true);
    expect(csrfTokenFor(first.token)).toEqual({ token: first.token, fresh: false });
    for (const bad of ["", "a.b", "0f9c3b9e-8f5e-4d7a-9a53-3d1f4c2b1a00", 42, undefined]) {
      const next = csrfTokenFor(bad);
      expect(next.fresh).toBe(true);
      expect(next.token).not.toBe(first.token);
    }
  });

  it("takes a form only with its browser's token", () => {
    const { token } = csrfTokenFor(null);
    expect(csrfMatches(token, form({ [CSRF_FIELD]: token }))).toBe(true);
    expect(csrfMatches(token, form({ [CSRF_FIELD]: csrfTokenFor(null).token }))).toBe(false);
    expect(csrfMatches(token, form({}))).toBe(false);
    expect(csrfMatches(null, form({ [CSRF_FIELD]: token }))).toBe(false);
    expect(csrfMatches("", form({ [CSRF_FIELD]: "" }))).toBe(false);
  });
});
