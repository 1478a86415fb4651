/**
 * The captcha's picture, drawn by the server as SVG from glyph outlines (glyphs.ts): no font file
 * (a font-reading library does not load in workerd), no third-party script, nothing fetched. Each
 * character is a set of strokes on a 10 × 14 grid; every point is jittered, every glyph scaled,
 * rotated and placed at random, and noise lines and dots cross them. Pure.
 */
import { GLYPHS } from "./glyphs";

/** The characters a code is made of: none that reads as another (no 0/O, 1/I, 2/Z, 5/S, 8/B). */
export const CODE_ALPHABET = Object.keys(GLYPHS).join("");
export const CODE_LENGTH = 5;

export type Random = () => number;

/** A uniform number in [0, 1) from the platform's cryptographic generator. */
export const secureRandom: Random = () => crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;

export function randomCode(random: Random = secureRandom, length = CODE_LENGTH): string {
  let code = "";
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[Math.floor(random() * CODE_ALPHABET.length)];
  return code;
}

const WIDTH = 220;
const HEIGHT = 72;
const INK = ["#1d1d1b", "#1d4e89", "#6b1d5e", "#7a3b00", "#0b5a3a"];
const NOISE = ["#8a8a8a", "#a0708a", "#7090a8", "#9a8a5a"];

const round = (value: number) => Math.round(value * 10) / 10;
const between = (random: Random, low: number, high: number) => low + random() * (high - low);
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/**
 * The SVG of `code`: each glyph's strokes jittered point by point, scaled, rotated and shifted, in
 * one of a few dark inks on a light ground, under and over noise strokes and dots.
 */
export function captchaPicture(code: string, random: Random = secureRandom): string {
  const parts: string[] = [`<rect width="${WIDTH}" height="${HEIGHT}" fill="#f7f4ec"/>`];
  const noiseLine = () => {
    const y = () => round(between(random, 4, HEIGHT - 4));
    const x = (low: number, high: number) => round(between(random, low, high));
    return `<path d="M${x(0, 20)} ${y()}C${x(40, 90)} ${y()} ${x(120, 180)} ${y()} ${x(200, WIDTH)} ${y()}" fill="none" stroke="${pick(random, NOISE)}" stroke-width="${round(between(random, 1, 2.2))}"/>`;
  };
  for (let i = 0; i < 3; i++) parts.push(noiseLine());
  const slot = (WIDTH - 20) / code.length;
  [...code].forEach((char, index) => {
    const strokes = GLYPHS[char];
    if (!strokes) return;
    const scale = between(random, 2.4, 3);
    const angle = (between(random, -22, 22) * Math.PI) / 180;
    const cx = 10 + slot * index + slot / 2 + between(random, -4, 4);
    const cy = HEIGHT / 2 + between(random, -6, 6);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const d = strokes
      .map((stroke) =>
        stroke
          .map(([gx = 0, gy = 0], at) => {
            const x = (gx - 5 + between(random, -0.6, 0.6)) * scale * 0.9;
            const y = (gy - 7 + between(random, -0.6, 0.6)) * scale * 0.9;
            return `${at === 0 ? "M" : "L"}${round(cx + x * cos - y * sin)} ${round(cy + x * sin + y * cos)}`;
          })
          .join(""),
      )
      .join("");
    parts.push(
      `<path d="${d}" fill="none" stroke="${pick(random, INK)}" stroke-width="${round(between(random, 2.6, 3.6))}" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  });
  for (let i = 0; i < 3; i++) parts.push(noiseLine());
  for (let i = 0; i < 40; i++) {
    parts.push(
      `<circle cx="${round(between(random, 0, WIDTH))}" cy="${round(between(random, 0, HEIGHT))}" r="${round(between(random, 0.6, 1.8))}" fill="${pick(random, NOISE)}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join("")}</svg>`;
}

/** The picture as an `<img src>`: a data URL, so nothing is fetched and no markup of it enters the page. */
export function pictureDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

/** The same code, as typed: upper case, no spaces, full-width letters and digits read as ASCII. */
export function normalizedAnswer(answer: string): string {
  return answer.normalize("NFKC").replace(/\s+/g, "").toUpperCase().slice(0, 32);
}
