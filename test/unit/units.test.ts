import { describe, expect, it } from "vitest";
import { lodgingUnit, unitKey } from "~/domain/units";

describe("what a hotel sells one of, by its kind (spec §3)", () => {
  it.each([
    [1, "room"], // hotel
    [2, "site"], // campsite
    [3, "room"], // guesthouse
    [6, "room"], // hostel
    [9, "unit"], // country villa
    [14, "room"], // resort
    [16, "room"], // ryokan
    [17, "unit"], // cabin
    [99, "room"], // unknown
    [undefined, "room"],
  ] as const)("kind %s sells %s", (kind, unit) => {
    expect(lodgingUnit(kind)).toBe(unit);
  });

  it("names the counting words' keys", () => {
    expect(unitKey("booking.rooms_left", "room")).toBe("booking.rooms_left");
    expect(unitKey("booking.rooms_left", "site")).toBe("booking.rooms_left.site");
    expect(unitKey("booking.for_stay", "unit")).toBe("booking.for_stay.unit");
  });
});
