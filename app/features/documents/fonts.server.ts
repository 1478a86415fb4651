/**
 * The PDF's fonts and the hotel's logo. Fonts: Noto Sans TC and KR (and SC when installed), TrueType, ~7 MB each. Too big for
 * the Worker bundle, they are copied into public/fonts/ at build (scripts/copy-fonts.mjs) and
 * fetched from Workers Static Assets once per isolate (decision 042).
 */
import type { DocumentFonts, Logo } from "~/features/documents/confirmation-pdf";
import { parseSvgLogo } from "~/features/documents/svg-logo";
import type { Logger } from "~/platform/log.server";

export const FONT_FILES = {
  tc: "/fonts/NotoSansTC-Regular.ttf",
  kr: "/fonts/NotoSansKR-Regular.ttf",
  sc: "/fonts/NotoSansSC-Regular.ttf",
} as const;

let loading: Promise<DocumentFonts> | null = null;

async function fetchFont(assets: Fetcher, path: string, required: boolean): Promise<Uint8Array | null> {
  const response = await assets.fetch(new Request(`https://assets.invalid${path}`));
  if (!response.ok) {
    await response.body?.cancel();
    if (required) throw new Error(`font ${path} is missing from the static assets (npm run build copies it)`);
    return null;
  }
  return new Uint8Array(await response.arrayBuffer());
}

export function loadDocumentFonts(assets: Fetcher): Promise<DocumentFonts> {
  loading ??= Promise.all([
    fetchFont(assets, FONT_FILES.tc, true),
    fetchFont(assets, FONT_FILES.kr, true),
    fetchFont(assets, FONT_FILES.sc, false),
  ])
    .then(([tc, kr, sc]) => ({ tc: tc as Uint8Array, kr: kr as Uint8Array, sc }))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
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
