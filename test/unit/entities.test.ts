import { characterEntities } from "character-entities";
import { characterEntitiesLegacy } from "character-entities-legacy";
import { describe, expect, it } from "vitest";
import { decodeEntities } from "~/lib/entities";

// Hotel text read as a browser reads character references in text (HTML5 §13.2.5.72–80; decision 143).
// The names and the legacy list are WHATWG's (entities.json), as the character-entities packages carry them.
describe("character references read as a browser reads them", () => {
  it("every HTML5 name with its semicolon, between letters", () => {
    const names = Object.entries(characterEntities);
    expect(names.length).toBe(2125);
    const wrong = names.filter(([name, value]) => decodeEntities(`a&${name};b`) !== `a${value}b`).map(([name]) => name);
    expect(wrong).toEqual([]);
  });

  it("the 106 legacy names without a semicolon too, as at the end of the text or before a space", () => {
    expect(characterEntitiesLegacy.length).toBe(106);
    const wrong = characterEntitiesLegacy.filter(
      (name) => decodeEntities(`&${name} x&${name}`) !== `${characterEntities[name]} x${characterEntities[name]}`,
    );
    expect(wrong).toEqual([]);
  });

  it.each([
    ["the names hotel systems write", "Caf&eacute;&nbsp;&hellip; &mdash; &copy; &euro; &apos;", "Café\u00a0… — © € '"],
    ["HTML5 names beyond HTML 4", "&check; &star; &starf; &rarrw; &NotEqualTilde; &fjlig;", "✓ ☆ ★ ↝ ≂̸ fj"],
    ["names are case-sensitive", "&Eacute; &AMP; &amp; &Amp;", "É & & &Amp;"],
    ["decoded once, never twice", "&amp;check; &amp;lt;b&amp;gt; &amp;amp;", "&check; &lt;b&gt; &amp;"],
    ["a legacy name runs into what follows", "&eacuteb &copy2026 &ampx AT&Tbar", "éb ©2026 &x AT&Tbar"],
    ["the longest legacy name that fits, then the rest as text", "&notit; &notin; &not;", "¬it; ∉ ¬"],
    ["a name that needs its semicolon is text without it", "&check &star &hellip", "&check &star &hellip"],
    ["unknown names and bare ampersands as written", "AT&T &bogus; R & D & &; &1;", "AT&T &bogus; R & D & &; &1;"],
    ["numbers, decimal and hex, semicolon optional", "&#8212; &#x2014; &#X2014; &#233 &#x41g &#x1F600;", "— — — é Ag 😀"],
    ["malformed numbers as written", "&# &#; &#x &#x; &#xg; &#-1;", "&# &#; &#x &#x; &#xg; &#-1;"],
    ["128–159 as Windows-1252, the five it leaves unassigned as they are", "&#128; &#150; &#x92; &#129;", "€ – ’ \u0081"],
    [
      "numbers that are no character become U+FFFD",
      "&#0; &#xD800; &#xDFFF; &#1114112; &#99999999999;",
      "\ufffd \ufffd \ufffd \ufffd \ufffd",
    ],
    ["text without references as it is", "台北 101 · NT$3,200", "台北 101 · NT$3,200"],
  ])("%s", (_name, input, output) => {
    expect(decodeEntities(input)).toBe(output);
  });
});
