/**
 * pdf-lib's font engine interface over upstream fontkit 2 (docs/decisions/042). `@pdf-lib/fontkit`
 * 1.1.1 corrupts subset CJK fonts (blank glyphs); fontkit 2 subsets them correctly but its subset
 * has `encode()` (bytes) where pdf-lib calls `encodeStream().on("data" | "end")`. This wraps it.
 */
import * as fontkit from "fontkit";

type Chunk = (data: Uint8Array) => unknown;

interface UpstreamSubset {
  includeGlyph(glyph: unknown): number;
  encode(): Uint8Array;
}

interface UpstreamFont {
  createSubset(): UpstreamSubset;
  hasGlyphForCodePoint(codePoint: number): boolean;
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

/** Opens a TrueType font with upstream fontkit. */
export function openFont(bytes: Uint8Array): UpstreamFont {
  return fontkit.create(bytes as never) as unknown as UpstreamFont;
}

/** What `PDFDocument.registerFontkit` takes. */
export const fontkitAdapter = {
  create(data: Uint8Array) {
    const font = openFont(data);
    const createSubset = font.createSubset.bind(font);
    return Object.assign(font, {
      createSubset() {
        const subset = createSubset();
        return Object.assign(subset, { encodeStream: () => subsetStream(() => subset.encode()) });
      },
    });
  },
};
