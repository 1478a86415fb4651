import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { buildConfirmationPdf } from "~/documents/confirmation-pdf";
import { needsNoShaping, openFont } from "~/documents/fontkit-adapter";
import { confirmationContent, type ConfirmationHotel, type ConfirmationOrder } from "~/documents/confirmation-content";
import { paymentText } from "~/documents/labels";
import { parseSvgLogo, svgColor } from "~/documents/svg-logo";
import { LANGUAGES } from "~/i18n/languages";

const fontPath = (pkg: string, file: string) => join(process.cwd(), "node_modules/@expo-google-fonts", pkg, "400Regular", file);
const fonts = {
  tc: new Uint8Array(readFileSync(fontPath("noto-sans-tc", "NotoSansTC_400Regular.ttf"))),
  kr: new Uint8Array(readFileSync(fontPath("noto-sans-kr", "NotoSansKR_400Regular.ttf"))),
  sc: new Uint8Array(readFileSync(fontPath("noto-sans-sc", "NotoSansSC_400Regular.ttf"))),
};

// Rare Han (堃, 喆) in the hotel's and the occupant's names, and Hangul.
const hotel: ConfirmationHotel = {
  hotel_name: "堃喆大飯店 Grand",
  address: "台北市中正區堃喆路 1 號",
  phone: "+886-2-1234-5678",
  email: "stay@example.com",
  checkin_start_time: "15:00",
  checkout_time: "11:00",
  booking_policy: "<p>禁止吸菸 · No smoking</p>",
  cancel_policy: "<p>入住前 7 天免費取消。</p>",
};
const order: ConfirmationOrder = {
  order_doc: "PT261220-ABCDEF",
  display_status: "Confirmed",
  status: "confirmed",
  booker_name: "王 喆",
  booker_phone: "0912345678",
  booker_email: "guest@example.com",
  check_in_day: "2026-12-20",
  check_out_day: "2026-12-22",
  adults_count: 2,
  children_count: 1,
  orders: [{ num: 1, room_class_name: "豪華雙人房", rate_plan_name: "早餐方案", occupant_name: "김민준 陳堃", amount: 7_777 }],
  pay_way: "remittance",
  pay_option: "all",
  payment_status: -1,
  sum: 7_777,
  couponDiscount: 0,
  used_coupon: "",
  usedPoint: 0,
  final_amount: 7_777,
  deposit_amount: 0,
  pay_amount: 7_777,
  paid_amount: 0,
  free_cancel_before_date: null,
};

const dir = mkdtempSync(join(tmpdir(), "confirmation-"));

/** The PDF's text as a reader's tool sees it (pdftotext keeps the layout's lines; spaces squeezed). */
function pdfText(bytes: Uint8Array, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/[ \t]+/g, " ");
}

function pdfFonts(name: string): string[] {
  return execFileSync("pdffonts", [join(dir, `${name}.pdf`)], { encoding: "utf8" })
    .split("\n")
    .slice(2)
    .filter(Boolean);
}

// The labels in each language. zh-CN's simplified labels (订房确认书) are drawn with Noto Sans SC.
const titles = {
  "zh-TW": "訂房確認書",
  "zh-CN": "订房确认书",
  "en-US": "Booking confirmation",
  "ja-JP": "予約確認書",
  "ko-KR": "예약 확인서",
} as const;
const checkIn = { "zh-TW": "入住", "zh-CN": "入住", "en-US": "Check-in", "ja-JP": "チェックイン", "ko-KR": "체크인" } as const;

describe("the confirmation PDF", () => {
  it.each(LANGUAGES)("%s: reads back with the hotel, the order, rare Han and Hangul, in embedded subset fonts", async (lang) => {
    const content = confirmationContent(order, hotel, lang, paymentText(lang, order.pay_way, 8));
    const bytes = await buildConfirmationPdf(content, fonts);
    const text = pdfText(bytes, lang);
    const title = titles[lang];
    expect(text).toContain(title);
    expect(text).toContain(checkIn[lang]);
    expect(text).toContain("堃喆大飯店 Grand");
    expect(text).toContain("台北市中正區堃喆路 1 號");
    expect(text).toContain("PT261220-ABCDEF");
    expect(text).toContain("김민준 陳堃");
    expect(text).toContain("王 喆");
    expect(text).toContain("7,777");
    expect(text).toContain("入住前 7 天免費取消。");
    const fontsUsed = pdfFonts(lang);
    // TC and KR (and SC where a character is only there), each an embedded subset: "ABCDEF+Name ... yes yes".
    expect(fontsUsed.map((line) => /\+(NotoSans\w\w)/.exec(line)?.[1])).toEqual(expect.arrayContaining(["NotoSansTC", "NotoSansKR"]));
    expect(fontsUsed.length).toBeLessThanOrEqual(3);
    for (const line of fontsUsed) {
      expect(line).toMatch(/^[A-Z]{6}\+Noto/);
      expect(line).toMatch(/\byes\s+yes\s+(yes|no)\s+\d+\s+\d+\s*$/);
    }
    // A subset, not the 7 MB font.
    expect(bytes.byteLength).toBeLessThan(200_000);
  });
});

describe("a cancelled booking's PDF", () => {
  // A deposit of 999 and 1,000 more paid, cancelled 2 days ahead: 30 % of the deposit and 50 % of the rest back (decision 040).
  const cancellation = {
    refund_status: "due" as const,
    rule: "deposit_advance",
    refund: 800,
    fee: 1_199,
    parts: [
      {
        kind: "deposit" as const,
        amount: 999,
        schedule: "deposit" as const,
        percent: 30,
        refund: 300,
        fee: 699,
        steps: [
          { days_before: 14, percent: 100 },
          { days_before: 10, percent: 70 },
          { days_before: 7, percent: 50 },
          { days_before: 4, percent: 40 },
          { days_before: 2, percent: 30 },
          { days_before: 1, percent: 20 },
          { days_before: 0, percent: 0 },
        ],
      },
      {
        kind: "advance" as const,
        amount: 1_000,
        schedule: "advance" as const,
        percent: 50,
        refund: 500,
        fee: 500,
        steps: [
          { days_before: 3, percent: 100 },
          { days_before: 1, percent: 50 },
          { days_before: 0, percent: 0 },
        ],
      },
    ],
  };

  it("prints the refund's status, what the hotel keeps, and each part's rule, in the words of the order page and the email", async () => {
    const content = confirmationContent({ ...order, cancellation }, hotel, "zh-TW", paymentText("zh-TW", order.pay_way, 8));
    const text = pdfText(await buildConfirmationPdf(content, fonts), "cancelled").replace(/\s+/g, "");
    expect(text).toContain("退款NT$800：退款處理中。");
    expect(text).toContain("已付NT$1,999，飯店收取NT$1,199。");
    expect(text).toContain("定金NT$999：退還30%（NT$300），飯店收取NT$699。依據：交通部觀光署訂房定型化契約之定金規定");
    expect(text).toContain(
      "預付房價NT$1,000：退還50%（NT$500），飯店收取NT$500。依據：交通部觀光署訂房定型化契約之預收房價規定（入住3天前（含）以前100%、1–2天前50%、當日0%）。",
    );
    // A booking that is not cancelled has no refund section.
    const live = confirmationContent(order, hotel, "en-US", paymentText("en-US", order.pay_way, 8));
    expect(live.sections.map((section) => section.heading)).not.toContain("Refund");
    expect(confirmationContent({ ...order, cancellation }, hotel, "en-US", "").sections.map((section) => section.heading)).toContain(
      "Refund",
    );
  });
});

describe("names in the PDF", () => {
  it("drop direction and control characters stored before names refused them: the phone and email read as typed", async () => {
    const stored = {
      ...order,
      booker_name: "Mei \u202ELin\u0000",
      orders: order.orders.map((line) => ({ ...line, occupant_name: "\u202BChen\u202C Wu\u0007" })),
    };
    const content = confirmationContent(stored, hotel, "en-US", paymentText("en-US", stored.pay_way, 8));
    // What is drawn: pdf-lib lays glyphs out as given, with no bidirectional algorithm of its own.
    const rows = content.sections.flatMap((section) => section.rows);
    expect(rows).toContainEqual(["Booked by", "Mei Lin · 0912345678 · guest@example.com"]);
    expect(rows).toContainEqual(["Guest", "Chen Wu"]);
    const bytes = await buildConfirmationPdf(content, fonts);
    const text = pdfText(bytes, "names");
    expect(text).toContain("Mei Lin · 0912345678 · guest@example.com");
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text).not.toMatch(/[\u0000\u0007\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain("Chen Wu");
  });
});

describe("the hotel's logo in the PDF", () => {
  it("draws an SVG logo of paths and text (the Taipei demo's), whose words read back", async () => {
    const svg = parseSvgLogo(readFileSync(join(process.cwd(), "public/demo/taipei/logo-dark.svg"), "utf8"));
    expect(svg?.width).toBe(240);
    expect(svg?.items.map((item) => item.kind)).toEqual(["path", "text", "text"]);
    const content = confirmationContent(order, hotel, "en-US", paymentText("en-US", order.pay_way, 8));
    const bytes = await buildConfirmationPdf(content, fonts, svg ? { type: "svg", svg } : null);
    const readBack = pdfText(bytes, "logo");
    expect(readBack).toContain("PORTICO");
    expect(readBack).toContain("TAIPEI");
    expect(readBack).toContain("堃喆大飯店 Grand");
  });

  it("reads colours as the SVG writes them", () => {
    expect(svgColor("#a66b30").map((part) => Math.round(part * 255))).toEqual([166, 107, 48]);
    expect(svgColor("#fff")).toEqual([1, 1, 1]);
    expect(svgColor("currentColor")).toEqual([0, 0, 0]);
  });
});

describe("a bank-transfer booking's PDF (issue 22 item 15)", () => {
  const transfer: ConfirmationOrder = {
    ...order,
    pay_deadline: "2026-12-01T15:59:59.000Z",
    remittance_info: { bank: "台灣銀行", branch: "中正分行", account_name: "堃喆大飯店股份有限公司", account_number: "012-345-678901" },
  };

  it("prints the hotel's account and the pay-by date while the transfer is due, in the guest's language", async () => {
    const text = pdfText(
      await buildConfirmationPdf(
        confirmationContent(transfer, { ...hotel, time_zone: "Asia/Taipei" }, "en-US", paymentText("en-US", "remittance", 8)),
        fonts,
      ),
      "transfer",
    ).replace(/\s+/g, " ");
    expect(text).toContain("Bank transfer");
    expect(text).toContain("Account number");
    expect(text).toContain("012-345-678901");
    expect(text).toContain("Please transfer NT$7,777 to the account below:");
    // The deadline in the hotel's time (23:59 in Taipei on 1 December).
    expect(text).toContain("Please pay by Tue, Dec 1, 2026 23:59 (Taiwan Standard Time).");
    const zh = pdfText(
      await buildConfirmationPdf(
        confirmationContent(transfer, { ...hotel, time_zone: "Asia/Taipei" }, "zh-TW", paymentText("zh-TW", "remittance", 8)),
        fonts,
      ),
      "transfer-zh",
    ).replace(/\s+/g, "");
    expect(zh).toContain("012-345-678901");
    expect(zh).toContain("請於2026");
  });

  it("says nothing about a transfer once it is paid, or for another way of paying", () => {
    const headings = (o: ConfirmationOrder) => confirmationContent(o, hotel, "en-US", "").sections.map((section) => section.heading);
    expect(headings(transfer)).toContain("Bank transfer");
    expect(headings({ ...transfer, payment_status: 2, paid_amount: 7_777, status: "confirmed" })).not.toContain("Bank transfer");
    expect(headings({ ...transfer, pay_way: "credit" })).not.toContain("Bank transfer");
    expect(headings({ ...transfer, status: "cancelled" })).not.toContain("Bank transfer");
  });
});

describe("how money was paid, in words (issue 22 item 13)", () => {
  it("an ATM transfer through the card vendor is never called a credit card, in any language", () => {
    for (const lang of LANGUAGES) {
      const atm = paymentText(lang, "credit", 1, "atm");
      expect(atm).not.toBe(paymentText(lang, "credit", 1));
      expect(atm).toMatch(/ATM/);
    }
    expect(paymentText("ko-KR", "credit", 1, "atm")).toBe("ATM 이체");
    expect(paymentText("en-US", "credit", 1, "credit")).toBe(paymentText("en-US", "credit", 1));
  });
});

// Issue 25 item 16: the hotel's policies (HTML) print their characters, not their references.
describe("character references in the hotel's text", () => {
  it("print as the characters they stand for", async () => {
    const withEntities = {
      ...hotel,
      hotel_name: "Café Lodge",
      cancel_policy: "<p>Caf&eacute;&nbsp;policy &#8212; free until 7 days before&hellip;</p><p>Tom &amp;amp; Jerry</p>",
    };
    const content = confirmationContent(order, withEntities, "en-US", paymentText("en-US", order.pay_way, 8));
    const text = pdfText(await buildConfirmationPdf(content, fonts), "entities");
    expect(text).toContain("Café Lodge");
    expect(text).toMatch(/Café[\u00a0 ]policy — free until 7 days before…/);
    expect(text).toContain("Tom &amp; Jerry");
    expect(text).not.toMatch(/&(eacute|nbsp|hellip|#8212);/);
  });
});

/** Each word pdftotext finds, with where it is drawn on its page (points, from the top left). */
function pdfWords(bytes: Uint8Array, name: string): { text: string; xMin: number; xMax: number; yMin: number }[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  const html = execFileSync("pdftotext", ["-bbox", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((match) => ({
    xMin: Number(match[1]),
    yMin: Number(match[2]),
    xMax: Number(match[3]),
    text: match[4] ?? "",
  }));
}

// Issue 25 item 19: long names, names in scripts the fonts lack, and the hotel's name as a heading.
describe("long and unusual names in the PDF", () => {
  const PAGE_WIDTH = 595.28;
  const MARGIN = 50;

  it("wraps a name of 100+ characters, with or without spaces, inside the page's margins", async () => {
    const longWord =
      "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessenschafewarenwohlgepflegeundsorgfaltigkeitbeschutzen";
    const longWords =
      "Maximiliana Alexandrina Konstantinopolitana Bartholomew-Featherstonehaugh Montgomery-Wolfeschlegelsteinhausen Junior";
    const stored = { ...order, booker_name: longWord, orders: order.orders.map((line) => ({ ...line, occupant_name: longWords })) };
    const content = confirmationContent(
      stored,
      { ...hotel, hotel_name: `${longWord} Hotel` },
      "en-US",
      paymentText("en-US", stored.pay_way, 8),
    );
    const words = pdfWords(await buildConfirmationPdf(content, fonts), "long-names");
    const outside = words
      .filter((word) => word.xMax > PAGE_WIDTH - MARGIN + 0.5 || word.xMin < MARGIN - 0.5)
      .map((word) => `${word.text} ${word.xMin}–${word.xMax}`);
    expect(outside, "words drawn outside the margins").toEqual([]);
    // Nothing lost: the pieces of the long word read back in order.
    expect(words.map((word) => word.text).join("")).toContain(longWord.slice(0, 40));
    expect(words.map((word) => word.text).join("")).toContain(longWord.slice(-40));
  });

  it("draws a visible ? for each character no bundled font has (emoji, Arabic, Hebrew), never an empty box", async () => {
    const stored = { ...order, booker_name: "Ana 😀 محمد", orders: order.orders.map((line) => ({ ...line, occupant_name: "שרה 👨‍👩‍👧 Lee" })) };
    const content = confirmationContent(stored, hotel, "en-US", paymentText("en-US", stored.pay_way, 8));
    const text = pdfText(await buildConfirmationPdf(content, fonts), "unusual-names");
    // pdftotext reads each glyph's character back: a box drawn for 😀 would still read as 😀.
    expect(text).toContain("Ana ? ????");
    expect(text).toContain("??? ? Lee");
    expect(text).not.toMatch(/[\u0590-\u05FF\u0600-\u06FF]|\p{Extended_Pictographic}/u);
  });

  it("breaks lakeside's Japanese name into even lines, never one character alone on the last", async () => {
    const name = "ポルティコ・レイクサイドリゾート日月潭";
    const content = confirmationContent(order, { ...hotel, hotel_name: name }, "ja-JP", paymentText("ja-JP", order.pay_way, 8));
    // With the logo beside it, as the lakeside demo's PDF has: the room left for the name is narrower.
    const logo = parseSvgLogo(readFileSync(join(process.cwd(), "public/demo/lakeside/logo-dark.svg"), "utf8"));
    const words = pdfWords(await buildConfirmationPdf(content, fonts, logo ? { type: "svg", svg: logo } : null), "balanced-name");
    const lines = new Map<number, string>();
    // The name's words only (the logo's own text is drawn beside it).
    for (const word of words.filter((candidate) => [...candidate.text].every((char) => name.includes(char)))) {
      const key = Math.round(word.yMin);
      lines.set(key, (lines.get(key) ?? "") + word.text);
    }
    const nameLines = [...lines.values()].slice(0, 2);
    expect(nameLines.join("")).toBe(name);
    for (const line of nameLines) expect([...line].length, `"${line}" is one of the name's lines`).toBeGreaterThan(2);
  });
});

// Decision 112: text in scripts that need no shaping is laid out through the cmap, without fontkit's shaping.
describe("laying text out without shaping", () => {
  type Shaper = { characterSet: number[]; layout(text: string): { glyphs: { id: number; advanceWidth: number }[] } };
  it.each(["tc", "kr", "sc"] as const)(
    "gives the glyphs and widths shaping gives, for every such character of Noto Sans %s",
    (name) => {
      const shaper = fontkit.create(fonts[name]) as Shaper;
      const ours = openFont(fonts[name]);
      const covered = shaper.characterSet.filter(needsNoShaping);
      expect(covered.length).toBeGreaterThan(18_000);
      // In runs of 500, forwards and backwards: each character beside others, as in a name or a label.
      for (const order of [covered, [...covered].reverse()]) {
        for (let start = 0; start < order.length; start += 500) {
          const text = String.fromCodePoint(...order.slice(start, start + 500));
          const shaped = shaper.layout(text).glyphs.map((glyph) => [glyph.id, glyph.advanceWidth]);
          expect(ours.layout(text).glyphs.map((glyph) => [glyph.id, glyph.advanceWidth])).toEqual(shaped);
        }
      }
    },
    30_000,
  );

  it("still shapes Latin: Noto Sans CJK's ligatures and figures are drawn as before", () => {
    const shaper = fontkit.create(fonts.tc) as Shaper;
    const ours = openFont(fonts.tc);
    for (const text of ["office fi ffl", "NT$7,777", "Café Lodge", "e\u0301"]) {
      expect(ours.layout(text).glyphs.map((glyph) => glyph.id)).toEqual(shaper.layout(text).glyphs.map((glyph) => glyph.id));
    }
    // The ligature is one glyph for "ffi": the text reads back whole.
    expect(ours.layout("office").glyphs.map((glyph) => glyph.codePoints.length)).toEqual([1, 3, 1, 1]);
  });
});
