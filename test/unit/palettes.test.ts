import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LAYOUT_PALETTES, NEUTRAL_PALETTE, contrastRatio, layoutPalette } from "~/layouts/palettes";
import { PAGE_LAYOUTS } from "~/layouts/templates";

// Decision 093: the account pages take the colours of the hotel's layout, as its stylesheet has them.

const BASE = { bg: "#fbfaf7", text: "#1f2328", accent: "#8a5a2b", "on-accent": "#fff" };

function themeColours(layout: string) {
  const css = readFileSync(new URL(`../../app/layouts/themes/${layout}.css`, import.meta.url), "utf8");
  const block = new RegExp(`\\.site--${layout}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? "";
  const value = (name: keyof typeof BASE | "link") => new RegExp(`--${name}:\\s*([^;}]+)`).exec(block)?.[1]?.trim();
  const accent = value("accent") ?? BASE.accent;
  const link = value("link");
  return {
    bg: value("bg") ?? BASE.bg,
    text: value("text") ?? BASE.text,
    link: link && !link.startsWith("var(") ? link : accent,
    accent,
    onAccent: value("on-accent") ?? BASE["on-accent"],
    dark: /color-scheme:\s*dark/.test(block),
  };
}

describe("layout palettes", () => {
  it.each(PAGE_LAYOUTS)("%s: the colours of its stylesheet", (layout) => {
    expect(LAYOUT_PALETTES[layout]).toEqual(themeColours(layout));
  });

  it.each([...PAGE_LAYOUTS, "neutral"])("%s: text, links and buttons read at 4.5:1", (layout) => {
    const palette = layout === "neutral" ? NEUTRAL_PALETTE : layoutPalette(layout);
    expect(contrastRatio(palette.text, palette.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette.link, palette.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette.onAccent, palette.accent)).toBeGreaterThanOrEqual(4.5);
  });

  it("an unknown layout gets the neutral colours", () => {
    expect(layoutPalette("layout_999")).toBe(NEUTRAL_PALETTE);
    expect(contrastRatio("#fff", "#000")).toBeCloseTo(21, 5);
  });
});
