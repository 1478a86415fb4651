import { expect, test } from "@playwright/test";
import { characterEntities } from "character-entities";
import { decodeEntities } from "~/lib/entities";

// Decision 143: the Worker decodes hotel text's character references with the `entities` package, and
// a browser with its own parser; both must read them alike. Chromium is the judge: each text is read
// as a textarea's content (text only), every HTML5 name with and without its semicolon, and then
// what hotel systems get wrong.
test("the Worker reads character references in hotel text exactly as Chromium does", async ({ page }) => {
  const texts = [
    ...Object.keys(characterEntities).map((name) => `a&${name};b &${name} &${name}x`),
    "&notit; &# &#; &#x &#x; &#xg; &#0; &#xD800; &#1114112; &#99999999999; &#128; &#129; &#150 &amp;amp; AT&T &bogus; & &;",
  ];
  await page.setContent("<!doctype html><title>references</title>");
  const chromium = await page.evaluate(
    (all) =>
      all.map((text) => {
        const textarea = document.createElement("textarea");
        textarea.innerHTML = text;
        return textarea.value;
      }),
    texts,
  );
  const differing = texts.filter((text, index) => decodeEntities(text) !== chromium[index]);
  expect(differing).toEqual([]);
  expect(chromium.length).toBe(2126);
});
