/**
 * The stay rules as the search and the order read them (decision 154): rows read for a stay turned
 * into the rules of one plan of one room class night by night, the refusal as the API answers it,
 * and that answer in the guest's words on the booking page, in every language.
 */
import { describe, expect, it } from "vitest";
import { rulesByNight, stayRefusal, stayRuleOf, type RuleRow } from "~/domain/stay-rules";
import { stayRuleText } from "~/features/booking/stay-rule-text";
import { formatDate } from "~/i18n/format";
import { LANGUAGES } from "~/i18n/languages";
import { resources } from "~/i18n/resources";
import { createTranslator } from "~/i18n/translate";

const none = { closed: 0, min_stay: null, max_stay: null, no_arrival: 0, no_departure: 0 };
const row = (room: number, plan: number | null, night: string, rule: Partial<RuleRow>): RuleRow => ({
  ...none,
  room_class_id: room,
  rate_plan_id: plan,
  night,
  ...rule,
});

describe("rulesByNight", () => {
  const rules = rulesByNight([
    row(1, null, "2026-03-14", { min_stay: 2 }),
    row(1, 10, "2026-03-14", { no_arrival: 1 }),
    row(1, 11, "2026-03-15", { closed: 1 }),
    row(2, null, "2026-03-16", { no_departure: 1 }),
  ]);

  it("gives a plan the room class's row and its own, and no other plan's or room's", () => {
    expect(rules(1, 10)("2026-03-14")).toEqual([expect.objectContaining({ min_stay: 2 }), expect.objectContaining({ no_arrival: 1 })]);
    expect(rules(1, 11)("2026-03-14")).toEqual([expect.objectContaining({ min_stay: 2 }), undefined]);
    expect(rules(2, 10)("2026-03-14")).toEqual([undefined, undefined]);
    expect(rules(1, 10)("2026-03-15")).toEqual([undefined, undefined]);
  });

  it("decides with stayRefusal: each plan its own rules plus its room class's", () => {
    expect(stayRefusal("2026-03-14", "2026-03-16", rules(1, 10))).toEqual({ rule: "no_arrival", night: "2026-03-14" });
    expect(stayRefusal("2026-03-14", "2026-03-16", rules(1, 11))).toEqual({ rule: "closed", night: "2026-03-15" });
    expect(stayRefusal("2026-03-14", "2026-03-15", rules(1, 12))).toEqual({ rule: "min_stay", nights: 2 });
    expect(stayRefusal("2026-03-14", "2026-03-16", rules(1, 12))).toBeNull();
    // Room 2's closed departure morning is its own.
    expect(stayRefusal("2026-03-15", "2026-03-16", rules(2, 10))).toEqual({ rule: "no_departure", night: "2026-03-16" });
    expect(stayRefusal("2026-03-15", "2026-03-16", rules(1, 10))).toBeNull();
  });
});

describe("stayRuleOf", () => {
  it("dates a minimum or maximum by the arrival day, and other rules by their own night", () => {
    expect(stayRuleOf({ rule: "min_stay", nights: 2 }, "2026-03-14")).toEqual({ rule: "min_stay", date: "2026-03-14", nights: 2 });
    expect(stayRuleOf({ rule: "max_stay", nights: 5 }, "2026-03-14")).toEqual({ rule: "max_stay", date: "2026-03-14", nights: 5 });
    expect(stayRuleOf({ rule: "closed", night: "2026-03-16" }, "2026-03-14")).toEqual({ rule: "closed", date: "2026-03-16", nights: null });
    expect(stayRuleOf({ rule: "no_departure", night: "2026-03-17" }, "2026-03-14")).toEqual({
      rule: "no_departure",
      date: "2026-03-17",
      nights: null,
    });
  });
});

describe("stayRuleText", () => {
  const en = createTranslator("en-US", resources["en-US"]);

  it("says each rule in words, with the date in the language's style", () => {
    const date = formatDate("2026-03-14", "en-US");
    expect(stayRuleText(en, { rule: "min_stay", date: "2026-03-14", nights: 2 }, "en-US")).toBe(`A stay from ${date} is at least 2 nights`);
    expect(stayRuleText(en, { rule: "max_stay", date: "2026-03-14", nights: 1 }, "en-US")).toBe(`At most 1 night from ${date}`);
    expect(stayRuleText(en, { rule: "max_stay", date: "2026-03-14", nights: 4 }, "en-US")).toBe(`At most 4 nights from ${date}`);
    expect(stayRuleText(en, { rule: "closed", date: "2026-03-14", nights: null }, "en-US")).toBe(`Closed on ${date}`);
    expect(stayRuleText(en, { rule: "no_arrival", date: "2026-03-14", nights: null }, "en-US")).toBe(`No arrivals on ${date}`);
    expect(stayRuleText(en, { rule: "no_departure", date: "2026-03-14", nights: null }, "en-US")).toBe(`No departures on ${date}`);
  });

  it("has words of its own in every language, never the key and never English elsewhere", () => {
    for (const lang of LANGUAGES) {
      const t = createTranslator(lang, resources[lang]);
      for (const rule of ["closed", "no_arrival", "no_departure", "min_stay", "max_stay"] as const) {
        const said = stayRuleText(t, { rule, date: "2026-03-14", nights: 3 }, lang);
        expect(said).toContain(formatDate("2026-03-14", lang));
        expect(said).not.toContain("booking.rule");
        if (rule === "min_stay" || rule === "max_stay") expect(said).toContain("3");
        if (lang !== "en-US") expect(said).not.toBe(stayRuleText(en, { rule, date: "2026-03-14", nights: 3 }, "en-US"));
      }
    }
  });
});
