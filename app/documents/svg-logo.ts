/**
 * The part of SVG that hotel logos use, read without a DOM (Workers have none): `<path>` with
 * `d`, `fill`, `opacity` and a `translate(…) scale(…)` transform, and `<text>` with `x`, `y`,
 * `font-size`, `fill` and `opacity`. Anything else in the file is left out.
 */
export interface SvgShape {
  kind: "path";
  d: string;
  fill: string;
  opacity: number;
  translate: [number, number];
  scale: number;
}

export interface SvgText {
  kind: "text";
  text: string;
  x: number;
  y: number;
  size: number;
  fill: string;
  opacity: number;
}

export interface SvgLogo {
  width: number;
  height: number;
  items: (SvgShape | SvgText)[];
}

const attribute = (tag: string, name: string): string | null => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
const numberOf = (value: string | null, fallback: number) => {
  const parsed = Number.parseFloat(value ?? "");
  return Number.isFinite(parsed) ? parsed : fallback;
};

const decode = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

export function parseSvgLogo(svg: string): SvgLogo | null {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0];
  if (!root) return null;
  const box = (attribute(root, "viewBox") ?? "").split(/[\s,]+/).map(Number);
  const width = box.length === 4 && Number.isFinite(box[2]) ? (box[2] as number) : numberOf(attribute(root, "width"), 0);
  const height = box.length === 4 && Number.isFinite(box[3]) ? (box[3] as number) : numberOf(attribute(root, "height"), 0);
  if (width <= 0 || height <= 0) return null;
  const items: SvgLogo["items"] = [];
  for (const match of svg.matchAll(/<path\b[^>]*>|<text\b([^>]*)>([^<]*)<\/text>/g)) {
    const tag = match[0];
    if (tag.startsWith("<path")) {
      const d = attribute(tag, "d");
      if (!d) continue;
      const transform = attribute(tag, "transform") ?? "";
      const translate = /translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)/.exec(transform);
      const scale = /scale\(\s*([-\d.]+)\s*\)/.exec(transform);
      items.push({
        kind: "path",
        d,
        fill: attribute(tag, "fill") ?? "#000",
        opacity: numberOf(attribute(tag, "opacity"), 1),
        translate: [numberOf(translate?.[1] ?? null, 0), numberOf(translate?.[2] ?? null, 0)],
        scale: numberOf(scale?.[1] ?? null, 1),
      });
    } else {
      const attributes = ` ${match[1] ?? ""}`;
      const text = decode(match[2] ?? "").trim();
      if (!text) continue;
      items.push({
        kind: "text",
        text,
        x: numberOf(attribute(attributes, "x"), 0),
        y: numberOf(attribute(attributes, "y"), 0),
        size: numberOf(attribute(attributes, "font-size"), 16),
        fill: attribute(attributes, "fill") ?? "#000",
        opacity: numberOf(attribute(attributes, "opacity"), 1),
      });
    }
  }
  return { width, height, items };
}

/** #rgb or #rrggbb as 0–1 components; anything else is black. */
export function svgColor(value: string): [number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim())?.[1];
  if (!hex) return [0, 0, 0];
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex;
  return [0, 2, 4].map((index) => parseInt(full.slice(index, index + 2), 16) / 255) as [number, number, number];
}
