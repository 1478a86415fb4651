import { describe, expect, it } from "vitest";
import { PIXEL_STUB_SOURCE, pixelScript, type PixelStub } from "~/lib/pixel";

/** The stub exactly as the page runs it: from its source text. */
const createPixelStub = (now: () => number): PixelStub => new Function(`return (${PIXEL_STUB_SOURCE})`)()(now, 100);

const queued = (fbq: PixelStub) => fbq.queue.map((args) => Array.from(args));

describe("pixel events", () => {
  it("are queued once when repeated within 100 ms, and again after", () => {
    let clock = 1_000;
    const fbq = createPixelStub(() => clock);
    fbq("track", "AddToCart", { value: 3200 });
    clock += 60;
    fbq("track", "AddToCart", { value: 3200 });
    fbq("track", "AddToCart", { value: 4000 }); // different data: its own event
    clock += 100;
    fbq("track", "AddToCart", { value: 3200 });
    expect(queued(fbq)).toEqual([
      ["track", "AddToCart", { value: 3200 }],
      ["track", "AddToCart", { value: 4000 }],
      ["track", "AddToCart", { value: 3200 }],
    ]);
  });

  it("keep the stub contract fbevents.js relies on, and go to its callMethod once it is set", () => {
    let clock = 1_000;
    const fbq = createPixelStub(() => clock);
    expect(fbq.push).toBe(fbq);
    expect(fbq.loaded).toBe(true);
    expect(fbq.version).toBe("2.0");
    fbq("init", "123456789012");
    fbq("track", "PageView");
    fbq("track", "PageView");
    expect(queued(fbq)).toEqual([
      ["init", "123456789012"],
      ["track", "PageView"],
    ]);
    expect(Object.prototype.toString.call(fbq.queue[0])).toBe("[object Arguments]");

    // What fbevents.js does when it loads: it takes over calls through callMethod.
    const sent: unknown[][] = [];
    fbq.callMethod = (...args) => sent.push(args);
    clock += 500;
    fbq("track", "Purchase", { value: 3200, currency: "TWD" });
    fbq("track", "Purchase", { value: 3200, currency: "TWD" });
    expect(sent).toEqual([["track", "Purchase", { value: 3200, currency: "TWD" }]]);
    expect(fbq.queue).toHaveLength(2);
  });

  it("work from the snippet inlined into the page", () => {
    const inserted: { src?: string; async?: boolean }[] = [];
    const scriptTag = { parentNode: { insertBefore: (tag: { src?: string; async?: boolean }) => inserted.push(tag) } };
    const document = { createElement: () => ({}), getElementsByTagName: () => [scriptTag] };
    const window: { fbq?: PixelStub; _fbq?: PixelStub } = {};
    new Function("window", "document", pixelScript("123456789012"))(window, document);

    const fbq = window.fbq;
    if (!fbq) throw new Error("no window.fbq");
    expect(window._fbq).toBe(fbq);
    expect(inserted).toEqual([{ async: true, src: "https://connect.facebook.net/en_US/fbevents.js" }]);
    expect([fbq.push === fbq, fbq.loaded, fbq.version]).toEqual([true, true, "2.0"]);
    fbq("track", "PageView"); // a second page view straight after the snippet's own
    expect(queued(fbq)).toEqual([
      ["init", "123456789012"],
      ["track", "PageView"],
    ]);
    const sent: unknown[][] = [];
    fbq.callMethod = (...args) => sent.push(args);
    fbq("track", "Lead");
    expect(sent).toEqual([["track", "Lead"]]);
  });
});
