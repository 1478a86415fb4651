/**
 * pdf-lib's font engine interface over upstream fontkit 2 (docs/decisions/042, 112). `@pdf-lib/fontkit`
 * 1.1.1 corrupts subset CJK fonts (blank glyphs); fontkit 2 subsets them correctly but its subset
 * has `encode()` (bytes) where pdf-lib calls `encodeStream().on("data" | "end")`. This wraps it.
 *
 * Speed (decision 112): each font is parsed once per isolate (fontkit keeps the tables it decoded),
 * and `layout` — which pdf-lib calls to measure and to draw every run — maps text in scripts that
 * need no shaping (Han, kana, precomposed Hangul, CJK punctuation) straight through the font's cmap
 * to glyphs and their advance widths: what full shaping gives for them, without its cost. Other text
 * (Latin has ligatures and contextual digits in Noto Sans CJK) is shaped by fontkit, once per string.
 * pdf-lib reads only a glyph's id, advance width and code points (for the ToUnicode map), so layout
 * answers plain objects whose code points are the text's own.
 */
import * as fontkit from "fontkit";

type Chunk = (data: Uint8Array) => unknown;

interface UpstreamGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface UpstreamSubset {
  includeGlyph(glyph: unknown): number;
  encode(): Uint8Array;
}

/** What fontkit 2's TrueType subset keeps while it encodes (TTFSubset._addGlyph fills these). */
interface TrueTypeSubsetInternals {
  _addGlyph(gid: number): number;
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[] };
  hmtx: { metrics: { advance: number; bearing: number }[] };
}

/** fontkit 2's internals that the subset reads for one glyph (as TTFSubset._addGlyph does). */
interface TrueTypeInternals {
  _variationProcessor?: unknown;
  loca: { offsets: number[] };
  _getTableStream(tag: "glyf"): { pos: number; readBuffer(length: number): Uint8Array };
  getGlyph(gid: number): {
    advanceWidth: number;
    _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
    _getMetrics(): { leftBearing: number };
  };
}

/** A glyph's outline bytes as the font stores them, the glyphs a compound one is made of, and its metrics. */
interface GlyphData {
  bytes: Uint8Array;
  components: { glyphID: number; pos: number }[] | null;
  advance: number;
  bearing: number;
}

interface UpstreamFont {
  createSubset(): UpstreamSubset;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): UpstreamGlyph;
  layout(text: string, features?: unknown): { glyphs: UpstreamGlyph[] };
}

/** A glyph as pdf-lib uses it. */
export interface LaidGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** What pdf-lib and the PDF writer use of a parsed font. */
export interface ParsedFont {
  has(codePoint: number): boolean;
  layout(text: string): { glyphs: LaidGlyph[] };
}

/** The stream pdf-lib reads a subset from: "data" once with every byte, then "end". */
function subsetStream(encode: () => Uint8Array) {
  let onData: Chunk | null = null;
  const stream = {
    on(event: "data" | "end", callback: Chunk) {
      if (event === "data") onData = callback;
      else {
        const bytes = encode();
        onData?.(bytes);
        callback(bytes);
      }
      return stream;
    },
  };
  return stream;
}

/**
 * Code points whose glyph no default OpenType feature of Noto Sans TC/SC/KR changes, each alone or
 * next to another: CJK radicals, symbols and punctuation, kana (not the combining sound marks),
 * bopomofo, Han (BMP and supplementary), precomposed Hangul syllables, compatibility ideographs,
 * full-width forms. (Hangul jamo compose, Latin forms ligatures, the vertical kana repeat marks 〳〵
 * join: those are shaped.) test/unit/confirmation-pdf.test.ts checks every code point of the three fonts.
 */
export function needsNoShaping(codePoint: number): boolean {
  return (
    (codePoint >= 0x2e80 && codePoint <= 0x3030) ||
    (codePoint >= 0x3036 && codePoint <= 0x3098) ||
    (codePoint >= 0x309b && codePoint <= 0x312f) ||
    (codePoint >= 0x3190 && codePoint <= 0x31ff) ||
    (codePoint >= 0x3400 && codePoint <= 0x4dbf) ||
    (codePoint >= 0x4e00 && codePoint <= 0x9fff) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xff01 && codePoint <= 0xff60) ||
    (codePoint >= 0x20000 && codePoint <= 0x3134f)
  );
}

/** Shaped strings kept per font: the tokens a confirmation measures again and again while wrapping. */
const SHAPED_LIMIT = 4_000;

class Parsed implements ParsedFont {
  private readonly direct = new Map<number, LaidGlyph>();
  private readonly shaped = new Map<string, LaidGlyph[]>();
  private readonly present = new Map<number, boolean>();

  private readonly outlines = new Map<number, GlyphData>();

  constructor(readonly font: UpstreamFont) {}

  /** A glyph's data for a subset, read from the font once per isolate (fontkit decodes the whole outline each time). */
  glyphData(gid: number): GlyphData {
    let data = this.outlines.get(gid);
    if (!data) {
      const font = this.font as unknown as TrueTypeInternals;
      const glyph = font.getGlyph(gid);
      const decoded = glyph._decode();
      const start = font.loca.offsets[gid] ?? 0;
      const end = font.loca.offsets[gid + 1] ?? start;
      const stream = font._getTableStream("glyf");
      stream.pos += start;
      data = {
        bytes: stream.readBuffer(end - start),
        components:
          decoded && decoded.numberOfContours < 0 ? (decoded.components ?? []).map(({ glyphID, pos }) => ({ glyphID, pos })) : null,
        advance: glyph.advanceWidth,
        bearing: glyph._getMetrics().leftBearing,
      };
      this.outlines.set(gid, data);
    }
    return data;
  }

  /** A subset whose glyphs come from glyphData: fontkit's TTFSubset._addGlyph, without decoding outlines again. */
  createSubset(): UpstreamSubset {
    const subset = this.font.createSubset() as UpstreamSubset & TrueTypeSubsetInternals;
    if ((this.font as unknown as TrueTypeInternals)._variationProcessor || typeof subset._addGlyph !== "function") return subset;
    subset._addGlyph = (gid: number) => {
      const data = this.glyphData(gid);
      let bytes = data.bytes;
      if (data.components) {
        bytes = new Uint8Array(bytes);
        const view = new DataView(bytes.buffer);
        for (const component of data.components) view.setUint16(component.pos, subset.includeGlyph(component.glyphID));
      }
      subset.glyf.push(bytes);
      subset.loca.offsets.push(subset.offset);
      subset.hmtx.metrics.push({ advance: data.advance, bearing: data.bearing });
      subset.offset += bytes.length;
      return subset.glyf.length - 1;
    };
    return subset;
  }

  has(codePoint: number): boolean {
    let known = this.present.get(codePoint);
    if (known === undefined) {
      known = this.font.hasGlyphForCodePoint(codePoint);
      this.present.set(codePoint, known);
    }
    return known;
  }

  private glyphFor(codePoint: number): LaidGlyph {
    let glyph = this.direct.get(codePoint);
    if (!glyph) {
      const upstream = this.font.glyphForCodePoint(codePoint);
      glyph = { id: upstream.id, advanceWidth: upstream.advanceWidth, codePoints: [codePoint] };
      this.direct.set(codePoint, glyph);
    }
    return glyph;
  }

  layout(text: string): { glyphs: LaidGlyph[] } {
    const codePoints: number[] = [];
    let plain = true;
    for (const char of text) {
      const codePoint = char.codePointAt(0) ?? 0;
      codePoints.push(codePoint);
      if (!needsNoShaping(codePoint)) plain = false;
    }
    if (plain) return { glyphs: codePoints.map((codePoint) => this.glyphFor(codePoint)) };
    let glyphs = this.shaped.get(text);
    if (!glyphs) {
      const upstream = this.font.layout(text).glyphs;
      // One glyph per character: its code point is the text's (fontkit's glyph objects are shared across PDFs).
      glyphs = upstream.map((glyph, index) => ({
        id: glyph.id,
        advanceWidth: glyph.advanceWidth,
        codePoints: upstream.length === codePoints.length ? [codePoints[index] ?? 0] : [...glyph.codePoints],
      }));
      if (this.shaped.size >= SHAPED_LIMIT) this.shaped.clear();
      this.shaped.set(text, glyphs);
    }
    return { glyphs };
  }
}

/** Fonts parsed in this isolate, by their bytes: the fonts are loaded once per isolate too (fonts.server.ts). */
const parsedFonts = new WeakMap<Uint8Array, Parsed>();

function parsed(bytes: Uint8Array): Parsed {
  let font = parsedFonts.get(bytes);
  if (!font) {
    font = new Parsed(fontkit.create(bytes as never) as unknown as UpstreamFont);
    parsedFonts.set(bytes, font);
  }
  return font;
}

/** Opens a TrueType font with upstream fontkit (once per byte array). */
export function openFont(bytes: Uint8Array): ParsedFont {
  return parsed(bytes);
}

/** What `PDFDocument.registerFontkit` takes: a fresh view per document over the shared parsed font. */
export const fontkitAdapter = {
  create(data: Uint8Array) {
    const font = parsed(data);
    // A glyph drawn for two characters (U+00B7 and U+30FB share one) reads back as the first one this
    // document drew, as when each document parsed its own font.
    const first = new Map<number, LaidGlyph>();
    const layout = (text: string) => ({
      glyphs: font.layout(text).glyphs.map((glyph) => {
        const known = first.get(glyph.id);
        if (known) return known;
        first.set(glyph.id, glyph);
        return glyph;
      }),
    });
    return new Proxy(font.font, {
      get(target, property, receiver) {
        if (property === "layout") return layout;
        if (property === "createSubset")
          return () => {
            const subset = font.createSubset();
            return Object.assign(subset, { encodeStream: () => subsetStream(() => subset.encode()) });
          };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  },
};
