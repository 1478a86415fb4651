import { describe, expect, it } from "vitest";
import { escapeHtml } from "~/lib/html";

describe("escapeHtml", () => {
  it("escapes the five characters that end a text node or a quoted attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;",
    );
  });

  it("leaves other text as it is, entities included (they are escaped again)", () => {
    expect(escapeHtml("台北 101 · NT$3,200")).toBe("台北 101 · NT$3,200");
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
  });
});
