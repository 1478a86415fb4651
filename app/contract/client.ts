/**
 * HotelApi: the one typed client of the hotel API contract (spec §7). Routes get it from the load
 * context. By default it dispatches in-process to the built-in back end (no network hop); with
 * HOTEL_API_ORIGIN set it talks to an existing back end over HTTP. Every answer is validated.
 */
import * as v from "valibot";
import type { Language } from "~/i18n/languages";
import { answerText, answerValue } from "~/contract/answers";
import { CONTENT_READS, KeptAnswers } from "~/contract/content-reads";
import type { PaymentMethod } from "~/domain/payments";
import { repayConfig } from "~/domain/master-order";
import {
  AccessTokenSchema,
  OAuthErrorSchema,
  OneTapSchema,
  PmsTokenSchema,
  AttachmentSchema,
  CalendarDaySchema,
  CouponSchema,
  CaptchaPassSchema,
  CaptchaTriggerSchema,
  CreatedOrderSchema,
  FacilitySchema,
  FailureSchema,
  HotelInfoSchema,
  LegacyPriceSchema,
  MemberProfileSchema,
  MenuSchema,
  OrderHistorySchema,
  OrderSchema,
  PaymentStartSchema,
  MasterOrderSchema,
  RepayConfigSchema,
  PreferencesSchema,
  PriceDetailSchema,
  PromotionSchema,
  PromotionTypeSchema,
  RoomClassSchema,
  SearchSchema,
  SisterHotelSchema,
  SpecialRatePlanSchema,
  envelope,
  type Order,
  type PriceDetail,
} from "./schemas";
import {
  RailAvailabilitySchema,
  RailNextDateSchema,
  RailOrderSchema,
  RailTrialFareSchema,
  type RailFareType,
  type RailItemInput,
  type RailPassengers,
  type RailQuery,
} from "./rail";
import {
  AddonBatchSchema,
  AddonInventorySchema,
  AddonItemSchema,
  AddonListSchema,
  OrderAddonListSchema,
  type AddonChoiceInput,
} from "./addons";

/** Sends one request to the back end and returns its response. */
export type Transport = (request: Request) => Promise<Response>;

/** The back end answered `success: false`, or answered something that breaks the contract. */
export class HotelApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** The `data` a failure carried, unvalidated (most failures carry none). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "HotelApiError";
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  /**
   * The back end could not answer: it is down, slower than the timeout, answered garbage or failed
   * on its side (a 5xx). The guest can only try again later.
   */
  get isUnavailable(): boolean {
    return this.status >= 500;
  }
}

/** A refused price check that still says which lines failed: `detail.lines[n].error`. */
export class PriceCheckError extends HotelApiError {
  constructor(
    error: HotelApiError,
    readonly detail: PriceDetail,
  ) {
    super(error.status, error.code, error.message, error.field, error.data);
    this.name = "PriceCheckError";
  }
}

export interface HotelApiOptions {
  transport: Transport;
  /** Origin used to build request URLs (the back end's, or the site's own for in-process calls). */
  origin: string;
  /** The spec's {master} base URL; by default `${origin}/master`, where the built-in back end serves it. */
  masterBase?: string;
  /** The spec's {account} base URL (sign-in); by default `${origin}/account`. */
  accountBase?: string;
  /** The spec's {pms} base URL (the hotel-scoped token); by default `${origin}/pms`. */
  pmsBase?: string;
  domain: string;
  lang: Language;
  memberToken?: string | null;
  /** Told of every call the back end could not answer (HotelApiError.isUnavailable), before it is thrown. */
  onUnavailable?: (error: HotelApiError, path: string) => void;
}

/** Content answers this instance read, as validated (decision 130). */
const keptAnswers = new KeptAnswers();

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

export class HotelApi {
  constructor(private readonly options: HotelApiOptions) {}

  get domain(): string {
    return this.options.domain;
  }

  get lang(): Language {
    return this.options.lang;
  }

  /** A client for the same hotel in another language. */
  withLanguage(lang: Language): HotelApi {
    return new HotelApi({ ...this.options, lang });
  }

  /** A client that sends the member's token (mem_token). */
  withMemberToken(memberToken: string | null): HotelApi {
    return new HotelApi({ ...this.options, memberToken });
  }

  /**
   * The URL of a contract path: `/api/…` on the back end's origin, `{master}/…`, `{account}/…` and
   * `{pms}/…` on the spec's bases of those names.
   */
  url(path: string): URL {
    const service = /^\{(master|account|pms)\}\//.exec(path)?.[1] as "master" | "account" | "pms" | undefined;
    if (!service) return new URL(path, this.options.origin);
    const base = this.options[`${service}Base`] ?? `${this.options.origin}/${service}`;
    return new URL(`${base.replace(/\/+$/, "")}${path.slice(service.length + 2)}`);
  }

  protected async call<TSchema extends v.GenericSchema>(
    schema: TSchema,
    method: "GET" | "POST",
    path: string,
    {
      query = {},
      body,
      headers = {},
      form,
      oauth = false,
    }: {
      query?: Query;
      body?: unknown;
      headers?: Record<string, string>;
      /** A form body (application/x-www-form-urlencoded) instead of JSON. */
      form?: Record<string, string>;
      /** An OAuth endpoint: RFC 6749 §5 answers (a bare token or `{ error }`) are read as well as the envelope. */
      oauth?: boolean;
    } = {},
  ): Promise<v.InferOutput<TSchema>> {
    const url = this.url(path);
    url.searchParams.set("lang", this.options.lang);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    const requestHeaders = new Headers({ accept: "application/json", ...headers });
    if (this.options.memberToken) requestHeaders.set("authorization", `Bearer ${this.options.memberToken}`);
    let requestBody: string | undefined;
    if (form !== undefined) {
      requestHeaders.set("content-type", "application/x-www-form-urlencoded");
      requestBody = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      requestHeaders.set("content-type", "application/json");
      requestBody = JSON.stringify(body);
    }
    try {
      return await this.send(schema, path, new Request(url, { method, headers: requestHeaders, body: requestBody }), oauth);
    } catch (error) {
      if (error instanceof HotelApiError && error.isUnavailable) this.options.onUnavailable?.(error, path);
      throw error;
    }
  }

  private async send<TSchema extends v.GenericSchema>(
    schema: TSchema,
    path: string,
    request: Request,
    oauth = false,
  ): Promise<v.InferOutput<TSchema>> {
    let response: Response;
    try {
      response = await this.options.transport(request);
    } catch (error) {
      // No answer at all: connection refused or lost, DNS, or the transport's timeout.
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new HotelApiError(
        timedOut ? 504 : 503,
        timedOut ? "backend_timeout" : "backend_unreachable",
        `The hotel back end did not answer ${path}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      );
    }
    // A content read's answer: what the client read from this very text before, if it kept it.
    const keeps = request.method === "GET" && response.status === 200 && CONTENT_READS.has(path);
    let text = "";
    let json: unknown;
    // The built-in back end in process hands its answer over as a value, not as text (decision 131).
    const handedOver = keeps ? undefined : answerValue(response);
    try {
      if (handedOver) json = handedOver.value;
      else if (keeps) {
        text = await answerText(response);
        const kept = keptAnswers.get(path, text);
        if (kept) return kept.value as v.InferOutput<TSchema>;
        json = JSON.parse(text);
      } else json = await response.json();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      if (timedOut) throw new HotelApiError(504, "backend_timeout", `The hotel back end did not finish answering ${path} in time`);
      // Garbage (an HTML error page, a proxy's text) is never the contract, whatever its status.
      throw new HotelApiError(
        response.status >= 500 ? response.status : 502,
        "bad_response",
        `The hotel back end did not answer ${path} with JSON (HTTP ${response.status})`,
      );
    }
    const failure = v.safeParse(FailureSchema, json);
    if (failure.success) {
      const msg = failure.output.msg;
      throw new HotelApiError(
        response.ok ? 400 : response.status,
        String(msg?.code ?? "error"),
        msg?.extrainfo?.message || msg?.message || "",
        msg?.extrainfo?.field,
        failure.output.data ?? undefined,
      );
    }
    if (oauth) {
      // RFC 6749 §5.2: `{ error, error_description }`, usually with 400 or 401.
      const refused = v.safeParse(OAuthErrorSchema, json);
      if (refused.success) {
        throw new HotelApiError(response.ok ? 400 : response.status, refused.output.error, refused.output.error_description ?? "");
      }
      // RFC 6749 §5.1: the token answer itself, from any OAuth server (the old envelope is read below).
      const bare = response.ok ? v.safeParse(schema, json) : null;
      if (bare?.success) return bare.output as v.InferOutput<TSchema>;
    }
    const parsed = v.safeParse(envelope(schema), json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      throw new HotelApiError(
        502,
        "bad_response",
        `The hotel back end answered ${path} with an unexpected shape at ${issue ? v.getDotPath(issue) : "?"}`,
      );
    }
    const data = parsed.output.data as v.InferOutput<TSchema>;
    return keeps ? keptAnswers.set(path, text, data) : data;
  }

  private get hotel() {
    return { domain: this.options.domain };
  }

  // Hotel content

  /** GET /api/hotel/info */
  hotelInfo() {
    return this.call(HotelInfoSchema, "GET", "/api/hotel/info", { query: this.hotel });
  }

  /** GET /api/custom/menu (an item that does not parse is null) */
  menu(menuCode = "main") {
    return this.call(MenuSchema, "GET", "/api/custom/menu", { query: { ...this.hotel, menu_code: menuCode } });
  }

  /** GET /api/facility/get_all (by priority) */
  facilities() {
    return this.call(v.array(FacilitySchema), "GET", "/api/facility/get_all", { query: this.hotel });
  }

  /** GET /api/promotion/all_types */
  promotionTypes(includeDeleted = false) {
    return this.call(v.array(PromotionTypeSchema), "GET", "/api/promotion/all_types", {
      query: { ...this.hotel, del: includeDeleted ? 1 : 0 },
    });
  }

  /** GET /api/promotion/info */
  promotion(promotionId: number) {
    return this.call(PromotionSchema, "GET", "/api/promotion/info", { query: { ...this.hotel, promotion_id: promotionId } });
  }

  /** GET /api/promotion/actives (newest public time first) */
  activePromotions(options: { limit?: number; indexOnly?: boolean } = {}) {
    return this.actives("/api/promotion/actives", options);
  }

  /** GET /api/announcement/actives: the hotel's news */
  activeAnnouncements(options: { limit?: number; indexOnly?: boolean } = {}) {
    return this.actives("/api/announcement/actives", options);
  }

  /** GET /api/attraction/actives */
  activeAttractions(options: { limit?: number; indexOnly?: boolean } = {}) {
    return this.actives("/api/attraction/actives", options);
  }

  private actives(path: string, { limit, indexOnly }: { limit?: number; indexOnly?: boolean }) {
    return this.call(v.array(PromotionSchema), "GET", path, {
      query: { ...this.hotel, limit, index_only: indexOnly ? 1 : undefined },
    });
  }

  /** GET /api/hotel/list_by_tag: sister hotels */
  hotelsByTag(tag?: string) {
    return this.call(v.array(SisterHotelSchema), "GET", "/api/hotel/list_by_tag", { query: { ...this.hotel, tag } });
  }

  /** GET {master}/hotels/preferences */
  preferences() {
    return this.call(PreferencesSchema, "GET", "{master}/hotels/preferences", { query: this.hotel });
  }

  // Rooms and availability

  /** GET /api/ota/room/list */
  rooms() {
    return this.call(v.array(RoomClassSchema), "GET", "/api/ota/room/list", { query: this.hotel });
  }

  /** GET /api/ota/room/empty-by-date */
  search(start: string, end: string) {
    return this.call(SearchSchema, "GET", "/api/ota/room/empty-by-date", {
      query: { ...this.hotel, start_date: start, end_date: end },
    });
  }

  /** GET /api/ota/room/rateplan/empty-by-date: the special rate plans (data.rateplan_info) */
  async specialRatePlans(start: string, end: string) {
    const data = await this.call(
      v.object({ rateplan_info: v.array(SpecialRatePlanSchema) }),
      "GET",
      "/api/ota/room/rateplan/empty-by-date",
      {
        query: { ...this.hotel, start_date: start, end_date: end },
      },
    );
    return data.rateplan_info;
  }

  /** GET /api/wota/room_calendar: date and lowest price per night (room_class_ids repeated) */
  roomCalendar(start: string, end: string, roomClassIds: readonly number[]) {
    return this.call(v.array(CalendarDaySchema), "GET", "/api/wota/room_calendar", {
      query: { ...this.hotel, start_date: start, end_date: end, room_class_ids: roomClassIds },
    });
  }

  // Members

  /** GET /api/member/profile: the member named by the token; 401 when the back end does not accept it. */
  memberProfile() {
    return this.call(MemberProfileSchema, "GET", "/api/member/profile", { query: this.hotel });
  }

  // Login (spec §7)

  /**
   * POST {account}/oauth/token: an authorization code (with its PKCE verifier) for a member token,
   * as RFC 6749 §4.1.3 asks (a form, client_secret_post as spec §7 sends it). Any OAuth server's
   * answer is read (§5.1, §5.2 errors as HotelApiError with the `error` as code), and the site
   * envelope of older account services too. Decision 050.
   */
  exchangeCode(input: { client_id: string; client_secret: string; redirect_uri: string; code: string; code_verifier: string }) {
    // The client authenticates with its secret; a signed-in browser's member token is not sent along.
    return this.withMemberToken(null).call(AccessTokenSchema, "POST", "{account}/oauth/token", {
      form: { grant_type: "authorization_code", ...input },
      oauth: true,
    });
  }

  /** POST {account}/api/v1/onetap (body client and token, Bearer): who a member token names. */
  oneTap(client: string, memberToken: string) {
    return this.withMemberToken(memberToken).call(OneTapSchema, "POST", "{account}/api/v1/onetap", {
      body: { client, token: memberToken },
    });
  }

  /** POST {pms}/oauth/token/exchange (hotel_id, Bearer): the member token for a token valid at this hotel only. */
  exchangeForHotel(hotelId: number, memberToken: string) {
    return this.withMemberToken(memberToken).call(PmsTokenSchema, "POST", "{pms}/oauth/token/exchange", { body: { hotel_id: hotelId } });
  }

  /** POST {account}/oauth/revoke (Bearer): ends the member token, its hotel tokens and its sign-in session. */
  revokeMemberToken(memberToken: string) {
    return this.withMemberToken(memberToken).call(v.object({ revoked: v.boolean() }), "POST", "{account}/oauth/revoke", { body: {} });
  }

  // Pricing and coupons

  /** POST /api/ota/order/calculate (price check v2) */
  async calculate(input: PriceCheckInput) {
    try {
      return await this.call(PriceDetailSchema, "POST", "/api/ota/order/calculate", { body: { ...this.hotel, ...input } });
    } catch (error) {
      // A line problem still comes with the price detail, each line with its own error (api.md).
      const detail = error instanceof HotelApiError ? v.safeParse(PriceDetailSchema, error.data) : null;
      if (error instanceof HotelApiError && detail?.success) throw new PriceCheckError(error, detail.output);
      throw error;
    }
  }

  /** POST /api/discount/calculate (legacy price check) */
  legacyCalculate(input: LegacyPriceCheckInput) {
    return this.call(LegacyPriceSchema, "POST", "/api/discount/calculate", { body: { ...this.hotel, ...input } });
  }

  /** POST /api/discount/coupon_confirm */
  confirmCoupon(input: { coupon_code: string[]; check_in_date: string; check_out_date: string; room_code?: string }) {
    return this.call(v.array(CouponSchema), "POST", "/api/discount/coupon_confirm", { body: { ...this.hotel, ...input } });
  }

  // Orders

  /**
   * POST /api/ota/order/personal-new. Never throws for a refused order: the result carries the
   * error and order_doc "error-order" (spec §8).
   */
  async createOrder(payload: OrderPayload, idempotencyKey: string): Promise<CreateOrderResult> {
    try {
      const created = await this.call(CreatedOrderSchema, "POST", "/api/ota/order/personal-new", {
        body: { ...payload, domain: this.options.domain, booking_from: "HXA" },
        headers: { "idempotency-key": `"${idempotencyKey}"` },
      });
      return { ok: true, ...created };
    } catch (error) {
      if (error instanceof HotelApiError) return { ok: false, order_doc: ERROR_ORDER_DOC, error };
      throw error;
    }
  }

  /** POST /api/captcha/trigger: whether this guest needs a challenge for `action` now, and one when so (decision 070). */
  captchaTrigger(action: string, subject: { email?: string; phone?: string } = {}) {
    return this.call(CaptchaTriggerSchema, "POST", "/api/captcha/trigger", { body: { ...subject, action, domain: this.options.domain } });
  }

  /** POST /api/captcha/verify: a pass for a right answer; a refusal carries a new challenge in its `data`. */
  captchaVerify(action: string, token: string, answer: string) {
    return this.call(CaptchaPassSchema, "POST", "/api/captcha/verify", { body: { action, token, answer, domain: this.options.domain } });
  }

  /** GET /api/ota/order/personal-order-list (the member's orders) */
  memberOrders(filters: { order_doc?: string; status?: string } = {}) {
    return this.call(v.array(OrderSchema), "GET", "/api/ota/order/personal-order-list", { query: { ...this.hotel, ...filters } });
  }

  /** GET /api/ota/order/personal-history */
  orderHistory(hashCode: string) {
    return this.call(OrderHistorySchema, "GET", "/api/ota/order/personal-history", { query: { ...this.hotel, hash_code: hashCode } });
  }

  /** GET /api/ota/order/via-hash */
  orderViaHash(validHash: string) {
    return this.call(OrderSchema, "GET", "/api/ota/order/via-hash", { query: { ...this.hotel, valid_hash: validHash } });
  }

  /** POST /api/wota/order/cancel_apply/{id} (the member's own order) */
  cancelOrder(orderDoc: string, reason = "") {
    return this.call(OrderSchema, "POST", `/api/wota/order/cancel_apply/${encodeURIComponent(orderDoc)}`, {
      body: { ...this.hotel, reason },
    });
  }

  /** POST /api/wota/order/cancel-via-hash/{id} */
  cancelOrderViaHash(orderDoc: string, validHash: string, reason = "") {
    return this.call(OrderSchema, "POST", `/api/wota/order/cancel-via-hash/${encodeURIComponent(orderDoc)}`, {
      body: { ...this.hotel, valid_hash: validHash, reason },
    });
  }

  /** POST /api/payment/start: a payment attempt for what the order owes now (docs/decisions/031). */
  startPayment(input: { order_doc: string; valid_hash: string; return_path: string; payment_vendor?: number }) {
    return this.call(PaymentStartSchema, "POST", "/api/payment/start", { body: { ...this.hotel, ...input } });
  }

  /** GET /api/order/master/{id}: the master-system order (spec §3). */
  masterOrder(orderDoc: string, validHash: string) {
    return this.call(MasterOrderSchema, "GET", `/api/order/master/${encodeURIComponent(orderDoc)}`, {
      query: { ...this.hotel, valid_hash: validHash },
    });
  }

  /**
   * GET {master}/payment/config: the repay configuration of this hotel (spec §7): its master-system
   * id and the §9 payment ids it takes. Without the hotel's domain it cannot be asked: spec §8's
   * MasterDomainMissingError, before any request.
   */
  repayConfig() {
    const { domain } = repayConfig(this.hotel.domain);
    return this.call(RepayConfigSchema, "GET", "{master}/payment/config", { query: { domain } });
  }

  /** POST {master}/payment: pay an unpaid or part-paid order (again) with a §9 payment id (FEATURE_REPAY). */
  repay(input: {
    payment_id: number;
    booking_number: string;
    email: string;
    deposit: boolean;
    return_url: string;
    hotel_id: number;
    type_id?: number;
  }) {
    return this.call(PaymentStartSchema, "POST", "{master}/payment", { body: input });
  }

  // High-speed rail (docs/api.md "Rail"). The order calls take the order's cancel link hash, or the member's token.

  private railPassengers(passengers: Partial<Record<RailFareType, number>> = {}) {
    return {
      adult: passengers.adult ?? 0,
      child: passengers.child ?? 0,
      senior: passengers.senior ?? 0,
      disabled: passengers.disabled ?? 0,
    };
  }

  /** GET /api/xtra/rail/train_availability: the trains of a date between two stations, seats left and fares. */
  railTrainAvailability(input: RailQuery & { date: string; time?: string }) {
    return this.call(RailAvailabilitySchema, "GET", "/api/xtra/rail/train_availability", {
      query: {
        ...this.hotel,
        date: input.date,
        origin: input.origin,
        destination: input.destination,
        time: input.time,
        ...this.railPassengers(input.passengers ?? { adult: 1 }),
      },
    });
  }

  /** GET /api/xtra/rail/next_avail_booking_date: the first date from `date` with a bookable train, the booking window and the stations. */
  railNextAvailBookingDate(input: { origin?: string; destination?: string; date?: string; seats?: number } = {}) {
    return this.call(RailNextDateSchema, "GET", "/api/xtra/rail/next_avail_booking_date", { query: { ...this.hotel, ...input } });
  }

  /** GET /api/xtra/rail/query_trial_fare: what the passengers pay between two stations. */
  railTrialFare(input: RailQuery) {
    return this.call(RailTrialFareSchema, "GET", "/api/xtra/rail/query_trial_fare", {
      query: {
        ...this.hotel,
        origin: input.origin,
        destination: input.destination,
        ...this.railPassengers(input.passengers ?? { adult: 1 }),
      },
    });
  }

  /** POST /api/xtra/rail/reservation: holds tickets for an unpaid order, adding their fares to it. */
  railReserve(orderDoc: string, cancelHash: string | undefined, items: RailItemInput[]) {
    return this.railOrderCall("/api/xtra/rail/reservation", orderDoc, cancelHash, { rail_item_list: items });
  }

  /** POST /api/xtra/rail/booking: books (PNR, booking number) the reserved tickets of a paid order; payment does it by itself. */
  railBook(orderDoc: string, cancelHash?: string) {
    return this.railOrderCall("/api/xtra/rail/booking", orderDoc, cancelHash, {});
  }

  /** POST /api/xtra/rail/change_reservation: moves one line to another train (same stations and passengers). */
  railChangeReservation(orderDoc: string, cancelHash: string | undefined, change: { rail_id: number; train_no: string; date?: string }) {
    return this.railOrderCall("/api/xtra/rail/change_reservation", orderDoc, cancelHash, change);
  }

  /** POST /api/xtra/rail/update_reservation: changes the passengers of a reserved (unpaid) line. */
  railUpdateReservation(
    orderDoc: string,
    cancelHash: string | undefined,
    update: { rail_id: number; passengers: Partial<RailPassengers> },
  ) {
    return this.railOrderCall("/api/xtra/rail/update_reservation", orderDoc, cancelHash, update);
  }

  /** POST /api/rail/refund: refunds a booked line before departure, less the handling fee per ticket. */
  railRefund(orderDoc: string, cancelHash: string | undefined, railId: number) {
    return this.railOrderCall("/api/rail/refund", orderDoc, cancelHash, { rail_id: railId });
  }

  /** POST /api/rail/refund_reserved: gives back reserved (unpaid) lines, one or (without rail_id) all. */
  railRefundReserved(orderDoc: string, cancelHash: string | undefined, railId?: number) {
    return this.railOrderCall("/api/rail/refund_reserved", orderDoc, cancelHash, { rail_id: railId });
  }

  private railOrderCall(path: string, orderDoc: string, cancelHash: string | undefined, body: Record<string, unknown>) {
    return this.call(RailOrderSchema, "POST", path, { body: { ...this.hotel, order_doc: orderDoc, valid_hash: cancelHash, ...body } });
  }

  // Add-ons beyond the order's own (docs/api.md "Add-ons"; decision 124).

  /** GET /api/xtra/adds/list: the hotel's items, only those of these plans when given. */
  addonList(proposalIds: readonly number[] = []) {
    return this.call(AddonListSchema, "GET", "/api/xtra/adds/list", { query: { ...this.hotel, proposal_id: [...proposalIds] } });
  }

  /** GET /api/xtra/adds/list with an order: what its plans offer, on which lines, what it has, what is left (view or cancel link, or the member). */
  orderAddonList(orderDoc: string, validHash?: string) {
    return this.call(OrderAddonListSchema, "GET", "/api/xtra/adds/list", {
      query: { ...this.hotel, order_doc: orderDoc, valid_hash: validHash },
    });
  }

  /** GET /api/xtra/adds/date/inventory: what is left of the hotel's items (only these, when given) on each day from `start` up to `end`. */
  addonInventory(start: string, end: string, addsIds: readonly number[] = []) {
    return this.call(AddonInventorySchema, "GET", "/api/xtra/adds/date/inventory", {
      query: { ...this.hotel, start_date: start, end_date: end, adds_id: [...addsIds] },
    });
  }

  /** GET /api/xtra/adds/{serial}: one item by its code (or adds_id). */
  addon(serial: string) {
    return this.call(AddonItemSchema, "GET", `/api/xtra/adds/${encodeURIComponent(serial)}`, { query: this.hotel });
  }

  /** POST /api/xtra/adds/batch/booking: books add-ons onto an unpaid order (its cancel link hash, or the member's token). */
  addonBatchBooking(orderDoc: string, cancelHash: string | undefined, choices: AddonChoiceInput[], seenAttachments?: number) {
    return this.call(AddonBatchSchema, "POST", "/api/xtra/adds/batch/booking", {
      body: {
        ...this.hotel,
        order_doc: orderDoc,
        valid_hash: cancelHash,
        room_attachment_detail: choices,
        seen_attachments: seenAttachments,
      },
    });
  }

  /** POST /api/ota/order/attachment */
  orderAttachments(orderDoc: string, validHash?: string) {
    return this.call(AttachmentSchema, "POST", "/api/ota/order/attachment", {
      body: { ...this.hotel, order_doc: orderDoc, valid_hash: validHash },
    });
  }
}

/** The order_doc a failed order creation yields (spec §8). */
export const ERROR_ORDER_DOC = "error-order";

export interface OrderLineInput {
  room_class_id: number;
  proposal_id: number;
  num: number;
}

export interface PriceCheckInput {
  check_in_day: string;
  check_out_day: string;
  orders: OrderLineInput[];
  coupon_code?: string;
  point_used?: number;
  pay_option?: "all" | "part";
  /** Add-on choices (docs/api.md "Add-ons") and the party they are for. */
  room_attachment_detail?: { adds_id: number; quantity: number; child_quantity: number; room_index?: number }[];
  /** Rail tickets to price (docs/api.md "Rail"). */
  rail_item_list?: RailItemInput[];
  adults_count?: number;
  children_count?: number;
}

export interface LegacyPriceCheckInput {
  check_in: string;
  check_out: string;
  coupon_code?: string;
  plans: { rate_plan_code: string; inv_type_code: string; date_and_amount: { date: string; amount: number }[] }[];
  use_point?: number;
  use_deposit?: boolean;
  /** The signed-in member the price is for (spec §7); left out for a guest. */
  member?: { user_email: string; user_point: number };
}

/** The order payload of spec §3 (domain and booking_from are added by the client). */
export interface OrderPayload {
  booker_first_name: string;
  booker_last_name: string;
  booker_name?: string;
  booker_phone: string;
  booker_email: string;
  check_in_day: string;
  check_out_day: string;
  pay_way: PaymentMethod;
  payment_vendor: number;
  pay_option?: "all" | "part";
  memo?: string;
  company_reg_number?: string;
  company_name?: string;
  point_used?: number;
  coupon_array?: string[];
  orders: (OrderLineInput & { memo?: string; occupant_name?: string; occupant_phone?: string; occupant_email?: string })[];
  rail_item_list?: RailItemInput[];
  room_attachment_detail?: unknown[];
  room_attachment_exist?: boolean;
  adults_count: number;
  children_count: number;
  /** A pass of captchaVerify for "order", when the back end asked for one (decision 072). */
  captcha_pass?: string;
}

export type CreateOrderResult =
  | { ok: true; order_doc: string; redirect_path: string; order: Order }
  | { ok: false; order_doc: typeof ERROR_ORDER_DOC; error: HotelApiError };
