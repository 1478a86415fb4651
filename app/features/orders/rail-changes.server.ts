/**
 * A booked order's rail tickets changed from its order page (issue 37 item 14; decision 140): for
 * each ticket, another train between the same stations, other passengers while it is unpaid, or its
 * refund — each a page that states what it does (the new train, the fare difference, the fee, what
 * comes back) from the back end's own answers, then one plain POST behind the page's CSRF token.
 * Only whoever may cancel the order may change it (its cancel link, or its member), as for extras
 * (decision 126); the calls go with the order's cancel hash.
 */
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import type { RailFareType, RailLine } from "~/contract/rail";
import type { Order } from "~/contract/schemas";
import { isIsoDate } from "~/domain/dates";
import { orderState } from "~/domain/order-view";
import { departureInstant } from "~/domain/rail";
import { hashOf, orderForRequest } from "~/features/orders/access.server";
import { verifyCsrf } from "~/platform/cookies.server";
import { notFound } from "~/platform/not-found.server";
import { safeRedirect } from "~/platform/redirects.server";

type Params = { product?: string; orderDoc?: string };

const FARE_TYPES: RailFareType[] = ["adult", "child", "senior", "disabled"];
const STEPS = ["change", "passengers", "refund"] as const;
export type RailStepKind = (typeof STEPS)[number];

/** What the page offers for one ticket. */
export interface RailTicketOffer {
  change: boolean;
  passengers: boolean;
  refund: boolean;
}

export interface RailTrainChoice {
  train_no: string;
  departure_time: string;
  arrival_time: string;
  seats_left: number;
  /** The new fare less the ticket's: more to pay (> 0) or to be refunded (< 0). */
  difference: number;
  bookable: boolean;
  unavailable: "sold_out" | "not_open_yet" | "closed" | "current" | null;
}

export type RailStep =
  | { kind: "refund"; rail_id: number; was: string; booked: boolean; amount: number; fee: number; refund_amount: number; seats: number }
  | {
      kind: "change";
      rail_id: number;
      was: string;
      date: string;
      first_date: string;
      last_date: string;
      trains: RailTrainChoice[];
      chosen: (RailTrainChoice & { date: string }) | null;
      /** The back end's words when it would not list the trains. */
      error: string | null;
    }
  | {
      kind: "passengers";
      rail_id: number;
      was: string;
      values: Record<RailFareType, string>;
      /** The counts as the back end priced them: the new amount and what it changes. */
      priced: { amount: number; difference: number } | null;
      error: string | null;
    };

export interface RailChangesView {
  /** The order page's address with the proof it was opened with (a member's needs none). */
  base: string;
  /** The hidden fields a GET form on the page needs to keep that proof. */
  keep: Record<string, string>;
  offers: Record<number, RailTicketOffer>;
  step: RailStep | null;
  done: RailStepKind | null;
}

/** A refused or invalid form: which ticket, and why (a locale key or the back end's words). */
export interface RailReply {
  rail: { rail_id: number | null; formError: string };
}

/** Only who may cancel the order may change its tickets (decision 047's line), as for extras. */
const mayChange = (order: Order) => order.cancel_hash !== "";

/** What a form saw of a ticket: a second send (double click, back and resend, replay) finds it changed and is refused. */
export const ticketState = (line: RailLine) =>
  [line.status, line.date, line.train_no, ...FARE_TYPES.map((type) => line.passengers[type])].join(":");

/** What the page offers for a ticket, by its state as the back end answered it; the calls decide. */
function offerFor(order: Order, line: RailLine, now: Date): RailTicketOffer {
  const open = orderState(order) !== "cancelled";
  const held = line.status === "reserved" || line.status === "booked";
  const leaves = departureInstant(line.date, line.departure_time).getTime();
  return {
    change: open && held && leaves > now.getTime(),
    passengers: open && line.status === "reserved" && orderState(order) === "unpaid",
    refund: open && line.refund_quote !== null,
  };
}

/** The page's address and the hidden fields that keep its proof of access (the cancel link's hash). */
function pageBase(request: Request) {
  const url = new URL(request.url);
  const name = url.searchParams.has("cancel_hash") ? "cancel_hash" : url.searchParams.has("valid_hash") ? "valid_hash" : null;
  const value = name ? (url.searchParams.get(name) ?? "") : "";
  return {
    base: name ? `${url.pathname}?${name}=${encodeURIComponent(value)}` : url.pathname,
    keep: name ? { [name]: value } : {},
  };
}

const count = (value: string | null) => (value !== null && /^(10|\d)$/.test(value) ? Number(value) : null);

/** The order page's part for its tickets: the offers, and the step the address asks for (GET, nothing changes). */
export async function railChangesView(context: AppLoadContext, order: Order, request: Request): Promise<RailChangesView | null> {
  const lines = order.rail_item_list ?? [];
  if (!mayChange(order) || lines.length === 0) return null;
  const { app } = context;
  const now = new Date();
  const offers = Object.fromEntries(
    lines.flatMap((line) => (line.rail_id === null ? [] : [[line.rail_id, offerFor(order, line, now)] as const])),
  );
  const url = new URL(request.url);
  const doneParam = url.searchParams.get("rail_done");
  const done = (STEPS as readonly string[]).includes(doneParam ?? "") ? (doneParam as RailStepKind) : null;
  const view: RailChangesView = { ...pageBase(request), offers, step: null, done };
  const kind = url.searchParams.get("rail_step");
  const line = lines.find((entry) => entry.rail_id !== null && String(entry.rail_id) === url.searchParams.get("rail"));
  if (!line || line.rail_id === null) return view;
  const offer = offers[line.rail_id];
  const was = ticketState(line);

  if (kind === "refund" && offer?.refund && line.refund_quote) {
    view.step = {
      kind,
      rail_id: line.rail_id,
      was,
      booked: line.status === "booked",
      amount: line.amount,
      fee: line.refund_quote.fee,
      refund_amount: line.refund_quote.refund_amount,
      seats: FARE_TYPES.reduce((sum, type) => sum + line.passengers[type], 0),
    };
  } else if (kind === "change" && offer?.change) {
    const asked = url.searchParams.get("date") ?? "";
    const date = isIsoDate(asked) ? asked : line.date;
    let found;
    try {
      found = await Promise.all([
        app.api.railNextAvailBookingDate({ origin: line.origin.station_id, destination: line.destination.station_id }),
        app.api.railTrainAvailability({
          origin: line.origin.station_id,
          destination: line.destination.station_id,
          date,
          passengers: line.passengers,
        }),
      ]);
    } catch (error) {
      if (!(error instanceof HotelApiError) || error.status >= 500) throw error;
      // No list (the hotel stopped selling tickets, say): the step says why, with nothing to choose.
      view.step = {
        kind,
        rail_id: line.rail_id,
        was,
        date,
        first_date: date,
        last_date: date,
        trains: [],
        chosen: null,
        error: error.message,
      };
      return view;
    }
    const [window, availability] = found;
    const trains: RailTrainChoice[] = availability.trains.map((train) => {
      const current = train.train_no === line.train_no && date === line.date;
      return {
        train_no: train.train_no,
        departure_time: train.departure_time,
        arrival_time: train.arrival_time,
        seats_left: train.seats_left,
        difference: train.amount - line.amount,
        bookable: train.bookable && !current,
        unavailable: current ? "current" : train.unavailable,
      };
    });
    const chosen = trains.find((train) => train.bookable && train.train_no === url.searchParams.get("train"));
    view.step = {
      kind,
      rail_id: line.rail_id,
      was,
      date,
      first_date: window.first_date,
      last_date: window.last_date,
      trains,
      chosen: chosen ? { ...chosen, date } : null,
      error: null,
    };
  } else if (kind === "passengers" && offer?.passengers) {
    const typed = Object.fromEntries(FARE_TYPES.map((type) => [type, url.searchParams.get(type)])) as Record<RailFareType, string | null>;
    const asked = FARE_TYPES.some((type) => typed[type] !== null);
    const values = Object.fromEntries(FARE_TYPES.map((type) => [type, typed[type] ?? String(line.passengers[type])])) as Record<
      RailFareType,
      string
    >;
    const step: RailStep = { kind, rail_id: line.rail_id, was, values, priced: null, error: null };
    if (asked) {
      const counts = FARE_TYPES.map((type) => count(values[type]));
      if (counts.some((value) => value === null)) step.error = "rail.error.count";
      else {
        const passengers = Object.fromEntries(FARE_TYPES.map((type, index) => [type, counts[index] ?? 0]));
        try {
          const fare = await app.api.railTrialFare({
            origin: line.origin.station_id,
            destination: line.destination.station_id,
            passengers,
          });
          step.priced = { amount: fare.amount, difference: fare.amount - line.amount };
        } catch (error) {
          if (!(error instanceof HotelApiError) || error.status >= 500) throw error;
          step.error = error.message;
        }
      }
    }
    view.step = step;
  }
  return view;
}

/**
 * The POST of a ticket's step (`intent` rail_refund, rail_change, rail_passengers): behind the CSRF
 * token, for whoever may cancel the order (a view link's holder is a 404, as for extras), on a ticket
 * of this order as the form saw it, then the one call. Done: 303 back to the order page
 * (`rail_done=`). Refused: the page again with why, in the guest's language; nothing changed.
 */
export async function orderRailAction(context: AppLoadContext, params: Params, request: Request, form: FormData | null) {
  const { app } = context;
  const { order } = await orderForRequest(context, params.product, params.orderDoc, hashOf(request));
  if (!mayChange(order)) throw notFound();
  const railId = /^\d{1,10}$/.exec(String(form?.get("rail_id") ?? ""))?.[0];
  const reply = (status: number, formError: string) =>
    data<RailReply>({ rail: { rail_id: railId === undefined ? null : Number(railId), formError } }, { status });
  if (!form || !(await verifyCsrf(request, app, form))) return reply(403, "form.error.expired");
  const line = (order.rail_item_list ?? []).find((entry) => entry.rail_id !== null && String(entry.rail_id) === railId);
  if (!line || line.rail_id === null) return reply(404, "order_page.rail.not_found");
  // The ticket as the form saw it: a second send finds it refunded or moved already and does nothing.
  if (String(form.get("was") ?? "") !== ticketState(line)) return reply(409, "order_page.rail.changed_meanwhile");
  const offer = offerFor(order, line, new Date());
  const intent = String(form.get("intent") ?? "");
  let done: RailStepKind;
  try {
    if (intent === "rail_refund") {
      if (!offer.refund || !line.refund_quote) return reply(409, "order_page.rail.not_allowed");
      // The amounts the page stated: refused, not refunded otherwise, if they are not what a refund gives now.
      if (String(form.get("refund_amount") ?? "") !== String(line.refund_quote.refund_amount)) {
        return reply(409, "order_page.rail.quote_changed");
      }
      if (line.status === "booked") await app.api.railRefund(order.order_doc, order.cancel_hash, line.rail_id);
      else await app.api.railRefundReserved(order.order_doc, order.cancel_hash, line.rail_id);
      done = "refund";
    } else if (intent === "rail_change") {
      if (!offer.change) return reply(409, "order_page.rail.not_allowed");
      const trainNo = /^\d{1,6}$/.exec(String(form.get("train_no") ?? ""))?.[0];
      const date = String(form.get("date") ?? "");
      if (!trainNo || !isIsoDate(date)) return reply(400, "order_page.rail.not_allowed");
      await app.api.railChangeReservation(order.order_doc, order.cancel_hash, { rail_id: line.rail_id, train_no: trainNo, date });
      done = "change";
    } else if (intent === "rail_passengers") {
      if (!offer.passengers) return reply(409, "order_page.rail.not_allowed");
      const counts = FARE_TYPES.map((type) => count(String(form.get(type) ?? "")));
      if (counts.some((value) => value === null)) return reply(400, "rail.error.count");
      const passengers = Object.fromEntries(FARE_TYPES.map((type, index) => [type, counts[index] ?? 0]));
      // The amount the page stated for these passengers: a fare changed since is refused, not charged silently.
      const fare = await app.api.railTrialFare({ origin: line.origin.station_id, destination: line.destination.station_id, passengers });
      if (String(form.get("amount") ?? "") !== String(fare.amount)) return reply(409, "order_page.rail.quote_changed");
      await app.api.railUpdateReservation(order.order_doc, order.cancel_hash, { rail_id: line.rail_id, passengers });
      done = "passengers";
    } else {
      return reply(400, "form.error.expired");
    }
  } catch (error) {
    if (!(error instanceof HotelApiError) || error.status >= 500) throw error;
    // The back end's words, in the page's language (the client asks in it).
    return reply(error.status, error.message);
  }
  const { base } = pageBase(request);
  return safeRedirect(`${base}${base.includes("?") ? "&" : "?"}rail_done=${done}`, request, 303);
}
