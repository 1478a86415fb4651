import { describe, expect, it } from "vitest";
import { addonAmount, addonChoicesProblem, addonHeldDays, addonUnitsTaken, type AddonPrice } from "~/domain/addons";

const pickup: AddonPrice = { unit: "stay", price: 1200, child_price: null };
const parking: AddonPrice = { unit: "night", price: 300, child_price: null };
const tour: AddonPrice = { unit: "person", price: 500, child_price: 250 };
const breakfast: AddonPrice = { unit: "person_night", price: 400, child_price: 200 };

describe("what an add-on costs for a stay and party (issue 27)", () => {
  it("per stay: each one once, however many nights", () => {
    expect(addonAmount(pickup, { quantity: 2, child_quantity: 0 }, 3)).toBe(2400);
    expect(addonAmount(pickup, { quantity: 1, child_quantity: 0 }, 1)).toBe(1200);
  });

  it("per night: each one for every night", () => {
    expect(addonAmount(parking, { quantity: 1, child_quantity: 0 }, 3)).toBe(900);
    expect(addonAmount(parking, { quantity: 2, child_quantity: 0 }, 2)).toBe(1200);
  });

  it("per person: adults at the price, children at the child price, once", () => {
    expect(addonAmount(tour, { quantity: 2, child_quantity: 1 }, 4)).toBe(2 * 500 + 250);
  });

  it("per person per night: adults and children at their prices, every night", () => {
    expect(addonAmount(breakfast, { quantity: 2, child_quantity: 2 }, 3)).toBe((2 * 400 + 2 * 200) * 3);
  });

  it("a child pays the adult price where the item has no child price", () => {
    expect(addonAmount({ unit: "person", price: 500, child_price: null }, { quantity: 1, child_quantity: 1 }, 1)).toBe(1000);
    expect(addonAmount({ unit: "person_night", price: 400, child_price: 0 }, { quantity: 1, child_quantity: 1 }, 2)).toBe(800);
  });

  it("takes one from inventory per piece or per person", () => {
    expect(addonUnitsTaken({ quantity: 2, child_quantity: 1 })).toBe(3);
  });

  it("holds a per-night item every night of the stay and a once-only item on the check-in day", () => {
    expect(addonHeldDays("night", "2026-05-01", "2026-05-04")).toEqual(["2026-05-01", "2026-05-02", "2026-05-03"]);
    expect(addonHeldDays("person_night", "2026-05-01", "2026-05-03")).toEqual(["2026-05-01", "2026-05-02"]);
    expect(addonHeldDays("stay", "2026-05-01", "2026-05-04")).toEqual(["2026-05-01"]);
    expect(addonHeldDays("person", "2026-05-01", "2026-05-04")).toEqual(["2026-05-01"]);
  });
});

describe("what may be chosen of an add-on", () => {
  const party = { adults: 2, children: 1 };
  it("accepts choices within the maximum and the party", () => {
    expect(addonChoicesProblem({ ...breakfast, max_per_booking: 6 }, [{ quantity: 2, child_quantity: 1 }], party)).toBeNull();
  });
  it("refuses more than the maximum per booking, counted over every choice", () => {
    const item = { ...parking, max_per_booking: 2 };
    expect(
      addonChoicesProblem(
        item,
        [
          { quantity: 1, child_quantity: 0 },
          { quantity: 2, child_quantity: 0 },
        ],
        null,
      ),
    ).toBe("addon_over_maximum");
  });
  it("refuses more people than the party has", () => {
    expect(addonChoicesProblem({ ...tour, max_per_booking: 10 }, [{ quantity: 3, child_quantity: 0 }], party)).toBe("addon_over_party");
    expect(addonChoicesProblem({ ...tour, max_per_booking: 10 }, [{ quantity: 1, child_quantity: 2 }], party)).toBe("addon_over_party");
  });
  it("refuses children on an item not counted per person, and a choice of none", () => {
    expect(addonChoicesProblem({ ...pickup, max_per_booking: 5 }, [{ quantity: 1, child_quantity: 1 }], party)).toBe(
      "addon_children_not_counted",
    );
    expect(addonChoicesProblem({ ...pickup, max_per_booking: 5 }, [{ quantity: 0, child_quantity: 0 }], party)).toBe(
      "addon_quantity_required",
    );
  });
});
