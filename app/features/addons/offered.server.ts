/** The add-ons a checkout offers: the items the cart's plans list in the stay's search (spec §3 `adds_list`). */
import type { Cart } from "~/domain/cart";
import { HotelApiError, type HotelApi } from "~/contract/client";
import { AddonOfferSchema, itemsOf, type AddonOffer } from "~/features/addons/addons";

/** Each item once, in the order the plans list them; none when the search cannot be read (the checkout goes on without extras). */
export async function offeredAddons(api: HotelApi, cart: Cart): Promise<AddonOffer[]> {
  let search;
  try {
    search = await api.search(cart.start, cart.end);
  } catch (error) {
    if (error instanceof HotelApiError) return [];
    throw error;
  }
  const offered = new Map<number, AddonOffer>();
  for (const line of cart.lines) {
    const room = search.rooms.find((candidate) => candidate.room_class_id === line.room_class_id);
    const plan = room?.price_set.find((candidate) => candidate.proposal_id === line.proposal_id);
    for (const item of itemsOf(AddonOfferSchema, plan?.adds_list ?? [])) if (!offered.has(item.adds_id)) offered.set(item.adds_id, item);
  }
  return [...offered.values()];
}
