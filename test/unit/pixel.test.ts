import { describe, expect, it } from "vitest";
import { createPixelDeduper } from "~/content/pixel";

describe("pixel events", () => {
  it("are sent once when repeated within 100 ms, and again after", () => {
    const sent: unknown[][] = [];
    let clock = 1_000;
    const track = createPixelDeduper((...args) => sent.push(args), () => clock);
    expect(track("track", "AddToCart", { value: 3200 })).toBe(true);
    clock += 60;
    expect(track("track", "AddToCart", { value: 3200 })).toBe(false);
    expect(track("track", "AddToCart", { value: 4000 })).toBe(true); // different data: its own event
    clock += 100;
    expect(track("track", "AddToCart", { value: 3200 })).toBe(true);
    expect(sent).toEqual([
      ["track", "AddToCart", { value: 3200 }],
      ["track", "AddToCart", { value: 4000 }],
      ["track", "AddToCart", { value: 3200 }],
    ]);
  });

  it("survives being inlined from its source", () => {
    const sent: unknown[][] = [];
    const rebuilt = new Function(`return (${createPixelDeduper.toString()})`)() as typeof createPixelDeduper;
    const track = rebuilt((...args) => sent.push(args));
    track("track", "PageView");
    track("track", "PageView");
    expect(sent).toHaveLength(1);
  });
});
