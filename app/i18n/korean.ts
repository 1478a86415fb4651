/**
 * Korean particles after a value (issue 25 item 10; decision 087). A Korean message that
 * interpolates a value writes the particle in its two-form notation right after the placeholder —
 * "{{amount}}을(를)", "{{email}}(으)로" — and this picks the one form the word before it takes, so
 * a guest reads "NT$7,600을" and "신용카드로", never the hedge. One function, run by every
 * translator (pages, loaders, emails and the PDF) on Korean text.
 */

/** The pairs: [the notation, the form after a final consonant, the form after a vowel]. */
const PAIRS: readonly [string, string, string][] = [
  ["을(를)", "을", "를"],
  ["를(을)", "을", "를"],
  ["이(가)", "이", "가"],
  ["가(이)", "이", "가"],
  ["은(는)", "은", "는"],
  ["는(은)", "은", "는"],
  ["과(와)", "과", "와"],
  ["와(과)", "과", "와"],
  ["(으)로", "으로", "로"],
  ["(이)나", "이나", "나"],
];

const NOTATION = /(을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로|\(이\)나)/g;

/** A final consonant, as Korean reads the character: "none", "ㄹ" (which takes 로) or "other". */
type Final = "none" | "rieul" | "other";

/** Digits as read in Sino-Korean: 영 일 이 삼 사 오 육 칠 팔 구. */
const DIGIT_FINAL: Readonly<Record<string, Final>> = {
  "0": "other",
  "1": "rieul",
  "2": "none",
  "3": "other",
  "4": "none",
  "5": "none",
  "6": "other",
  "7": "rieul",
  "8": "rieul",
  "9": "none",
};

/** A word in Latin letters as Korean reads its ending: "mail"→메일 (ㄹ), "com"→컴, "Pay"→페이. */
function latinFinal(word: string): Final {
  const end = word.toLowerCase();
  if (/l$/.test(end)) return "rieul";
  if (/(m|n|ng|k|ck|p|t|b|d|g)$/.test(end)) return "other";
  return "none";
}

function finalOf(before: string): Final {
  // What is in brackets is read aside: "신용카드(ECPay)" takes the particle of 신용카드.
  let text = before.trimEnd();
  while (/[)）]$/.test(text)) {
    const open = Math.max(text.lastIndexOf("("), text.lastIndexOf("（"));
    if (open <= 0) break;
    text = text.slice(0, open).trimEnd();
  }
  text = text.replace(/[\s"'”’»」』.,·:]+$/u, "");
  const last = text.at(-1) ?? "";
  const code = last.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) {
    const jong = (code - 0xac00) % 28;
    return jong === 0 ? "none" : jong === 8 ? "rieul" : "other";
  }
  if (/\d/.test(last)) return DIGIT_FINAL[last] ?? "none";
  if (/[A-Za-z]/.test(last)) return latinFinal(text.match(/[A-Za-z]+$/)?.[0] ?? last);
  return "none";
}

/** The particle after `before`, for one notation ("을(를)" after "NT$7,600" is "을"). */
export function particle(before: string, notation: string): string {
  const pair = PAIRS.find(([written]) => written === notation);
  if (!pair) return notation;
  const final = finalOf(before);
  if (pair[0] === "(으)로") return final === "other" ? "으로" : "로";
  return final === "none" ? pair[2] : pair[1];
}

/** Korean text with every two-form particle resolved by the word before it. */
export function resolveParticles(text: string): string {
  if (!text.includes("(")) return text;
  return text.replace(NOTATION, (notation: string, _m: string, offset: number) => particle(text.slice(0, offset), notation));
}

/** The i18next post-processor doing the same for loaders and meta (remix-i18next). */
export const koreanParticles = {
  type: "postProcessor" as const,
  name: "koreanParticles",
  process(value: string, _key: unknown, options: { lng?: string } | undefined, translator: { language?: string } | undefined): string {
    return (options?.lng ?? translator?.language) === "ko-KR" ? resolveParticles(value) : value;
  },
};
