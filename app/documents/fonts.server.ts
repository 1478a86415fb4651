/**
 * The PDF's fonts and the hotel's logo. Fonts: Noto Sans TC and KR (and SC when installed), TrueType, ~7 MB each. Too big for
 * the Worker bundle, they are copied into public/fonts/ at build (scripts/copy-fonts.mjs) and
 * fetched from Workers Static Assets once per isolate (decision 042), each only when a document's
 * text needs it (decision 112).
 */
import type { DocumentFonts, Logo } from "~/documents/confirmation-pdf";
import { openFont } from "~/documents/fontkit-adapter";
import { parseSvgLogo } from "~/documents/svg-logo";
import type { Logger } from "~/platform/log.server";

export const FONT_FILES = {
  tc: "/fonts/NotoSansTC-Regular.ttf",
  kr: "/fonts/NotoSansKR-Regular.ttf",
  sc: "/fonts/NotoSansSC-Regular.ttf",
} as const;

/** Each font file as this isolate fetched it (decision 112): only the fonts some document needed. */
const loading = new Map<keyof typeof FONT_FILES, Promise<Uint8Array | null>>();

async function fetchFont(assets: Fetcher, path: string, required: boolean): Promise<Uint8Array | null> {
  const response = await assets.fetch(new Request(`https://assets.invalid${path}`));
  if (!response.ok) {
    await response.body?.cancel();
    if (required) throw new Error(`font ${path} is missing from the static assets (npm run build copies it)`);
    return null;
  }
  return new Uint8Array(await response.arrayBuffer());
}

function loadFont(assets: Fetcher, name: keyof typeof FONT_FILES): Promise<Uint8Array | null> {
  let font = loading.get(name);
  if (!font) {
    font = fetchFont(assets, FONT_FILES[name], name !== "sc").catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, font);
  }
  return font;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff]/u;

/**
 * The fonts these texts need, fetched (once per isolate) only then: Noto Sans TC always; SC only for a
 * character TC lacks; KR for Hangul, or for a character neither TC nor SC has. A zh-TW or en-US
 * order without Hangul keeps one 7 MB font in memory, not three.
 */
export async function loadFontsFor(assets: Fetcher, texts: string[]): Promise<DocumentFonts> {
  const tc = (await loadFont(assets, "tc")) as Uint8Array;
  const tcFont = openFont(tc);
  const missing = new Set<number>();
  let hangul = false;
  for (const text of texts) {
    for (const char of text) {
      const codePoint = char.codePointAt(0) ?? 32;
      if (HANGUL.test(char)) hangul = true;
      else if (codePoint > 0x7e && !/\s/u.test(char) && !tcFont.has(codePoint)) missing.add(codePoint);
    }
  }
  const sc = missing.size > 0 ? await loadFont(assets, "sc") : null;
  const scFont = sc ? openFont(sc) : null;
  const needsKr = hangul || [...missing].some((codePoint) => !scFont?.has(codePoint));
  return { tc, sc, kr: needsKr ? await loadFont(assets, "kr") : null };
}

/**
 * The hotel's logo from the static assets: PNG, JPEG, or an SVG of paths and text. A logo that is
 * missing, of another kind or unreadable leaves the document without one, and the reason is logged.
 */
export async function loadLogo(assets: Fetcher, path: string, log: Logger): Promise<Logo | null> {
  if (!path) return null;
  const type = /\.png$/i.test(path) ? "png" : /\.jpe?g$/i.test(path) ? "jpg" : /\.svg$/i.test(path) ? "svg" : null;
  const without = (reason: string, error?: unknown) => {
    log.warn(`logo left off the document: ${reason}`, path, ...(error === undefined ? [] : [error]));
    return null;
  };
  if (!type || !path.startsWith("/") || path.startsWith("//")) return without("not a PNG, JPEG or SVG path of the site");
  try {
    const response = await assets.fetch(new Request(`https://assets.invalid${path}`));
    if (!response.ok) {
      await response.body?.cancel();
      return without(`the assets answered ${response.status}`);
    }
    if (type === "svg") {
      const svg = parseSvgLogo(await response.text());
      return svg ? { type, svg } : without("not an SVG with a size");
    }
    return { type, bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    return without("it could not be read", error);
  }
}
