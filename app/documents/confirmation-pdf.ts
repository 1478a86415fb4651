/**
 * BOOKING_CONFIRMATION.pdf (spec §2): the hotel's name, logo, address and contact, then the order
 * in sections, in the order's language. Text is drawn in runs by font: Noto Sans TC (Latin, Han,
 * kana) and Noto Sans KR for what TC lacks (Hangul); both embedded as subsets (decision 042).
 */
import { PDFDocument, rgb, type PDFFont, type PDFPage } from "@cantoo/pdf-lib";
import { fontkitAdapter, openFont } from "~/documents/fontkit-adapter";
import { svgColor, type SvgLogo } from "~/documents/svg-logo";

export interface ConfirmationDocument {
  title: string;
  hotel: { name: string; lines: string[] };
  sections: { heading: string; rows: [string, string][]; paragraphs?: string[] }[];
}

export interface DocumentFonts {
  /** Noto Sans TC, TrueType. */
  tc: Uint8Array;
  /** Noto Sans KR, TrueType: Hangul. Left out (fonts.server.ts) when the document has none. */
  kr?: Uint8Array | null;
  /** Noto Sans SC, TrueType, when installed: the simplified characters TC lacks (订, 确, 书…). */
  sc?: Uint8Array | null;
}

/** An embedded font and whether it has a glyph for a code point. */
interface FontFace {
  font: PDFFont;
  has: (codePoint: number) => boolean;
}

/** A logo: a PNG or JPEG image, or an SVG of paths and text (svg-logo.ts). */
export type Logo = { type: "png" | "jpg"; bytes: Uint8Array } | { type: "svg"; svg: SvgLogo };

const PAGE = { width: 595.28, height: 841.89, margin: 50 };

/**
 * Drawn in place of a character that none of the fonts has (an emoji, Arabic, Hebrew…): a visible
 * question mark, one per character as a reader sees it, never the font's empty box (issue 25 item 19).
 */
export const MISSING_GLYPH = "?";
/** Parts of a character that draw nothing on their own: joiners, variation selectors, skin tones, tags. */
const invisiblePart = (codePoint: number) =>
  codePoint === 0x200c ||
  codePoint === 0x200d ||
  (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
  (codePoint >= 0x1f3fb && codePoint <= 0x1f3ff) ||
  (codePoint >= 0xe0020 && codePoint <= 0xe007f);
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const INK = rgb(0.13, 0.13, 0.13);
const MUTED = rgb(0.4, 0.4, 0.4);

interface Run {
  text: string;
  font: PDFFont;
}

class Writer {
  private page: PDFPage;
  /** Runs of each text measured or drawn: wrapping and balancing measure the same words many times. */
  private readonly runsOf = new Map<string, Run[]>();
  private readonly widths = new Map<string, number>();
  private readonly drawableOf = new Map<string, string>();
  private y: number;
  /** Room kept free at the right for the logo, down to `logoBottom`. */
  private logoWidth = 0;
  private logoBottom = PAGE.height;

  /** `faces` in order of preference; the first is the font for spaces and for what none has. */
  constructor(
    private readonly doc: PDFDocument,
    private readonly faces: FontFace[],
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  private fontFor(char: string): PDFFont {
    const first = this.faces[0];
    if (!first) throw new Error("no font");
    const codePoint = char.codePointAt(0) ?? 32;
    if (/\s/.test(char)) return first.font;
    return (this.faces.find((face) => face.has(codePoint)) ?? first).font;
  }

  /** The text as the fonts can draw it: each character none of them has becomes MISSING_GLYPH. */
  drawable(text: string): string {
    const known = this.drawableOf.get(text);
    if (known !== undefined) return known;
    const drawn = (char: string) =>
      /\s/.test(char) || invisiblePart(char.codePointAt(0) ?? 32) || this.faces.some((face) => face.has(char.codePointAt(0) ?? 32));
    let out = text;
    // Grapheme by grapheme only when some character is missing: most text is drawn as it is.
    if (![...text].every(drawn)) {
      out = "";
      for (const { segment } of graphemes.segment(text)) out += [...segment].every(drawn) ? segment : MISSING_GLYPH;
    }
    this.drawableOf.set(text, out);
    return out;
  }

  /** Splits text into runs of one font each. */
  runs(text: string): Run[] {
    const known = this.runsOf.get(text);
    if (known) return known;
    const runs: Run[] = [];
    for (const char of this.drawable(text)) {
      const font = this.fontFor(char);
      const last = runs[runs.length - 1];
      if (last && last.font === font) last.text += char;
      else runs.push({ text: char, font });
    }
    this.runsOf.set(text, runs);
    return runs;
  }

  width(text: string, size: number): number {
    const key = `${size}|${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = this.runs(text).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
      this.widths.set(key, width);
    }
    return width;
  }

  /**
   * Breaks text into lines that fit: at spaces for words, anywhere between CJK characters, and inside
   * a word only when the word alone is wider than the line (a 100-character name without spaces).
   */
  wrap(text: string, size: number, maxWidth: number): string[] {
    // Words stay whole; CJK text may break between any two characters.
    const tokens = (this.drawable(text).match(/\s*\S+\s*/g) ?? [text])
      .flatMap((token) => (/[\u2E80-\uFFFF]/.test(token) ? [...token] : [token]))
      .flatMap((token) => (this.width(token.trim(), size) > maxWidth ? this.pieces(token, size, maxWidth) : [token]));
    const lines: string[] = [];
    let line = "";
    for (const token of tokens) {
      if (line !== "" && this.width(line + token.trimEnd(), size) > maxWidth) {
        lines.push(line.trimEnd());
        line = token.trimStart();
      } else line += token;
    }
    if (line.trim() !== "" || lines.length === 0) lines.push(line.trimEnd());
    return lines;
  }

  /** A word wider than the line, cut into pieces that each fit. */
  private pieces(word: string, size: number, maxWidth: number): string[] {
    const pieces: string[] = [];
    let piece = "";
    for (const { segment } of graphemes.segment(word)) {
      if (piece.trim() !== "" && this.width((piece + segment).trim(), size) > maxWidth) {
        pieces.push(piece);
        piece = segment;
      } else piece += segment;
    }
    if (piece !== "") pieces.push(piece);
    return pieces;
  }

  /**
   * Lines of even length (as CSS text-wrap: balance) for a heading: the same number of lines as the
   * widest wrap, at the narrowest width that keeps that number, so no character is left alone on
   * the last line ("…日月" / "潭").
   */
  balanced(text: string, size: number, maxWidth: number): string[] {
    const lines = this.wrap(text, size, maxWidth);
    if (lines.length < 2) return lines;
    let low = maxWidth / lines.length;
    let high = maxWidth;
    for (let step = 0; step < 12; step++) {
      const middle = (low + high) / 2;
      if (this.wrap(text, size, middle).length > lines.length) low = middle;
      else high = middle;
    }
    return this.wrap(text, size, high);
  }

  private ensure(height: number) {
    if (this.y - height >= PAGE.margin) return;
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  draw(text: string, x: number, size: number, color = INK) {
    let cursor = x;
    for (const run of this.runs(text)) {
      this.page.drawText(run.text, { x: cursor, y: this.y - size, size, font: run.font, color });
      cursor += run.font.widthOfTextAtSize(run.text, size);
    }
  }

  paragraph(text: string, size: number, color = INK, indent = 0, balance = false) {
    const reserve = this.y > this.logoBottom ? this.logoWidth + 12 : 0;
    const maxWidth = PAGE.width - 2 * PAGE.margin - indent - reserve;
    for (const line of balance ? this.balanced(text, size, maxWidth) : this.wrap(text, size, maxWidth)) {
      this.ensure(size * 1.5);
      this.draw(line, PAGE.margin + indent, size, color);
      this.y -= size * 1.5;
    }
  }

  row(label: string, value: string, size: number) {
    const labelWidth = 130;
    const labels = this.wrap(label, size, labelWidth - 10);
    const lines = this.wrap(value, size, PAGE.width - 2 * PAGE.margin - labelWidth);
    this.ensure(size * 1.5 * Math.max(lines.length, labels.length));
    for (let index = 0; index < Math.max(lines.length, labels.length); index++) {
      if (index > 0) this.ensure(size * 1.5);
      const labelLine = labels[index];
      const line = lines[index];
      if (labelLine) this.draw(labelLine, PAGE.margin, size, MUTED);
      if (line) this.draw(line, PAGE.margin + labelWidth, size);
      this.y -= size * 1.5;
    }
  }

  gap(points: number) {
    this.y -= points;
  }

  rule() {
    this.ensure(8);
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.5,
      color: MUTED,
    });
    this.y -= 8;
  }

  /** The logo at the top right, 40 points high. */
  async logo(logo: Logo) {
    const height = 40;
    if (logo.type === "svg") return this.svgLogo(logo.svg, height);
    const image = logo.type === "png" ? await this.doc.embedPng(logo.bytes) : await this.doc.embedJpg(logo.bytes);
    const width = (image.width / image.height) * height;
    this.page.drawImage(image, { x: PAGE.width - PAGE.margin - width, y: this.y - height, width, height });
    this.reserveForLogo(width, height);
  }

  private reserveForLogo(width: number, height: number) {
    this.logoWidth = width;
    this.logoBottom = this.y - height;
  }

  private svgLogo(svg: SvgLogo, height: number) {
    const scale = height / svg.height;
    const left = PAGE.width - PAGE.margin - svg.width * scale;
    const top = this.y;
    this.reserveForLogo(svg.width * scale, height);
    for (const item of svg.items) {
      const color = rgb(...svgColor(item.fill));
      if (item.kind === "path") {
        this.page.drawSvgPath(item.d, {
          x: left + item.translate[0] * scale,
          y: top - item.translate[1] * scale,
          scale: item.scale * scale,
          color,
          opacity: item.opacity,
          borderWidth: 0,
        });
      } else {
        let cursor = left + item.x * scale;
        const size = item.size * scale;
        for (const run of this.runs(item.text)) {
          this.page.drawText(run.text, { x: cursor, y: top - item.y * scale, size, font: run.font, color, opacity: item.opacity });
          cursor += run.font.widthOfTextAtSize(run.text, size);
        }
      }
    }
  }
}

/** A subset font's name carries a tag of six capital letters (PDF 32000 §9.6.4), which readers show as "subset". */
function subsetName(postscriptName: string): string {
  const tag = [...crypto.getRandomValues(new Uint8Array(6))].map((byte) => String.fromCharCode(65 + (byte % 26))).join("");
  return `${tag}+${postscriptName}`;
}

/** Every text the document draws, the logo's words included: what decides the fonts it needs. */
export function documentTexts(content: ConfirmationDocument, logo?: Logo | null): string[] {
  return [
    content.title,
    content.hotel.name,
    ...content.hotel.lines,
    ...content.sections.flatMap((section) => [section.heading, ...section.rows.flat(), ...(section.paragraphs ?? [])]),
    ...(logo?.type === "svg" ? logo.svg.items.flatMap((item) => (item.kind === "text" ? [item.text] : [])) : []),
  ];
}

export async function buildConfirmationPdf(content: ConfirmationDocument, fonts: DocumentFonts, logo?: Logo | null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkitAdapter as unknown as Parameters<PDFDocument["registerFontkit"]>[0]);
  const sources: [string, Uint8Array | null | undefined][] = [
    ["NotoSansTC-Regular", fonts.tc],
    ["NotoSansSC-Regular", fonts.sc],
    ["NotoSansKR-Regular", fonts.kr],
  ];
  const faces: FontFace[] = [];
  for (const [name, bytes] of sources) {
    if (!bytes) continue;
    const parsed = openFont(bytes);
    // Embedded lazily by pdf-lib: a font no text uses adds nothing to the file.
    faces.push({
      font: await doc.embedFont(bytes, { subset: true, customName: subsetName(name) }),
      has: (codePoint) => parsed.has(codePoint),
    });
  }
  const writer = new Writer(doc, faces);
  doc.setTitle(`${content.title} · ${content.hotel.name}`);
  doc.setCreator(content.hotel.name);
  doc.setProducer(content.hotel.name);

  if (logo) await writer.logo(logo).catch(() => undefined);
  writer.paragraph(content.hotel.name, 18, INK, 0, true);
  for (const line of content.hotel.lines) writer.paragraph(line, 9, MUTED);
  writer.gap(6);
  writer.rule();
  writer.paragraph(content.title, 16, INK, 0, true);
  writer.gap(4);
  for (const section of content.sections) {
    writer.gap(6);
    writer.paragraph(section.heading, 12);
    for (const [label, value] of section.rows) writer.row(label, value, 10);
    for (const text of section.paragraphs ?? []) writer.paragraph(text, 9);
  }
  return doc.save();
}
