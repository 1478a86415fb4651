import { describe, expect, it } from "vitest";
import { MemoryCache } from "~/lib/memory";

describe("the instance's memory in front of the Cache API (decision 046)", () => {
  it("drops the least recently used entry past its count", () => {
    const memory = new MemoryCache<string>(2);
    memory.set("menu", "m", 1);
    memory.set("rooms", "r", 2);
    expect(memory.get("menu")?.value).toBe("m"); // read: now the most recent
    memory.set("news", "n", 3);
    expect(memory.get("rooms")).toBeUndefined();
    expect(memory.get("menu")).toEqual({ value: "m", storedAt: 1 });
    expect(memory.get("news")).toEqual({ value: "n", storedAt: 3 });
  });

  it("keeps within its byte budget, and counts a replaced entry once", () => {
    const memory = new MemoryCache<string>(100, { maxBytes: 10, sizeOf: (body) => body.length });
    memory.set("a", "12345", 1);
    memory.set("a", "1234", 2);
    memory.set("b", "123456", 3);
    expect(memory.get("a")?.value).toBe("1234"); // 4 + 6 bytes fit
    memory.set("c", "123", 4); // 13 bytes: the least recently used (b) goes
    expect(memory.get("b")).toBeUndefined();
    expect(memory.get("a")?.value).toBe("1234");
    expect(memory.get("c")?.value).toBe("123");
    memory.delete("a");
    memory.set("d", "1234567", 5); // 3 + 7 bytes fit once a is gone
    expect(memory.get("c")?.value).toBe("123");
    expect(memory.get("d")?.value).toBe("1234567");
  });
});
