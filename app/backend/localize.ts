import type { Language } from "~/i18n/languages";

export type LocalizedText = Partial<Record<Language, string>>;

/** Picks the text for `lang`, falling back to the hotel's main language, then to any language. */
export function pickText(value: LocalizedText | null | undefined, lang: Language, mainLang: Language): string {
  if (!value) return "";
  return value[lang] ?? value[mainLang] ?? Object.values(value).find((text) => text !== undefined) ?? "";
}

/** Parses a JSON column; a corrupt value reads as `fallback` rather than failing the request. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === "") return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export interface StoredImage {
  src: string;
  width: number;
  height: number;
  alt?: LocalizedText;
}

export interface ImageOut {
  src: string;
  width: number;
  height: number;
  alt: string;
}

export function presentImage(image: StoredImage | null | undefined, lang: Language, mainLang: Language): ImageOut | null {
  if (!image || !image.src) return null;
  return { src: image.src, width: image.width, height: image.height, alt: pickText(image.alt, lang, mainLang) };
}

export function presentImages(images: StoredImage[] | null | undefined, lang: Language, mainLang: Language): ImageOut[] {
  return (images ?? []).flatMap((image) => {
    const out = presentImage(image, lang, mainLang);
    return out ? [out] : [];
  });
}
