import { describe, expect, it } from "vitest";
import { remembered } from "~/backend/versioned";

/** A read that counts how often it ran and answers what it is given. */
function counted<T>(answers: T[]) {
  let calls = 0;
  return {
    read: async () => answers[Math.min(calls++, answers.length - 1)] as T,
    calls: () => calls,
  };
}

describe("what an import alone changes, kept per content version (decision 046)", () => {
  it("reads once per key and shares the result, frozen", async () => {
    const rows = counted([[{ id: 1, name: "Double" }]]);
    const [first, second] = await Promise.all([remembered("rooms 1 7", rows.read), remembered("rooms 1 7", rows.read)]);
    expect(rows.calls()).toBe(1);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
    // A new version (an import) is a new key: read again.
    await remembered("rooms 1 8", rows.read);
    expect(rows.calls()).toBe(2);
  });

  it("uses a result read at another version once and does not keep it", async () => {
    // A lagging replica answered version 3 for a key that names version 4.
    const reads = counted([{ version: 3 }, { version: 4 }]);
    const keeps = (result: { version: number }) => result.version === 4;
    expect(await remembered("plans 2 4", reads.read, keeps)).toEqual({ version: 3 });
    expect(await remembered("plans 2 4", reads.read, keeps)).toEqual({ version: 4 });
    expect(await remembered("plans 2 4", reads.read, keeps)).toEqual({ version: 4 });
    expect(reads.calls()).toBe(2);
  });

  it("forgets a failed read", async () => {
    let calls = 0;
    const read = async () => {
      calls += 1;
      if (calls === 1) throw new Error("D1 unavailable");
      return { id: 9 };
    };
    await expect(remembered("hotel 9 1", read)).rejects.toThrow("D1 unavailable");
    expect(await remembered("hotel 9 1", read)).toEqual({ id: 9 });
    expect(calls).toBe(2);
  });
});
