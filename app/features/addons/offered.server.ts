/** The add-ons a checkout offers: the items the cart's plans list in the stay's search (spec §3 `adds_list`). */
import type { Cart } from "~/domain/cart";
import { isPerPerson } from "~/domain/addons";
import { HotelApiError, type HotelApi } from "~/contract/client";
import { AddonOfferSchema, itemsOf, type AddonGroup, type AddonOffer } from "~/features/addons/addons";

/**
 * The extras offered, in groups: with one room line, one group for the order (`attachment_detail.other`).
 * With several, items counted per person (a meal) are asked for each line whose plan offers them
 * (`attachment_detail.rooms`, by `room_index`), named by its room and plan, since each room has its
 * own guests; items counted per stay or per night (parking, a pickup) stay the order's, asked once.
 * None when the search cannot be read (the checkout goes on without extras).
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
  if (!perLine) return groups;
  return [
    ...lines.flatMap((line, index) => {
      const items = line.items.filter((item) => isPerPerson(item.unit));
      return items.length > 0 ? [{ room_index: index, label: line.label, items }] : [];
    }),
    ...groups,
  ];
}

/** Every item offered, once (the order's group or any line's). */
export function offeredItems(groups: readonly Pick<AddonGroup, "items">[]): AddonOffer[] {
  const items = new Map<number, AddonOffer>();
  for (const group of groups) for (const item of group.items) if (!items.has(item.adds_id)) items.set(item.adds_id, item);
  return [...items.values()];
}
