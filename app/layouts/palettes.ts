/**
 * The colours of each page layout's theme (themes/layout_*.css: --bg, --text, --link, --accent,
 * --on-accent), for what the Worker writes outside the React pages: the account service's sign-in
 * and sign-up pages look like the hotel's own site (decision 093). A unit test holds this table to
 * the stylesheets.
 */
import { PAGE_LAYOUTS, type PageLayout } from "./templates";

export interface Palette {
  /** The page's background and text. */
  bg: string;
  text: string;
  /** Links on the page's background. */
  link: string;
  /** Buttons: their background and their text. */
  accent: string;
  onAccent: string;
  /** A dark theme: the hotel's white logo goes on it. */
  dark: boolean;
}

export const LAYOUT_PALETTES: Record<PageLayout, Palette> = {
  layout_100: { bg: "#f3f0e6", text: "#1f2a1f", link: "#2c5736", accent: "#2f5d3a", onAccent: "#fff", dark: false },
  layout_200: { bg: "#fbf4ea", text: "#3a2a20", link: "#9a4325", accent: "#a84a2a", onAccent: "#fff", dark: false },
  layout_300: { bg: "#f7f2e8", text: "#10263b", link: "#174a6e", accent: "#174a6e", onAccent: "#fff", dark: false },
  layout_400: { bg: "#fffbe8", text: "#111", link: "#111", accent: "#111", onAccent: "#ffd400", dark: false },
  layout_500: { bg: "#fdfcff", text: "#2e2a3a", link: "#5d4b99", accent: "#6552a3", onAccent: "#fff", dark: false },
  layout_501: { bg: "#1b1220", text: "#f5eaf0", link: "#f2bba5", accent: "#e6a88e", onAccent: "#2a1420", dark: true },
  layout_600: { bg: "#f5f1e7", text: "#1c2340", link: "#2b3a67", accent: "#2b3a67", onAccent: "#fff", dark: false },
  layout_700: { bg: "#f4f3f0", text: "#1c1d1f", link: "#7a5c2e", accent: "#7a5c2e", onAccent: "#fff", dark: false },
  layout_701: { bg: "#fff", text: "#14232b", link: "#00696c", accent: "#00777a", onAccent: "#fff", dark: false },
  layout_702: { bg: "#fff", text: "#0d0d0d", link: "#0d0d0d", accent: "#0d0d0d", onAccent: "#fff", dark: false },
  layout_800: { bg: "#f1eee3", text: "#2a2a22", link: "#4a5a31", accent: "#4a5a31", onAccent: "#fff", dark: false },
  layout_900: { bg: "#f8f5ed", text: "#2c2a21", link: "#56642a", accent: "#5b6a2b", onAccent: "#fff", dark: false },
  layout_1000: { bg: "#fbf8f1", text: "#14213d", link: "#14213d", accent: "#14213d", onAccent: "#fff", dark: false },
};

/** A hotel whose layout is unknown: charcoal on stone, no hue of anyone's brand. */
export const NEUTRAL_PALETTE: Palette = {
  bg: "#f4f2ee",
  text: "#1d1d1b",
  link: "#1f2328",
  accent: "#1f2328",
  onAccent: "#fff",
  dark: false,
};

export function layoutPalette(templateCode: string): Palette {
  return (PAGE_LAYOUTS as readonly string[]).includes(templateCode) ? LAYOUT_PALETTES[templateCode as PageLayout] : NEUTRAL_PALETTE;
}

function luminance(hex: string): number {
  const digits = hex.replace("#", "");
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits;
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((start) => {
    const channel = parseInt(full.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two #rgb or #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The first of `colours` that reads as text on `background` (4.5:1, WCAG 1.4.3), else the last. */
export function readableOn(background: string, colours: readonly string[]): string {
  return colours.find((colour) => contrastRatio(colour, background) >= 4.5) ?? colours[colours.length - 1] ?? "#000";
}
