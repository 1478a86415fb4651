import { describe, expect, it } from "vitest";
import { FROM_PRICE_WINDOW_NIGHTS, fromPrice, fromPriceWindowEnd, type NightPrice } from "~/domain/from-price";
import { addDays } from "~/domain/dates";

const today = "2026-12-01";
const night = (offset: number, price: number | null, available = price !== null): NightPrice => ({
  date: addDays(today, offset),
  price,
  available,
});

describe("fromPrice: the lowest guest price of a bookable night, tonight through the window", () => {
  it.each<[string, NightPrice[], number | null]>([
    ["the cheapest bookable night, not tonight's", [night(0, 4900), night(1, 4200), night(2, 4800)], 4200],
    ["tonight counts", [night(0, 3900), night(1, 4200)], 3900],
    ["a sold-out night does not count, however cheap", [night(0, 2000, false), night(1, 4200)], 4200],
    ["a night without a price does not count", [night(0, null, true), night(1, 4200)], 4200],
    ["nights before tonight do not count", [night(-1, 1000), night(0, 4200)], 4200],
    ["the last night of the window counts", [night(FROM_PRICE_WINDOW_NIGHTS - 1, 3000), night(0, 4200)], 3000],
    ["the night after the window does not", [night(FROM_PRICE_WINDOW_NIGHTS, 3000), night(0, 4200)], 4200],
    ["nothing bookable: no from price", [night(0, 4200, false), night(1, null)], null],
    ["no nights at all: no from price", [], null],
    ["a zero price is no price", [night(0, 0, true), night(3, 5100)], 5100],
  ])("%s", (_name, nights, expected) => {
    expect(fromPrice(nights, today)).toBe(expected);
  });

  it("asks the calendar for exactly the window", () => {
    expect(fromPriceWindowEnd(today)).toBe(addDays(today, FROM_PRICE_WINDOW_NIGHTS));
  });
});
