import { describe, expect, it } from "vitest";
import { htmlToText, isSafeHref, sanitizeHtml } from "~/lib/sanitize";
import { decodeEntities } from "~/lib/entities";

describe("sanitizeHtml", () => {
  it.each([
    ["<p>Hello <strong>there</strong></p>", "<p>Hello <strong>there</strong></p>"],
    ["<script>alert(1)</script><p>ok</p>", "<p>ok</p>"],
    ['<img src=x onerror="alert(1)">text', "text"],
    ['<p onclick="steal()">hi</p>', "<p>hi</p>"],
    ['<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="jav&#x61;script:alert(1)">x</a>', "<a>x</a>"],
    ['<a href="//evil.example">x</a>', "<a>x</a>"],
    [
      '<a href="https://example.com/a?b=1&c=2">x</a>',
      '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    ],
    ['<a href="/room/3">x</a>', '<a href="/room/3">x</a>'],
    ["<ul><li>a<li>b</ul>", "<ul><li>a<li>b</li></li></ul>"],
    ["<p>unclosed", "<p>unclosed</p>"],
    ["</p>stray", "stray"],
    ["<style>body{}</style>1 < 2 & 3", "1 &lt; 2 &amp; 3"],
    ["<iframe src=x>inside</iframe>after", "after"],
    ["<svg><script>x</script></svg>ok", "ok"],
    ['<div class="x"><h3>Title</h3></div>', "<h3>Title</h3>"],
    ["<!-- <script>x</script> -->ok", "ok"],
  ])("%s → %s", (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it("accepts only safe link targets", () => {
    expect(isSafeHref("https://a.example")).toBe(true);
    expect(isSafeHref("mailto:a@example.com")).toBe(true);
    expect(isSafeHref("tel:+886212345678")).toBe(true);
    expect(isSafeHref(" javascript:x")).toBe(false);
    expect(isSafeHref("data:text/html,x")).toBe(false);
    expect(isSafeHref("\\\\evil")).toBe(false);
  });

  it.each([
    "/\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "\\evil.example",
    "&#47;&#92;evil.example",
    "&#x2f;&#x5c;evil.example",
    "/&bsol;evil.example".replace("&bsol;", "&#92;"),
    " /\\evil.example",
    "/\t/evil.example",
    "/\n\\evil.example",
    "\u0000/\\evil.example",
  ])("refuses %j, which a browser reads as another site (//evil.example)", (href) => {
    expect(isSafeHref(href)).toBe(false);
    expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe("<a>x</a>");
  });

  it.each(["/%5Cevil.example", "/%5cevil.example", "%2F%2Fevil.example", "/%2Fevil.example", "/%09/evil.example"])(
    "refuses %j, which becomes //evil.example wherever the path is decoded before use (a redirect, a script)",
    (href) => {
      expect(isSafeHref(href)).toBe(false);
      expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe("<a>x</a>");
    },
  );

  it("keeps same-site paths that merely contain a backslash or an escape later on", () => {
    expect(sanitizeHtml('<a href="/room/3?q=a%5Cb">x</a>')).toBe('<a href="/room/3?q=a%5Cb">x</a>');
    expect(isSafeHref("/about")).toBe(true);
    expect(isSafeHref("room/3")).toBe(true);
    expect(isSafeHref("/%E0%A4")).toBe(true);
  });

  it("gives plain text for descriptions", () => {
    expect(htmlToText("<p>Stay  <strong>near</strong> the MRT &amp; river</p><script>x</script>")).toBe("Stay near the MRT & river");
  });

  it.each([
    [
      "an inline tag adds no space before punctuation",
      "<p>A deep bath<strong>tub</strong>, coffee machine.</p>",
      "A deep bathtub, coffee machine.",
    ],
    ["a link inside a sentence", '<p>See <a href="/about">our story</a>.</p>', "See our story."],
    [
      "block boundaries keep words apart",
      "<p>One</p><p>Two</p><ul><li>Three</li><li>Four</li></ul>Five<br>Six",
      "One Two Three Four Five Six",
    ],
    ["Chinese text around inline tags", "<p>房內備有<strong>浴缸</strong>、咖啡機。</p>", "房內備有浴缸、咖啡機。"],
  ])("gives plain text: %s", (_name, html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it("keeps lines for the PDF and emails: each paragraph, item or break on its own line", () => {
    expect(
      htmlToText("<p>Check-in  from 15:00.</p><ul><li>No pets</li><li>No smoking &amp; no fires</li></ul>Quiet<br>after 22:00", {
        lines: true,
      }),
    ).toBe("Check-in from 15:00.\nNo pets\nNo smoking & no fires\nQuiet\nafter 22:00");
    expect(htmlToText("<div>One&nbsp;room</div><div>Two</div><h2>Three</h2>", { lines: true })).toBe("One\u00a0room\nTwo\nThree");
    expect(htmlToText("<div>One</div><div>Two</div>")).toBe("One Two");
    expect(htmlToText(null, { lines: true })).toBe("");
  });
});

// Issue 25 item 16.
describe("character references in hotel text", () => {
  it.each([
    ["named", "Caf&eacute;&nbsp;&hellip; &mdash; &Eacute;t&eacute; &copy; &euro; &apos;", "Café\u00a0… — Été © € '"],
    ["numeric, decimal and hex", "&#8212; &#x2014; &#X2014; &#233;", "— — — é"],
    ["decoded once, never twice", "&amp;eacute; &amp;lt;b&amp;gt;", "&eacute; &lt;b&gt;"],
    ["Windows-1252 numbers as HTML5 reads them", "&#150; &#151; &#133; &#146;", "– — … ’"],
    ["numbers that are no character", "&#0; &#xD800; &#1114112;", "\ufffd \ufffd \ufffd"],
    ["an unknown name or a bare ampersand left as written", "AT&T &bogus; R & D", "AT&T &bogus; R & D"],
    ["a legacy name without its semicolon read as a browser does", "Caf&eacute au lait", "Café au lait"],
  ])("decodeEntities: %s", (_name, input, output) => {
    expect(decodeEntities(input)).toBe(output);
  });

  it("htmlToText decodes after the tags are gone, once, on one line or by lines", () => {
    expect(htmlToText("<p>Caf&eacute;&nbsp;&amp; bar&hellip;</p><p>&#8212; &amp;lt;</p><p>&lt;script&gt;</p>")).toBe(
      "Café\u00a0& bar… — &lt; <script>",
    );
    expect(htmlToText("<p>No refund &#8212; sorry&hellip;</p>Call&nbsp;us<br>&eacute;t&eacute;", { lines: true }).split("\n")).toEqual([
      "No refund — sorry…",
      "Call\u00a0us",
      "été",
    ]);
  });
});
