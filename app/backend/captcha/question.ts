/**
 * The captcha's text alternative: a short sum written in words, in the guest's language, for a
 * guest who cannot see the picture (a screen reader reads it). Its answer, in digits, passes the
 * challenge as the picture's characters do. Pure.
 */
import type { Language } from "~/i18n/languages";
import { secureRandom, type Random } from "./picture";

const HAN = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三"];
const WORDS: Record<Language, readonly string[]> = {
  "en-US": ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen"],
  "zh-TW": HAN,
  "zh-CN": HAN,
  "ja-JP": HAN,
  "ko-KR": ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구", "십", "십일", "십이", "십삼"],
};

export interface Sum {
  a: number;
  b: number;
}

/** Two addends: 2–13 and 2–9, so the answer (4–22) is one of 19 and never guessed from the words' length. */
export function randomSum(random: Random = secureRandom): Sum {
  return { a: 2 + Math.floor(random() * 12), b: 2 + Math.floor(random() * 8) };
}

export function sumAnswer(sum: Sum): string {
  return String(sum.a + sum.b);
}

/** The addends as words of `lang`, for the question's template in locales/<lng>/captcha.json. */
export function sumWords(sum: Sum, lang: Language): { a: string; b: string } {
  const words = WORDS[lang];
  return { a: words[sum.a] ?? String(sum.a), b: words[sum.b] ?? String(sum.b) };
}
