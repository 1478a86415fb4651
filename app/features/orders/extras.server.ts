/**
 * Extras added to a booking after it was placed (issue 27; decisions 124 and 126): the order page
 * offers them while the order can still take some (unpaid, no payment under way: the back end's
 * `GET /api/xtra/adds/list` says so) to whoever may cancel it (its cancel link, or its member), and
 * its form books them with `POST /api/xtra/adds/batch/booking` under the order's cancel hash.
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { OrderAddonList } from "~/contract/addons";
import type { Order } from "~/contract/schemas";
import { isPerPerson } from "~/domain/addons";
import { orderState } from "~/domain/order-view";
import { addonChoicesOf, addonField, type AddonGroup, type AddonOffer } from "~/features/addons/addons";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import { verifyCsrf } from "~/platform/cookies.server";
import { notFound } from "~/platform/not-found.server";
import { safeRedirect } from "~/platform/redirects.server";

type Params = { product?: string; orderDoc?: string };

/** What the order has of an item and what is left for its stay (null: not limited). */
export interface ExtraNote {
  booked: number;
  left: number | null;
}

export interface OrderExtrasOffer {
  groups: AddonGroup[];
  notes: Record<number, ExtraNote>;
}

/** The guest's side of a refused or invalid form: the counts as typed, and why. */
export interface ExtrasReply {
  extras: { values: Record<string, string>; fieldErrors: Record<string, string>; formError: string };
}

/** Only who may cancel the order may add to it (decision 047's line): its cancel link's holder or its member. */
const mayAdd = (order: Order) => order.cancel_hash !== "";

/**
 * The order's extras in the checkout's groups (decision 117 as amended): with one room line, every
 * item for the order; with several, items counted per person under each line whose plan offers them,
 * the others once for the order. Items no line's plan offers are left out.
 */
export function orderAddonGroups(list: OrderAddonList, order: Pick<Order, "orders">): OrderExtrasOffer {
  const offered = list.adds.filter((item) => item.room_indexes.length > 0);
  const offer = (item: OrderAddonList["adds"][number]): AddonOffer => ({
    adds_id: item.adds_id,
    adds_code: item.adds_code,
    name: item.name,
    description: item.description,
    photo: item.photo,
    unit: item.unit,
    price: item.price,
    child_price: item.child_price,
    max_per_booking: item.max_per_booking,
    limited: item.limited,
  });
  const notes = Object.fromEntries(offered.map((item) => [item.adds_id, { booked: item.booked, left: item.left }]));
  const perLine = order.orders.length > 1;
  const forOrder = offered.filter((item) => !perLine || !isPerPerson(item.unit)).map(offer);
  const orderGroup: AddonGroup[] = forOrder.length > 0 ? [{ room_index: null, label: "", items: forOrder }] : [];
  if (!perLine) return { groups: orderGroup, notes };
  const lines = order.orders.flatMap((line, index) => {
    const items = offered.filter((item) => isPerPerson(item.unit) && item.room_indexes.includes(index)).map(offer);
    return items.length > 0 ? [{ room_index: index, label: `${line.room_class_name} · ${line.rate_plan_name}`, items }] : [];
  });
  return { groups: [...lines, ...orderGroup], notes };
}

/** The extras the order page offers this order, or null: not the guest's to change, not unpaid, nothing offered, or the list unreadable. */
export async function offeredExtras(context: AppLoadContext, order: Order): Promise<OrderExtrasOffer | null> {
  if (!mayAdd(order) || orderState(order) !== "unpaid") return null;
  let list: OrderAddonList;
  try {
    list = await context.app.api.orderAddonList(order.order_doc, order.valid_hash);
  } catch (error) {
    // The page goes on without extras when the back end will not list them.
    if (error instanceof HotelApiError && error.status < 500) return null;
    throw error;
  }
  if (!list.addable) return null;
  const offer = orderAddonGroups(list, order);
  return offer.groups.length > 0 ? offer : null;
}

/** The choice named by an API refusal's field `room_attachment_detail.N`, as the form field it came from. */
function refusedField(field: string | undefined, choices: { adds_id: number; room_index?: number }[]): string | null {
  const index = /^room_attachment_detail\.(\d+)/.exec(field ?? "")?.[1];
  const choice = index === undefined ? undefined : choices[Number(index)];
  return choice ? addonField({ room_index: choice.room_index ?? null }, choice) : null;
}

/**
 * The form's POST: behind the CSRF token, for whoever may cancel the order (a view link's holder is
 * a 404, as on the cancellation page), counts read as the checkout reads them, then one batch
 * booking. Done: 303 back to the order page (`added=1`). Refused: the page again with the counts and
 * the back end's message in the guest's language; nothing changed.
 */
export async function orderExtrasAction(context: AppLoadContext, params: Params, request: Request, form: FormData | null) {
  const { app } = context;
  const { order } = await orderForRequest(context, params.product, params.orderDoc, hashOf(request));
  if (!mayAdd(order)) throw notFound();
  const values: Record<string, string> = Object.fromEntries(
    [...(form?.entries() ?? [])].filter(([key]) => key.startsWith("addon_")).map(([key, value]) => [key, String(value)]),
  );
  const reply = (status: number, formError: string, fieldErrors: Record<string, string> = {}) =>
    data<ExtrasReply>({ extras: { values, fieldErrors, formError } }, { status });
  if (!form || !(await verifyCsrf(request, app, form))) return reply(403, "form.error.expired");
  // How many extras the page showed: the back end refuses the batch when the order has another count by then.
  const seen = /^\d{1,3}$/.exec(String(form.get("seen") ?? ""))?.[0];
  if (seen === undefined) return reply(400, "form.error.expired");

  // The fields are those of the items the order's plans offer now; whether it can still take them
  // is the batch booking's to say (paid, payment under way, cancelled), in its words.
  let list: OrderAddonList;
  try {
    list = await app.api.orderAddonList(order.order_doc, order.valid_hash);
  } catch (error) {
    if (error instanceof HotelApiError && error.status < 500) return reply(error.status, error.message);
    throw error;
  }
  const { choices, invalid } = addonChoicesOf(values, orderAddonGroups(list, order).groups);
  if (invalid.length > 0)
    return reply(400, "form.error.fix_fields", Object.fromEntries(invalid.map((name) => [name, "form.error.addon_count"])));
  if (choices.length === 0) return reply(400, "order_page.extras.none_chosen");
  try {
    await app.api.addonBatchBooking(order.order_doc, order.cancel_hash, choices, Number(seen));
  } catch (error) {
    if (!(error instanceof HotelApiError) || error.status >= 500) throw error;
    // The back end's words, in the page's language (the client asks in it).
    const field = refusedField(error.field, choices);
    return field ? reply(error.status, "form.error.fix_fields", { [field]: error.message }) : reply(error.status, error.message);
  }
  const page = new URL(request.url);
  page.searchParams.set("added", "1");
  return safeRedirect(`${page.pathname}${page.search}`, request, 303);
}
