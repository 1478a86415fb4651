import { describe, expect, it } from "vitest";
import { filterAndRank, partyShortfall, roomFitsParty, sortPlans, sortRoomsBySuitability } from "~/domain/sorting";

const plan = (proposal_id: number, price: number, member_price: number | null = null, inventory = 5, allow_member_price = true) => ({
  proposal_id,
  price,
  member_price,
  allow_member_price,
  inventory,
});

describe("plans (spec §5)", () => {
  it("sort by ascending effective price, ties by proposal id", () => {
    const plans = [plan(3, 3000), plan(1, 3000), plan(2, 3200, 2800)];
    expect(sortPlans(plans, false).map((p) => p.proposal_id)).toEqual([1, 3, 2]);
    expect(sortPlans(plans, true).map((p) => p.proposal_id)).toEqual([2, 1, 3]);
    expect(sortPlans([plan(2, 3200, 2800, 5, false), plan(1, 3000)], true).map((p) => p.proposal_id)).toEqual([1, 2]);
  });
});

describe("room suitability (spec §5)", () => {
  const room = (people: number, children: number, plans: ReturnType<typeof plan>[]) => ({ people, children, price_set: plans });
  it.each([
    ["fits", room(2, 1, [plan(1, 3000)]), { adults: 2, children: 1, rooms: 1 }, true],
    ["adults per room", room(2, 0, [plan(1, 3000)]), { adults: 4, children: 0, rooms: 2 }, true],
    ["too many adults per room", room(2, 0, [plan(1, 3000)]), { adults: 5, children: 0, rooms: 2 }, false],
    ["first plan has too few rooms", room(2, 0, [plan(1, 3000, null, 1)]), { adults: 2, children: 0, rooms: 2 }, false],
    ["too many children", room(2, 0, [plan(1, 3000)]), { adults: 2, children: 1, rooms: 1 }, false],
    ["no plan", room(2, 0, []), { adults: 2, children: 0, rooms: 1 }, false],
  ])("%s", (_, candidate, party, expected) => {
    expect(roomFitsParty(candidate, party)).toBe(expected);
  });

  it("puts fitting rooms first, then the rest, each by the price of its first plan", () => {
    const rooms = [
      { id: "family-cheap-but-small", ...room(1, 0, [plan(1, 1500)]) },
      { id: "suite", ...room(4, 2, [plan(2, 9000)]) },
      { id: "double", ...room(2, 1, [plan(4, 4000), plan(3, 3500)]) },
      { id: "sold-out", ...room(4, 2, []) },
    ];
    expect(sortRoomsBySuitability(rooms, { adults: 2, children: 1, rooms: 1 }, false).map((r) => r.id)).toEqual([
      "double",
      "suite",
      "family-cheap-but-small",
      "sold-out",
    ]);
  });
});

describe("filtered results (spec §5)", () => {
  const mealPlan = (proposal_id: number, price: number, contain_meals: boolean, inventory = 5) => ({
    ...plan(proposal_id, price, null, inventory),
    contain_meals,
  });
  const room = (room_class_id: number, plans: ReturnType<typeof mealPlan>[]) => ({
    room_class_id,
    people: 2,
    children: 0,
    facilities_for_search: [],
    price_set: plans,
  });
  const noFilters = { plans: [], rooms: [], facilities: [], meals: false };
  const party = { adults: 2, children: 0, rooms: 1 };

  it("rank each room by the first plan it still shows once filtered", () => {
    // Room 1 is cheapest room-only but dearest with breakfast; room 2 the other way round.
    const rooms = [
      room(1, [mealPlan(10, 2000, false), mealPlan(11, 5000, true)]),
      room(2, [mealPlan(20, 3000, false), mealPlan(21, 3500, true)]),
    ];
    expect(filterAndRank(rooms, noFilters, party, false).rooms.map((r) => r.room_class_id)).toEqual([1, 2]);
    const breakfast = filterAndRank(rooms, { ...noFilters, meals: true }, party, false);
    expect(breakfast.rooms.map((r) => [r.room_class_id, r.price_set.map((p) => p.proposal_id)])).toEqual([
      [2, [21]],
      [1, [11]],
    ]);
    expect(breakfast.complementary.map(({ plan: p }) => p.proposal_id).sort()).toEqual([10, 20]);
  });
});

describe("a party the results cannot house", () => {
  const plan = (inventory: number) => ({ proposal_id: 1, price: 3000, member_price: null, allow_member_price: false, inventory });
  const double = { people: 2, children: 1, price_set: [plan(20)] };
  const family = { people: 4, children: 2, price_set: [plan(3)] };

  it.each<[string, (typeof double)[], { adults: number; children: number; rooms: number }, "rooms" | "capacity" | null]>([
    ["a room fits: nothing to say", [double, family], { adults: 2, children: 0, rooms: 1 }, null],
    ["more rooms than any room type has left", [double, family], { adults: 25, children: 0, rooms: 25 }, "rooms"],
    ["the big room is big enough but has too few left", [double, family], { adults: 16, children: 0, rooms: 4 }, "rooms"],
    ["no room sleeps that many per room", [double, family], { adults: 9, children: 0, rooms: 1 }, "capacity"],
    ["too many children for any room", [double, family], { adults: 2, children: 3, rooms: 1 }, "capacity"],
    ["nothing offered at all: the empty results say it", [], { adults: 2, children: 0, rooms: 1 }, null],
    ["sold out rooms only", [{ ...double, price_set: [plan(0)] }], { adults: 2, children: 0, rooms: 1 }, "rooms"],
  ])("%s", (_name, rooms, party, expected) => {
    expect(partyShortfall(rooms, party)).toBe(expected);
  });
});
