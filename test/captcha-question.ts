/** Shared by the Worker and browser tests: reading a captcha's question in words. */
const NUMBER_WORDS: Record<string, number> = Object.fromEntries([
  ..."one two three four five six seven eight nine ten eleven twelve thirteen".split(" ").map((word, index) => [word, index + 1]),
  ..."一 二 三 四 五 六 七 八 九 十 十一 十二 十三".split(" ").map((word, index) => [word, index + 1]),
  ..."일 이 삼 사 오 육 칠 팔 구 십 십일 십이 십삼".split(" ").map((word, index) => [word, index + 1]),
]);

/**
 * The answer to a captcha's question in words, as a guest who reads it would give it: "What is
 * seven plus five?" → "12", "七加五等於多少？" → "12".
 */
export function answerQuestion(question: string): string {
  const match =
    /What is (\w+) plus (\w+)\?/.exec(question) ??
    /^([一二三四五六七八九十]+)(?:加|たす)([一二三四五六七八九十]+)/.exec(question) ??
    /^(\S+) 더하기 (\S+)의/.exec(question);
  const a = NUMBER_WORDS[match?.[1] ?? ""];
  const b = NUMBER_WORDS[match?.[2] ?? ""];
  if (a === undefined || b === undefined) throw new Error(`not a question in words: ${question}`);
  return String(a + b);
}
