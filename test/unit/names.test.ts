import { describe, expect, it } from "vitest";
import { formatPersonName } from "~/i18n/names";

describe("one name formatter, ordered by the language (issue 25 item 9)", () => {
  it.each([
    [{ given: "Mei", family: "Lin" }, "en-US", "Mei Lin"],
    [{ given: "Mei", family: "Lin" }, "zh-TW", "Lin Mei"], // Latin letters keep their space
    [{ given: "美", family: "林" }, "zh-TW", "林美"],
    // A name in Han, kana or Hangul reads as written in every language: family first, no space.
    [{ given: "美", family: "林" }, "en-US", "林美"],
    [{ given: "민지", family: "김" }, "en-US", "김민지"],
    [{ given: "민지", family: "김" }, "ko-KR", "김민지"],
    [{ given: "민지", family: "김" }, "ja-JP", "김민지"],
    [{ given: "花子", family: "山田" }, "ja-JP", "山田花子"],
    [{ given: "はなこ", family: "やまだ" }, "ja-JP", "やまだはなこ"],
    [{ given: "John", family: "Smith" }, "ko-KR", "Smith John"],
    [{ given: "", family: "", whole: "Lin Mei" }, "en-US", "Lin Mei"],
    [{ given: "Mei", family: "" }, "en-US", "Mei"],
  ] as const)("%o in %s is %s", (name, lang, expected) => {
    expect(formatPersonName(name, lang)).toBe(expected);
  });
});
