import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { bookingResultsPage, cartAction } from "~/features/booking/booking-results.server";
import { lodgingUnit, unitKey } from "~/domain/units";
import { CartPanel } from "~/features/booking/CartPanel";
import { Filters } from "~/features/booking/Filters";
import { PlanItem, useAddForms } from "~/features/booking/PlanItem";
import { SearchForm } from "~/features/booking/SearchForm";
import { CalendarButton, StayCalendar, type CalendarLinks } from "~/features/booking/StayCalendar";
import { stayRuleText } from "~/features/booking/stay-rule-text";
import { focusFirstInvalid, useSubmissionDone } from "~/ui/forms";
import { LocaleLink } from "~/ui/LocaleLink";
import { Picture } from "~/ui/Picture";
import { useSite } from "~/ui/site-data";
import { formatCapacity, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";

/**
 * Booking pages hydrate: the same forms, enhanced with pending states and no reloads. Their HTML
 * carries the words of these components only (decision 144).
 */
export const handle = { hydrate: true, booking: true, words: ["booking", "search", "filters", "cart", "facility:", "calendar:"] };

export const loader = (args: LoaderFunctionArgs) => bookingResultsPage(args);
export const action = (args: ActionFunctionArgs) => cartAction(args);

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: data.title }, { name: "robots", content: "noindex" }] : [];

export default function BookingPage() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A refusal about the cart carries the cart as the server holds it: the message and the cart
  // beside it agree, even in a tab opened before another changed the cart (issue 25 item 18).
  const data = actionData && "cart" in actionData && actionData.cart ? { ...loaded, cart: actionData.cart } : loaded;
  const site = useSite();
  const { t } = useTranslation();
  const navigation = useNavigation();
  // A link's navigation, or a day picked on the calendar (its forms'): the results are being read again.
  const searching = navigation.state === "loading" && (navigation.formMethod === undefined || navigation.formData?.has("pick") === true);
  const lang = site?.lang ?? "zh-TW";
  const main = useRef<HTMLElement>(null);
  const [announcement, setAnnouncement] = useState("");
  const unit = lodgingUnit(site?.hotel.kind);
  const addForms = useAddForms();
  // The calendar as a date-picker dialog (with JavaScript): closing it gives focus back to its button.
  const [calendarOpen, setCalendarOpen] = useState(false);
  const calendarButton = useRef<HTMLButtonElement>(null);
  const closeCalendar = () => {
    setCalendarOpen(false);
    calendarButton.current?.focus();
  };
  const view = data.calendar;
  // Every day and month of the calendar keeps the party and the filters of the results, so the stay
  // it searches is shown as the calendar priced it.
  const carry = calendarFields(data.search, data.filters);
  const query = carry.map(([name, value]) => `${name}=${value}`).join("&");
  const calendarLinks: CalendarLinks = {
    month: (month) => `?${query}&cal=${month}${view.pick ? `&pick=${view.pick}` : ""}#stay-calendar`,
    fields: carry,
    chosenEnd: view.pick === data.search.start ? data.search.end : undefined,
  };
  // With JavaScript the page is not reloaded, so it says what changed and takes the guest on:
  // to the first field to fix, to the refusal, or to the cart's next step (decision 021).
  useSubmissionDone((submitted) => {
    const intent = submitted.get("intent");
    // A check-in picked on the calendar is no search: its hint says what comes next (a check-out is one).
    if (submitted.has("pick") && !submitted.has("end")) return;
    if (intent === null) {
      // A search: the results changed in place, so the page says how many there are (issue 25 item 20).
      const invalid = Object.keys(data.errors).length > 0;
      setAnnouncement(
        invalid
          ? ""
          : data.stayRule
            ? t("booking.rule.notice", { rule: stayRuleText(t, data.stayRule, lang) })
            : data.rooms.length === 0
              ? t(unitKey("booking.no_rooms", unit))
              : t("booking.found", { count: data.rooms.length }),
      );
      focusFirstInvalid(main.current?.querySelector<HTMLFormElement>(".booking-search"));
      return;
    }
    if (actionData && "error" in actionData) {
      setAnnouncement("");
      document.getElementById("booking-alert")?.focus();
      return;
    }
    const total = formatPrice(data.cart.totals.price, lang);
    const line = data.cart.lines.find(
      (candidate) =>
        String(candidate.room_class_id) === submitted.get("room_class_id") &&
        String(candidate.proposal_id) === submitted.get("proposal_id"),
    );
    if (data.cart.lines.length === 0) setAnnouncement(t("cart.announce.emptied"));
    else if (intent === "add" && line) {
      setAnnouncement(
        t("cart.announce.added", {
          item: `${line.roomName} · ${line.planName}`,
          rooms: t(unitKey("cart.rooms", unit), { count: line.num }),
          total,
        }),
      );
    } else setAnnouncement(t("cart.announce.removed", { total }));
    (document.getElementById(intent === "add" ? "cart-checkout" : "cart-heading") ?? document.getElementById("cart-heading"))?.focus();
  });
  return (
    <main id="main" ref={main} className={`page booking-page booking booking--${site?.layout.booking ?? "booking_100"}`}>
      <h1>{t(unitKey("booking.title", unit))}</h1>
      <SearchForm data={data}>
        <CalendarButton open={calendarOpen} onOpen={() => setCalendarOpen(true)} button={calendarButton} />
      </SearchForm>
      <StayCalendar view={view} lang={lang} links={calendarLinks} dialog={{ open: calendarOpen, close: closeCalendar }} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {actionData && "error" in actionData ? (
        <p className="alert alert--danger" id="booking-alert" tabIndex={-1} role="alert">
          {t(actionData.error, actionData.max === undefined ? undefined : { max: actionData.max })}
        </p>
      ) : null}
      <div className="booking-layout">
        <div className="booking-results" aria-busy={searching || undefined} onSubmit={addForms.onSubmit}>
          <Filters data={data} />
          <h2 className="booking-results__heading">{t(unitKey("booking.results_heading", unit))}</h2>
          {Object.keys(data.errors).length === 0 && data.rooms.length === 0 ? <p>{t(unitKey("booking.no_rooms", unit))}</p> : null}
          {data.stayRule ? (
            <p className="alert booking-results__notice" role="status" id="booking-stay-rule">
              {t("booking.rule.notice", { rule: stayRuleText(t, data.stayRule, lang) })}
            </p>
          ) : null}
          {data.shortfall === "rooms" ? (
            <p className="alert booking-results__notice" role="status">
              {t(unitKey("booking.short_rooms", unit), { count: data.search.room })}
            </p>
          ) : data.shortfall === "capacity" ? (
            <p className="alert booking-results__notice" role="status">
              {t(unitKey("booking.short_capacity", unit))}
            </p>
          ) : null}
          {data.rooms.map((room, index) => (
            <section key={room.room_class_id} className="booking-room" aria-labelledby={`room-${room.room_class_id}`}>
              <div className="booking-room__head">
                {room.photo ? <Picture image={room.photo} priority={index === 0} className="booking-room__photo" /> : null}
                <div>
                  <h3 id={`room-${room.room_class_id}`}>
                    <LocaleLink to={`/room/${room.room_class_id}`}>{room.room_class_name}</LocaleLink>
                  </h3>
                  <p className="booking-room__facts">
                    {formatCapacity(t, room.people, room.children)}
                    {room.square_meters ? ` · ${t("room.size", { size: room.square_meters })}` : ""}
                  </p>
                </div>
              </div>
              {room.price_set.length === 0 ? (
                <p className="booking-room__none">{room.stay_rule ? stayRuleText(t, room.stay_rule, lang) : t("booking.sold_out")}</p>
              ) : (
                <ul className="plan-list">
                  {room.price_set.map((plan) => (
                    <PlanItem key={plan.proposal_id} data={data} roomId={room.room_class_id} plan={plan} forms={addForms} />
                  ))}
                </ul>
              )}
            </section>
          ))}
          {data.complementary.length > 0 ? (
            <section className="booking-complementary">
              <h2>{t("filters.complementary")}</h2>
              <ul className="plan-list">
                {data.complementary.map(({ room, plan }) => (
                  <PlanItem
                    key={`${room.room_class_id}-${plan.proposal_id}`}
                    data={data}
                    roomId={room.room_class_id}
                    roomName={room.room_class_name}
                    plan={plan}
                    forms={addForms}
                  />
                ))}
              </ul>
            </section>
          ) : null}
        </div>
        <CartPanel data={data} />
      </div>
    </main>
  );
}

/** The party and the results' filters, as the calendar's forms and links carry them. */
function calendarFields(
  search: { room: number; adults: number; children: number },
  filters: { rooms: number[]; plans: number[]; facilities: string[]; meals: boolean },
): [string, string][] {
  return [
    ["room", String(search.room)],
    ["adults", String(search.adults)],
    ["children", String(search.children)],
    ...filters.rooms.map((id): [string, string] => ["room_id", String(id)]),
    ...filters.plans.map((id): [string, string] => ["plan", String(id)]),
    ...filters.facilities.map((key): [string, string] => ["facility", key]),
    ...(filters.meals ? [["meals", "1"] as [string, string]] : []),
  ];
}
