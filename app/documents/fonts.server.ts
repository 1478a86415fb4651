/**
 * The PDF's fonts and the hotel's logo. Fonts: Noto Sans TC and KR (and SC when installed), TrueType, ~7 MB each. Too big for
 * the Worker bundle, they are copied into public/fonts/ at build (scripts/copy-fonts.mjs) and
 * fetched from Workers Static Assets once per isolate (decision 042).
 */
import type { DocumentFonts, Logo } from "~/documents/confirmation-pdf";
import { parseSvgLogo } from "~/documents/svg-logo";

export const FONT_FILES = { tc: "/fonts/NotoSansTC-Regular.ttf", kr: "/fonts/NotoSansKR-Regular.ttf", sc: "/fonts/NotoSansSC-Regular.ttf" } as const;

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
  loading ??= Promise.all([fetchFont(assets, FONT_FILES.tc, true), fetchFont(assets, FONT_FILES.kr, true), fetchFont(assets, FONT_FILES.sc, false)])
    .then(([tc, kr, sc]) => ({ tc: tc as Uint8Array, kr: kr as Uint8Array, sc }))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The hotel's logo from the static assets: PNG, JPEG, or an SVG of paths and text; null otherwise. */
export async function loadLogo(assets: Fetcher, path: string): Promise<Logo | null> {
  const type = /\.png$/i.test(path) ? "png" : /\.jpe?g$/i.test(path) ? "jpg" : /\.svg$/i.test(path) ? "svg" : null;
  if (!type || !path.startsWith("/") || path.startsWith("//")) return null;
  const response = await assets.fetch(new Request(`https://assets.invalid${path}`));
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  if (type === "svg") {
    const svg = parseSvgLogo(await response.text());
    return svg ? { type, svg } : null;
  }
  return { type, bytes: new Uint8Array(await response.arrayBuffer()) };
}
