import type { Cart } from "~/domain/cart";
import { nightsBetween, stayNights } from "~/domain/dates";
import { HotelApiError, PriceCheckError, type HotelApi } from "~/contract/client";
import type { HotelInfo, MemberProfile, PriceDetail } from "~/contract/schemas";
import { depositPercentOf, effectivePrice } from "~/domain/pricing";
import type { AddonChoiceInput } from "~/features/addons/addons";
import { railItemsOf } from "~/features/rail/rail";

export interface PriceOptions {
  coupon?: string;
  points?: number;
  payOption?: "all" | "part";
  /** The signed-in member's profile, loaded before the check (spec §6); the legacy check sends it. */
  member?: Pick<MemberProfile, "email" | "points"> | null;
  /** Add-ons chosen for the order and the party (price check v2 only: the legacy check has no add-ons). */
  addons?: AddonChoiceInput[];
  party?: { adults: number; children: number };
}

/**
 * A price detail, or the server's message about why the check failed, in the guest's language.
 * Both are set when only some lines failed: the detail then marks each failing line with its
 * error (price check v2 only).
 */
export interface PriceOutcome {
  price: PriceDetail | null;
  error: string | null;
}

/**
 * The server's price check of a cart (spec §7). It uses `ota/order/calculate` when price check v2
 * is on, and the legacy `discount/calculate` otherwise. A refusal comes back as a message and never
 * as a crash. `unknownPlan` is the guest's text for a cart line the hotel no longer sells on these
 * dates, whichever path found it out (v2's back end answers `unknown_plan`, the legacy path finds no
 * line for its codes).
 */
export async function checkPrice(
  api: HotelApi,
  hotel: Pick<HotelInfo, "deposit_type" | "deposit_percent">,
  v2: boolean,
  cart: Cart,
  options: PriceOptions,
  unknownPlan: string,
): Promise<PriceOutcome> {
  try {
    if (v2) {
      const price = await api.calculate({
        check_in_day: cart.start,
        check_out_day: cart.end,
        orders: cart.lines,
        coupon_code: options.coupon || undefined,
        point_used: options.points ?? 0,
        pay_option: options.payOption ?? "all",
        ...(options.addons && options.addons.length > 0 ? { room_attachment_detail: options.addons } : {}),
        ...(options.party ? { adults_count: options.party.adults, children_count: options.party.children } : {}),
        // The rail tickets chosen (issue 27): priced with the rooms, in full in what is due now.
        ...(cart.rail && cart.rail.length > 0 ? { rail_item_list: railItemsOf(cart) } : {}),
      });
      return { price, error: null };
    }
    return await legacyPriceCheck(api, hotel, cart, options, unknownPlan);
  } catch (error) {
    if (error instanceof PriceCheckError) return { price: error.detail, error: error.message || error.code };
    // A plan the hotel no longer sells reads the same both ways: the guest is asked to choose again.
    if (error instanceof HotelApiError && error.code === "unknown_plan") return { price: null, error: unknownPlan };
    if (error instanceof HotelApiError) return { price: null, error: error.message || error.code };
    throw error;
  }
}

/**
 * The legacy price check names each line by its rate plan and room codes, with the number of rooms
 * for every night. Its answer has only the totals. The per-line breakdown the checkout shows comes
 * from the availability search of the same stay, which also supplies the codes.
 */
async function legacyPriceCheck(
  api: HotelApi,
  hotel: Pick<HotelInfo, "deposit_type" | "deposit_percent">,
  cart: Cart,
  options: PriceOptions,
  unknownPlan: string,
): Promise<PriceOutcome> {
  const search = await api.search(cart.start, cart.end);
  const nights = stayNights(cart.start, cart.end);
  const found = cart.lines.map((line) => {
    const room = search.rooms.find((candidate) => candidate.room_class_id === line.room_class_id);
    const plan = room?.price_set.find((candidate) => candidate.proposal_id === line.proposal_id);
    return room && plan ? { line, room, plan } : null;
  });
  if (found.some((entry) => entry === null)) return { price: null, error: unknownPlan };
  const lines = found.filter((entry) => entry !== null);

  const legacy = await api.legacyCalculate({
    check_in: cart.start,
    check_out: cart.end,
    coupon_code: options.coupon || undefined,
    plans: lines.map(({ line, room, plan }) => ({
      rate_plan_code: plan.rate_plan_code,
      inv_type_code: room.room_code,
      date_and_amount: nights.map((date) => ({ date, amount: line.num })),
    })),
    use_point: options.points ?? 0,
    use_deposit: options.payOption === "part",
    member: options.member ? { user_email: options.member.email, user_point: options.member.points } : undefined,
  });
  // Whom the back end priced for: its answer says so; one that does not is taken to honour the member sent.
  const recognised = legacy.member === undefined ? (options.member ? { user_point: options.member.points } : null) : legacy.member;
  const { member: _member, ...totals } = legacy;
  return {
    price: {
      ...totals,
      point_used: legacy.point_used ?? options.points ?? 0,
      deposit_type: hotel.deposit_type,
      deposit_percent: depositPercentOf(hotel.deposit_percent),
      coupon_code: legacy.coupon_code ?? (legacy.promotion_discount > 0 ? (options.coupon ?? "") : ""),
      member: recognised ? { points: recognised.user_point } : null,
      // The legacy price check knows no rail tickets.
      rail_item_list: [],
      rail_amount: 0,
      lines: lines.map(({ line, room, plan }) => {
        // The lines follow the back end's totals: member prices only for the member it recognised (spec §5).
        const unit = effectivePrice(plan, recognised !== null);
        return {
          room_class_id: room.room_class_id,
          room_class_name: room.room_class_name,
          proposal_id: plan.proposal_id,
          proposal_name: plan.proposal_name,
          num: line.num,
          nights: nightsBetween(cart.start, cart.end),
          price: plan.price,
          member_price: plan.member_price,
          unit_price: unit,
          amount: unit * line.num,
          inventory: plan.inventory,
          allow_coupon: plan.allow_coupon,
          error: null,
        };
      }),
      check_in_day: cart.start,
      check_out_day: cart.end,
    },
    error: null,
  };
}
