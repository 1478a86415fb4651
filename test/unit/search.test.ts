import { describe, expect, it } from "vitest";
import { partyForRoom } from "~/domain/limits";
import { parseBookingSearch } from "~/domain/search";
import { filterRooms } from "~/domain/sorting";

const TODAY = "2030-01-10";
const parse = (query: string) => parseBookingSearch(new URLSearchParams(query), TODAY);

describe("booking search parameters", () => {
  it("defaults to today, tomorrow, 1 room, 2 adults, 0 children", () => {
    expect(parse("")).toMatchObject({ search: { start: TODAY, end: "2030-01-11", room: 1, adults: 2, children: 0 }, errors: {} });
  });

  it("takes a duration when there is no end", () => {
    expect(parse("start=2030-02-01&duration=3").search.end).toBe("2030-02-04");
  });

  it.each([
    ["start=2030-01-09&end=2030-01-12", "start", "search.error.date_in_past"],
    ["start=2030-01-12&end=2030-01-11", "end", "search.error.dates_reversed"],
    ["start=2030-01-12&end=2030-03-12", "end", "search.error.stay_too_long"],
    ["start=2032-01-12&end=2032-01-13", "start", "search.error.beyond_sellable_window"],
    ["start=soon", "start", "search.error.invalid_date"],
    ["room=0", "room", "search.error.rooms"],
    ["room=10000", "room", "search.error.rooms"],
    ["adults=-1", "adults", "search.error.adults"],
    ["children=abc", "children", "search.error.children"],
    ["room=3&adults=2", "adults", "search.error.adults_per_room"],
    ["duration=0", "end", "search.error.duration"],
  ])("%s: %s is %s, and the value entered is kept", (query, field, message) => {
    const parsed = parse(query);
    expect(parsed.errors[field as keyof typeof parsed.errors]).toBe(message);
  });

  it("reads filters from repeated parameters", () => {
    expect(parse("plan=3&plan=4&room_id=7&facility=bathtub&facility=x y&meals=1").filters).toEqual({
      plans: [3, 4],
      rooms: [7],
      facilities: ["bathtub"],
      meals: true,
    });
  });
});

describe("filters (spec §5)", () => {
  const plan = (proposal_id: number, contain_meals: boolean, inventory = 2) => ({
    proposal_id,
    price: 3000,
    member_price: null,
    allow_member_price: false,
    inventory,
    contain_meals,
  });
  const rooms = [
    {
      room_class_id: 1,
      people: 2,
      children: 0,
      facilities_for_search: ["bathtub", "city_view"],
      price_set: [plan(10, false), plan(11, true)],
    },
    { room_class_id: 2, people: 2, children: 0, facilities_for_search: ["balcony"], price_set: [plan(10, false, 0), plan(12, false)] },
  ];

  it("keeps rooms with any of the selected facilities", () => {
    expect(
      filterRooms(rooms, { plans: [], rooms: [], facilities: ["balcony", "sauna"], meals: false }).rooms.map((room) => room.room_class_id),
    ).toEqual([2]);
  });

  it("keeps the chosen plans and rooms", () => {
    const result = filterRooms(rooms, { plans: [11], rooms: [], facilities: [], meals: false });
    expect(result.rooms.map((room) => [room.room_class_id, room.price_set.map((p) => p.proposal_id)])).toEqual([[1, [11]]]);
    expect(filterRooms(rooms, { plans: [], rooms: [2], facilities: [], meals: false }).rooms).toHaveLength(1);
  });

  it("with meals keeps breakfast plans, and lists non-breakfast plans with stock as complementary", () => {
    const result = filterRooms(rooms, { plans: [], rooms: [], facilities: [], meals: true });
    expect(result.rooms.map((room) => room.room_class_id)).toEqual([1]);
    expect(result.complementary.map(({ room, plan }) => `${room.room_class_id}-${plan.proposal_id}`)).toEqual(["1-10", "2-12"]);
  });
});

describe("the party a room's own booking links ask for (spec §9: room count times room capacity)", () => {
  it("fills the room to its capacity", () => {
    expect(partyForRoom({ people: 4, children: 2 })).toEqual({ room: 1, adults: 4, children: 2 });
    expect(partyForRoom({ people: 2, children: 1 }, 3)).toEqual({ room: 3, adults: 6, children: 3 });
  });

  it("falls back to the default party when the capacity is unknown", () => {
    expect(partyForRoom({ people: 0, children: 0 })).toEqual({ room: 1, adults: 2, children: 0 });
  });
});
