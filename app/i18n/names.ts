/**
 * THE way a person's name is shown (issue 25 item 9; decision 086): given and family name ordered
 * by the language the text is in. Chinese, Japanese and Korean put the family name first, and a
 * name written in those scripts has no space (林美, 김민지) — in every language, since it reads as
 * written; a name in Latin letters keeps its space (Lin Mei), and English puts its given name first
 * (Mei Lin). Pure, for pages, emails and the PDF alike.
 */
import type { Language } from "./languages";

export interface PersonName {
  given?: string | null;
  family?: string | null;
  /** The whole name as one field (an order's booker_name), used when the parts are missing. */
  whole?: string | null;
}

const FAMILY_FIRST: ReadonlySet<string> = new Set(["zh-TW", "zh-CN", "ja-JP", "ko-KR"]);

/** Han, kana and Hangul: the scripts written without a space between family and given name. */
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005]+$/u;

export function formatPersonName(name: PersonName, lang: Language | string): string {
  const given = (name.given ?? "").trim();
  const family = (name.family ?? "").trim();
  if (!given && !family) return (name.whole ?? "").trim();
  if (!given || !family) return given || family;
  // A name written in Han, kana or Hangul reads as written, family name first and without a space, in
  // every language: "林喆" in an English email too (never "喆 林").
  if (CJK.test(family) && CJK.test(given)) return `${family}${given}`;
  return FAMILY_FIRST.has(lang) ? `${family} ${given}` : `${given} ${family}`;
}

/** An order's booker as the text in `lang` names them: the parts the form took, else the whole. */
export function bookerName(
  order: { booker_first_name?: string | null; booker_last_name?: string | null; booker_name?: string | null },
  lang: Language | string,
): string {
  return formatPersonName({ given: order.booker_first_name, family: order.booker_last_name, whole: order.booker_name }, lang);
}
