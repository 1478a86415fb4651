/** The add-ons a checkout offers: the items the cart's plans list in the stay's search (spec §3 `adds_list`). */
import type { Cart } from "~/domain/cart";
import { addonHeldDays, isPerPerson } from "~/domain/addons";
import { HotelApiError, type HotelApi } from "~/contract/client";
import { AddonOfferSchema, itemsOf, type AddonGroup, type AddonOffer } from "~/features/addons/addons";

/**
 * The extras offered, in groups: with one room line, one group for the order (`attachment_detail.other`).
 * With several, items counted per person (a meal) are asked for each line whose plan offers them
 * (`attachment_detail.rooms`, by `room_index`), named by its room and plan, since each room has its
 * own guests; items counted per stay or per night (parking, a pickup) stay the order's, asked once.
 * None when the search cannot be read (the checkout goes on without extras). Each limited item
 * says how many are left for the stay (`left`, from the inventory call).
 */
export async function offeredAddons(api: HotelApi, cart: Cart): Promise<AddonGroup[]> {
  let search;
  try {
    search = await api.search(cart.start, cart.end);
  } catch (error) {
    if (error instanceof HotelApiError) return [];
    throw error;
  }
  const lines = cart.lines.map((line) => {
    const room = search.rooms.find((candidate) => candidate.room_class_id === line.room_class_id);
    const plan = room?.price_set.find((candidate) => candidate.proposal_id === line.proposal_id);
    return {
      items: itemsOf(AddonOfferSchema, plan?.adds_list ?? []),
      label: room && plan ? `${room.room_class_name} · ${plan.proposal_name}` : "",
    };
  });
  const perLine = lines.length > 1;
  const forOrder = offeredItems([{ items: lines.flatMap((line) => line.items.filter((item) => !perLine || !isPerPerson(item.unit))) }]);
  const groups: AddonGroup[] = forOrder.length > 0 ? [{ room_index: null, label: "", items: forOrder }] : [];
  if (!perLine) return withLeft(api, cart, groups);
  return withLeft(api, cart, [
    ...lines.flatMap((line, index) => {
      const items = line.items.filter((item) => isPerPerson(item.unit));
      return items.length > 0 ? [{ room_index: index, label: line.label, items }] : [];
    }),
    ...groups,
  ]);
}

/**
 * The groups with how many of each limited item are left for the stay: the fewest over the days it
 * is held on (every night for items counted per night, the check-in day for the others; decision
 * 115), a day without a count being none. The guest sees it, and the count fields are capped at it,
 * rather than the price check refusing "not enough" without saying of what. One call, only when a
 * limited item is offered; when it cannot be read, no count is shown and the back end still refuses
 * an oversell.
 */
async function withLeft(api: HotelApi, cart: Cart, groups: AddonGroup[]): Promise<AddonGroup[]> {
  const limited = offeredItems(groups).filter((item) => item.limited);
  if (limited.length === 0) return groups;
  let inventory;
  try {
    inventory = await api.addonInventory(
      cart.start,
      cart.end,
      limited.map((item) => item.adds_id),
    );
  } catch (error) {
    if (error instanceof HotelApiError) return groups;
    throw error;
  }
  const left = new Map(
    limited.map((item) => {
      const days = new Map(
        (inventory.adds.find((entry) => entry.adds_id === item.adds_id)?.dates ?? []).map((day) => [day.date, day.inventory]),
      );
      const counts = addonHeldDays(item.unit, cart.start, cart.end).map((day) => (days.has(day) ? (days.get(day) ?? null) : 0));
      // An item the answer counts as unlimited on every day it is held has no cap.
      return [item.adds_id, counts.every((count) => count === null) ? null : Math.min(...counts.map((count) => count ?? Infinity))];
    }),
  );
  return groups.map((group) => ({
    ...group,
    items: group.items.map((item) => (left.has(item.adds_id) ? { ...item, left: left.get(item.adds_id) ?? null } : item)),
  }));
}

/** Every item offered, once (the order's group or any line's). */
export function offeredItems(groups: readonly Pick<AddonGroup, "items">[]): AddonOffer[] {
  const items = new Map<number, AddonOffer>();
  for (const group of groups) for (const item of group.items) if (!items.has(item.adds_id)) items.set(item.adds_id, item);
  return [...items.values()];
}
