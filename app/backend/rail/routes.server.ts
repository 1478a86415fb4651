/**
 * The nine rail calls of spec §7 (docs/api.md "Rail"; decisions 119-120): three that read
 * (trains, the next date, a fare) and six that act on one order's tickets.
 */
import * as v from "valibot";
import { bookingWindowProblem, departureInstant, passengerProblem, railAmount, seatsOf, ticketLimitProblem } from "~/domain/rail";
import { addDays, todayIn } from "~/domain/dates";
import type { Passengers } from "~/domain/rail";
import { ApiError, ok, parseInput, queryObject, readJsonBody } from "~/backend/http.server";
import { requireHotel, type HotelRow } from "~/backend/hotels/hotels.server";
import { memberFromRequest } from "~/backend/account/members.server";
import { verifyOrderLink } from "~/backend/orders/links.server";
import { DocParam } from "~/backend/orders/schema";
import { findOrder, type OrderRow } from "~/backend/orders/store.server";
import type { BackendContext, BackendRoute } from "~/backend/route";
import { WholeNumber } from "~/backend/pricing/stay.server";
import { railProviderFor, seatKey } from "~/backend/rail/provider";
import { paidAtTheHotel } from "~/domain/payments";
import { assertDepartsAfterDeadline, DayInput, PassengersInput, priceRail, StationInput, TrainNoInput } from "~/backend/rail/rail.server";
import { bookedLineRefund, isHeld, loadRail, passengersOf, type RailRow } from "~/backend/rail/lines.server";
import {
  checkStations,
  loadFares,
  loadStations,
  presentStation,
  RAIL_TIME_ZONE,
  requireRail,
  requireTrain,
  trainsBetween,
} from "~/backend/rail/timetable.server";
import { isRailSoldOut, railHoldStatements } from "~/backend/rail/holds.server";
import { lastBookableDay, minutesBetween, runsOn } from "~/domain/rail";
import { presentRailRow } from "~/backend/rail/present.server";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

const QueryPassengers = {
  adult: v.optional(WholeNumber(0, 10), 1),
  child: v.optional(WholeNumber(0, 10), 0),
  senior: v.optional(WholeNumber(0, 10), 0),
  disabled: v.optional(WholeNumber(0, 10), 0),
};

const passengersFrom = (query: { adult: number; child: number; senior: number; disabled: number }): Passengers => ({
  adult: query.adult,
  child: query.child,
  senior: query.senior,
  disabled: query.disabled,
});

async function railHotel(ctx: BackendContext, domain: string | null | undefined) {
  const hotel = await requireHotel(ctx.db, domain);
  return { hotel, home: requireRail(hotel) };
}

async function trainAvailability(ctx: BackendContext) {
  const query = parseInput(
    v.object({
      domain: v.string(),
      date: DayInput,
      origin: StationInput,
      destination: StationInput,
      time: v.optional(v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/))),
      ...QueryPassengers,
    }),
    queryObject(ctx.url),
  );
  const { hotel } = await railHotel(ctx, query.domain);
  const stations = await loadStations(ctx.db);
  checkStations(stations, query.origin, query.destination);
  const passengers = passengersFrom(query);
  const problem = passengerProblem(passengers);
  if (problem) throw new ApiError(400, problem, {}, "adult");
  const seats = seatsOf(passengers);
  const fares = await loadFares(ctx.db, query.origin, query.destination);
  const trains = (await trainsBetween(ctx.db, query.origin, query.destination)).filter(
    (train) => runsOn(train, query.date) && (!query.time || train.departure_time >= query.time),
  );
  const left = await railProviderFor(hotel).seatsLeft(
    ctx.db,
    hotel,
    trains.map((train) => ({ train_no: train.train_no, day: query.date })),
  );
  const today = todayIn(RAIL_TIME_ZONE, ctx.now);
  return ok({
    date: query.date,
    origin: presentStation(stations.get(query.origin), query.origin, ctx.lang),
    destination: presentStation(stations.get(query.destination), query.destination, ctx.lang),
    passengers,
    trains: fares
      ? trains.map((train) => {
          const seatsLeft = left.get(seatKey({ train_no: train.train_no, day: query.date })) ?? 0;
          const window = bookingWindowProblem(query.date, departureInstant(query.date, train.departure_time), today, ctx.now);
          const unavailable = window === "rail_not_open_yet" ? "not_open_yet" : window ? "closed" : seatsLeft < seats ? "sold_out" : null;
          return {
            train_no: train.train_no,
            direction: train.direction === 0 ? "southbound" : "northbound",
            departure_time: train.departure_time,
            arrival_time: train.arrival_time,
            duration_minutes: minutesBetween(train.departure_time, train.arrival_time),
            seats_left: seatsLeft,
            bookable: unavailable === null,
            unavailable,
            fares,
            amount: railAmount(passengers, fares),
          };
        })
      : [],
  });
}

async function nextAvailBookingDate(ctx: BackendContext) {
  const query = parseInput(
    v.object({
      domain: v.string(),
      origin: v.optional(StationInput),
      destination: v.optional(StationInput),
      date: v.optional(DayInput),
      seats: v.optional(WholeNumber(1, 10), 1),
    }),
    queryObject(ctx.url),
  );
  const { hotel, home } = await railHotel(ctx, query.domain);
  const stations = await loadStations(ctx.db);
  if ((query.origin === undefined) !== (query.destination === undefined)) {
    const field = query.origin === undefined ? "origin" : "destination";
    throw new ApiError(400, "invalid_field", { field }, field);
  }
  if (query.origin && query.destination) checkStations(stations, query.origin, query.destination);
  const today = todayIn(RAIL_TIME_ZONE, ctx.now);
  const last = lastBookableDay(today);
  // Without stations: any train to or from the hotel's station, timed at the hotel's station.
  const trains =
    query.origin && query.destination
      ? await trainsBetween(ctx.db, query.origin, query.destination)
      : (
          await ctx.db
            .prepare(
              `SELECT t.train_no, t.direction, t.service_days, t.effective_date, t.expiring_date, s.departure_time, s.arrival_time
               FROM rail_trains t JOIN rail_stops s ON s.train_no = t.train_no AND s.station_id = ? ORDER BY s.departure_time`,
            )
            .bind(home)
            .all<Awaited<ReturnType<typeof trainsBetween>>[number]>()
        ).results;
  const from = query.date && query.date > today ? query.date : today;
  const candidates: { train_no: string; day: string; departure: Date }[] = [];
  for (let day = from; day <= last; day = addDays(day, 1)) {
    for (const train of trains) {
      if (!runsOn(train, day)) continue;
      const departure = departureInstant(day, train.departure_time);
      if (bookingWindowProblem(day, departure, today, ctx.now) === null) candidates.push({ train_no: train.train_no, day, departure });
    }
  }
  const left = await railProviderFor(hotel).seatsLeft(ctx.db, hotel, candidates);
  const found = candidates.find((candidate) => (left.get(seatKey(candidate)) ?? 0) >= query.seats);
  return ok({
    date: found?.day ?? null,
    first_date: today,
    last_date: last,
    hotel_station: presentStation(stations.get(home), home, ctx.lang),
    stations: [...stations.values()].map((station) => presentStation(station, station.station_id, ctx.lang)),
  });
}

async function trialFare(ctx: BackendContext) {
  const query = parseInput(
    v.object({ domain: v.string(), origin: StationInput, destination: StationInput, ...QueryPassengers }),
    queryObject(ctx.url),
  );
  await railHotel(ctx, query.domain);
  const stations = await loadStations(ctx.db);
  checkStations(stations, query.origin, query.destination);
  const passengers = passengersFrom(query);
  const problem = passengerProblem(passengers);
  if (problem) throw new ApiError(400, problem, {}, "adult");
  const fares = await loadFares(ctx.db, query.origin, query.destination);
  if (!fares) throw new ApiError(404, "rail_train_unknown", {}, "destination");
  return ok({
    origin: presentStation(stations.get(query.origin), query.origin, ctx.lang),
    destination: presentStation(stations.get(query.destination), query.destination, ctx.lang),
    passengers,
    fares,
    amount: railAmount(passengers, fares),
  });
}

// The calls on an order's tickets.

const OrderBody = {
  domain: v.string(),
  order_doc: DocParam,
  valid_hash: v.optional(v.pipe(v.string(), v.maxLength(200))),
};

/** The order named by the body, for the holder of its cancel link or its signed-in member; otherwise 404. */
async function railOrder(ctx: BackendContext, body: { domain: string; order_doc: string; valid_hash?: string | undefined }) {
  const { hotel } = await railHotel(ctx, body.domain);
  const order = await findOrder(ctx.db, hotel.id, body.order_doc, ctx.now);
  if (!order) throw new ApiError(404, "order_not_found", {}, "order_doc");
  if (body.valid_hash) {
    const doc = await verifyOrderLink(ctx.signingSecret, body.valid_hash, "cancel", hotel.id, ctx.now);
    if (doc !== order.order_doc) throw new ApiError(404, "order_not_found", {}, "order_doc");
  } else {
    const member = await memberFromRequest(ctx.db, hotel, ctx.request, ctx.now);
    if (!member || order.member_id !== member.id) throw new ApiError(404, "order_not_found", {}, "order_doc");
  }
  const rail = (await loadRail(ctx.db, [order.id])).get(order.id) ?? [];
  return { hotel, order, rail };
}

/** The order's tickets and amounts after a call. */
async function railOrderAnswer(ctx: BackendContext, hotel: HotelRow, orderDoc: string) {
  const order = await findOrder(ctx.db, hotel.id, orderDoc, ctx.now);
  if (!order) throw new ApiError(404, "order_not_found", {}, "order_doc");
  const [rail, stations] = await Promise.all([loadRail(ctx.db, [order.id]), loadStations(ctx.db)]);
  return ok({
    order_doc: order.order_doc,
    rail_item_list: (rail.get(order.id) ?? []).map((row) => presentRailRow(row, stations, ctx.lang, { hotel, order, now: ctx.now })),
    rail_amount: order.rail_amount ?? 0,
    total_price: order.total_price,
    pay_amount: order.pay_amount,
  });
}

/** Unpaid, nothing paid and no payment under way: the order's amounts may still change. */
async function assertAmountsMayChange(db: D1Database, order: OrderRow) {
  if (order.status !== "pending_payment" || order.paid_amount > 0 || order.payment_status !== -1) {
    throw new ApiError(409, "rail_not_changeable", {}, "order_doc");
  }
  const running = await db
    .prepare("SELECT 1 FROM payments WHERE order_id = ? AND status IN ('pending', 'code_issued') LIMIT 1")
    .bind(order.id)
    .first();
  if (running) throw new ApiError(409, "rail_not_changeable", {}, "order_doc");
}

/** SQL: the order is still unpaid and has no payment under way (re-checked inside the batch). */
const STILL_UNPAID = `(SELECT status = 'pending_payment' AND paid_amount = 0 AND payment_status = -1 FROM orders WHERE id = ?)
  AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = ? AND status IN ('pending', 'code_issued'))`;

function findLine(rail: RailRow[], railId: number): RailRow {
  const line = rail.find((row) => row.id === railId);
  if (!line) throw new ApiError(404, "rail_not_found", {}, "rail_id");
  return line;
}

async function runBatch(db: D1Database, statements: D1PreparedStatement[], field: string) {
  try {
    return await db.batch(statements);
  } catch (error) {
    if (isRailSoldOut(error)) throw new ApiError(409, "rail_sold_out", {}, field);
    throw error;
  }
}

async function reservation(ctx: BackendContext) {
  const body = parseInput(
    v.object({ ...OrderBody, rail_item_list: v.pipe(v.array(v.unknown()), v.minLength(1), v.maxLength(2)) }),
    await readJsonBody(ctx.request),
  );
  const { hotel, order, rail } = await railOrder(ctx, body);
  if (paidAtTheHotel(order.pay_way)) throw new ApiError(400, "rail_needs_payment", {}, "order_doc");
  await assertAmountsMayChange(ctx.db, order);
  const held = rail.filter(isHeld).map((row) => ({ direction: row.direction, passengers: passengersOf(row) }));
  const priced = await priceRail(ctx.db, hotel, body.rail_item_list, ctx.now, { held, lang: ctx.lang });
  assertDepartsAfterDeadline(priced, order.pay_deadline);
  const batch = [
    // The seats are held only while the order is still unpaid with no payment under way (re-checked in the batch).
    ...railHoldStatements(ctx.db, hotel, { sql: "?", bind: [order.id] }, priced, { sql: STILL_UNPAID, bind: [order.id, order.id] }),
    ctx.db
      .prepare(
        `UPDATE orders SET rail_amount = rail_amount + ?2, total_price = total_price + ?2, pay_amount = pay_amount + ?2, updated_at = ${NOW}
         WHERE id = ?1 AND changes() > 0 AND status = 'pending_payment' AND paid_amount = 0`,
      )
      .bind(order.id, priced.amount),
  ];
  const results = await runBatch(ctx.db, batch, "rail_item_list");
  if ((results[results.length - 1]?.meta.changes ?? 0) === 0) throw new ApiError(409, "rail_not_changeable", {}, "order_doc");
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

async function booking(ctx: BackendContext) {
  const body = parseInput(v.object(OrderBody), await readJsonBody(ctx.request));
  const { hotel, order } = await railOrder(ctx, body);
  if (order.status === "cancelled" || order.paid_amount <= 0) throw new ApiError(409, "rail_not_changeable", {}, "order_doc");
  await ctx.db.batch(railProviderFor(hotel).bookStatements(ctx.db, order.id));
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

async function changeReservation(ctx: BackendContext) {
  const body = parseInput(
    v.object({ ...OrderBody, rail_id: WholeNumber(1, 2_147_483_647), train_no: TrainNoInput, date: v.optional(DayInput) }),
    await readJsonBody(ctx.request),
  );
  const { hotel, order, rail } = await railOrder(ctx, body);
  const line = findLine(rail, body.rail_id);
  if (!isHeld(line) || order.status === "cancelled") throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  const day = body.date ?? line.day;
  const train = await requireTrain(
    ctx.db,
    { day, train_no: body.train_no, origin: line.origin_id, destination: line.destination_id },
    ctx.now,
    "train_no",
  );
  if (line.status === "reserved" && order.pay_deadline && departureInstant(day, train.departure_time).toISOString() <= order.pay_deadline) {
    throw new ApiError(409, "rail_departs_before_payment", {}, "train_no");
  }
  const same = line.train_no === body.train_no && line.day === day;
  if (!same) {
    const left = await railProviderFor(hotel).seatsLeft(ctx.db, hotel, [{ train_no: body.train_no, day }]);
    if ((left.get(seatKey({ train_no: body.train_no, day })) ?? 0) < line.seats) throw new ApiError(409, "rail_sold_out", {}, "train_no");
  }
  const results = await runBatch(
    ctx.db,
    [
      ...railProviderFor(hotel).prepareStatements(ctx.db, hotel, [{ train_no: body.train_no, day }]),
      // Only from the train the line was read on: of two sends at once, the second finds it moved and changes nothing.
      ctx.db
        .prepare(
          `UPDATE rail_reservations SET train_no = ?2, day = ?3, departure_time = ?4, arrival_time = ?5,
             pnr = CASE WHEN status = 'booked' THEN printf('%08d', abs(random()) % 100000000) ELSE pnr END, updated_at = ${NOW}
           WHERE id = ?1 AND status = ?6 AND train_no = ?7 AND day = ?8`,
        )
        .bind(line.id, body.train_no, day, train.departure_time, train.arrival_time, line.status, line.train_no, line.day),
    ],
    "train_no",
  );
  if ((results[results.length - 1]?.meta.changes ?? 0) === 0) throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

async function updateReservation(ctx: BackendContext) {
  const body = parseInput(
    v.object({ ...OrderBody, rail_id: WholeNumber(1, 2_147_483_647), passengers: PassengersInput }),
    await readJsonBody(ctx.request),
  );
  const { hotel, order, rail } = await railOrder(ctx, body);
  const line = findLine(rail, body.rail_id);
  if (line.status !== "reserved") throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  await assertAmountsMayChange(ctx.db, order);
  const passengers = body.passengers;
  const problem = passengerProblem(passengers);
  if (problem) throw new ApiError(400, problem, {}, "passengers");
  const others = rail
    .filter((row) => isHeld(row) && row.id !== line.id)
    .map((row) => ({ direction: row.direction, passengers: passengersOf(row) }));
  const limit = ticketLimitProblem([...others, { direction: line.direction, passengers }]);
  if (limit) throw new ApiError(400, "rail_too_many_tickets", limit, "passengers");
  const seats = seatsOf(passengers);
  if (seats > line.seats) {
    const left = await railProviderFor(hotel).seatsLeft(ctx.db, hotel, [line]);
    if ((left.get(seatKey(line)) ?? 0) < seats - line.seats) throw new ApiError(409, "rail_sold_out", {}, "passengers");
  }
  const fares = await loadFares(ctx.db, line.origin_id, line.destination_id);
  if (!fares) throw new ApiError(404, "rail_train_unknown", {}, "rail_id");
  const amount = railAmount(passengers, fares);
  const results = await runBatch(
    ctx.db,
    [
      ctx.db
        .prepare(
          `UPDATE rail_reservations SET adult = ?2, child = ?3, senior = ?4, disabled = ?5, seats = ?6, fares = ?7, amount = ?8, updated_at = ${NOW}
           WHERE id = ?1 AND status = 'reserved' AND amount = ?10 AND ${STILL_UNPAID.replaceAll("?", "?9")}`,
        )
        .bind(
          line.id,
          passengers.adult,
          passengers.child,
          passengers.senior,
          passengers.disabled,
          seats,
          JSON.stringify(fares),
          amount,
          order.id,
          // The amount the line was read with: of two sends at once, the second changes nothing, so the order's amounts move once.
          line.amount,
        ),
      ctx.db
        .prepare(
          `UPDATE orders SET rail_amount = rail_amount + ?2, total_price = total_price + ?2, pay_amount = pay_amount + ?2, updated_at = ${NOW}
           WHERE id = ?1 AND changes() > 0`,
        )
        .bind(order.id, amount - line.amount),
    ],
    "passengers",
  );
  if ((results[0]?.meta.changes ?? 0) === 0) throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

async function refund(ctx: BackendContext) {
  const body = parseInput(v.object({ ...OrderBody, rail_id: WholeNumber(1, 2_147_483_647) }), await readJsonBody(ctx.request));
  const { hotel, order, rail } = await railOrder(ctx, body);
  const line = findLine(rail, body.rail_id);
  if (line.status !== "booked") throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  if (departureInstant(line.day, line.departure_time).getTime() <= ctx.now.getTime())
    throw new ApiError(409, "rail_refund_closed", {}, "rail_id");
  const { fee, refund: back } = bookedLineRefund(hotel, line);
  const results = await ctx.db.batch([
    ctx.db
      .prepare(
        `UPDATE rail_reservations SET status = 'refunded', refund_fee = ?2, refund_amount = ?3, updated_at = ${NOW} WHERE id = ?1 AND status = 'booked'`,
      )
      .bind(line.id, fee, back),
    // What the order costs now: the ticket's fare out of rail_amount, the fee kept in the total.
    ctx.db
      .prepare(
        `UPDATE orders SET rail_amount = rail_amount - ?2, total_price = total_price - ?3, updated_at = ${NOW} WHERE id = ?1 AND changes() > 0`,
      )
      .bind(order.id, line.amount, back),
  ]);
  if ((results[0]?.meta.changes ?? 0) === 0) throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

async function refundReserved(ctx: BackendContext) {
  const body = parseInput(v.object({ ...OrderBody, rail_id: v.optional(WholeNumber(1, 2_147_483_647)) }), await readJsonBody(ctx.request));
  const { hotel, order, rail } = await railOrder(ctx, body);
  const lines = body.rail_id === undefined ? rail.filter((row) => row.status === "reserved") : [findLine(rail, body.rail_id)];
  if (lines.length === 0 || lines.some((row) => row.status !== "reserved")) throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  await assertAmountsMayChange(ctx.db, order);
  const amount = lines.reduce((sum, row) => sum + row.amount, 0);
  const results = await ctx.db.batch([
    ctx.db
      .prepare(
        `UPDATE rail_reservations SET status = 'released', updated_at = ${NOW}
         WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'reserved' AND ${STILL_UNPAID.replaceAll("?", "?2")}`,
      )
      .bind(JSON.stringify(lines.map((row) => row.id)), order.id),
    ctx.db
      .prepare(
        `UPDATE orders SET rail_amount = rail_amount - ?2, total_price = total_price - ?2, pay_amount = pay_amount - ?2, updated_at = ${NOW}
         WHERE id = ?1 AND changes() = ?3`,
      )
      .bind(order.id, amount, lines.length),
  ]);
  // D1 counts the rows the triggers changed too (the allotment): "none" is what tells a refusal.
  if ((results[0]?.meta.changes ?? 0) === 0) throw new ApiError(409, "rail_not_changeable", {}, "rail_id");
  return railOrderAnswer(ctx, hotel, order.order_doc);
}

export const railRoutes: BackendRoute[] = [
  { method: "GET", path: "/api/xtra/rail/train_availability", handler: trainAvailability },
  { method: "GET", path: "/api/xtra/rail/next_avail_booking_date", handler: nextAvailBookingDate },
  { method: "GET", path: "/api/xtra/rail/query_trial_fare", handler: trialFare },
  { method: "POST", path: "/api/xtra/rail/reservation", handler: reservation },
  { method: "POST", path: "/api/xtra/rail/booking", handler: booking },
  { method: "POST", path: "/api/xtra/rail/change_reservation", handler: changeReservation },
  { method: "POST", path: "/api/xtra/rail/update_reservation", handler: updateReservation },
  { method: "POST", path: "/api/rail/refund", handler: refund },
  { method: "POST", path: "/api/rail/refund_reserved", handler: refundReserved },
];
