import { Link, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { useTranslation } from "~/i18n/react";
import { dateTimeFormat, formatDate, formatMonth, formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { addDays, addMonths, dayOfWeek } from "~/domain/dates";
import { useHydrated } from "~/ui/forms";
import type { StayCalendarCheckOut, StayCalendarDay } from "~/contract/stay-calendar-schemas";
import type { CalendarView } from "./calendar.server";

/** Where the calendar's links go: the booking page keeps its state in its own address, a room page sends each day to the booking page. */
export interface CalendarLinks {
  month: (month: string) => string;
  checkIn: (day: StayCalendarDay) => string;
  checkOut: (entry: StayCalendarCheckOut, pick: string) => string;
  /** The check-out of the stay searched from `pick`, shown as chosen. */
  chosenEnd?: string;
}

/** With JavaScript (the booking page): the calendar also opens as a modal date-picker dialog. */
export interface CalendarDialog {
  open: boolean;
  close: () => void;
}

/**
 * The guest's price calendar (decision 157): a month or two of plain links, so that it works without
 * JavaScript. The first tap picks check-in (the page comes back with each check-out's total), the
 * second picks check-out and searches. A day that cannot be picked is text that says why.
 * With JavaScript the links navigate without a reload and the days are one grid that the keyboard
 * moves through as the WAI-ARIA date picker dialog's: arrows by day and week, Home/End, PageUp/PageDown
 * by month (with Shift by year), Enter/Space picks, Escape closes the dialog.
 */
export function StayCalendar({
  view,
  lang,
  links,
  dialog,
  onRoomPage = false,
}: {
  view: CalendarView;
  lang: Language;
  links: CalendarLinks;
  dialog?: CalendarDialog;
  onRoomPage?: boolean;
}) {
  const { t } = useTranslation();
  const w = (key: string, values: Record<string, string | number> = {}) => t(`calendar.${key}`, { ...values, ns: "calendar" });
  const { calendar } = view;
  // THE date style and month names (format.ts), which the Worker and the browser render alike.
  const long = (date: string) => formatDate(date, lang);
  const weekdayName = dateTimeFormat(lang, "calendar-weekday", { weekday: "short", timeZone: "UTC" });
  const weekdayOf = (date: string) =>
    (weekdayName.formatToParts(new Date(`${date}T00:00:00Z`)).find((part) => part.type === "weekday")?.value ?? "").replace(
      /[^\p{L}\p{N}]/gu,
      "",
    );
  // The visible price drops its "NT$" on a phone (CSS); the accessible name keeps it.
  const shortPrice = (amount: number) => (
    <>
      <span className="stay-calendar__currency">NT$</span>
      {formatPrice(amount, lang).replace("NT$", "")}
    </>
  );
  const why = (entry: { reason?: string; nights?: number }) =>
    entry.reason === "min_stay" || entry.reason === "max_stay"
      ? w(entry.reason, { count: entry.nights ?? 1 })
      : w(entry.reason ?? "sold_out");
  const checkOuts = new Map((calendar?.check_outs ?? []).map((entry) => [entry.date, entry]));
  const days = new Map((calendar?.days ?? []).map((entry) => [entry.date, entry]));
  const keys = useDayKeys(view, links, dialog);

  function off(date: string, note: string, said: string) {
    return (
      <span className="stay-calendar__day stay-calendar__day--off" {...keys.day(date)} aria-disabled={keys.enhanced || undefined}>
        <span aria-hidden="true">{Number(date.slice(8))}</span>
        <span className="stay-calendar__sub" aria-hidden="true">
          {note}
        </span>
        <span className="visually-hidden">{`${long(date)}, ${said}`}</span>
      </span>
    );
  }

  function checkInCell(day: StayCalendarDay) {
    if (day.price === undefined) return off(day.date, day.reason === "past" ? "" : why(day), why(day));
    const price = w("from", { price: formatPrice(day.price, lang) });
    const rule = (day.min_stay ?? 1) > 1 ? w("min_stay", { count: day.min_stay ?? 1 }) : "";
    const picked = day.date === view.pick;
    return (
      <Link
        preventScrollReset
        discover="none"
        className={`stay-calendar__day${picked ? " stay-calendar__day--picked" : ""}`}
        to={links.checkIn(day)}
        aria-label={[long(day.date), price, rule].filter(Boolean).join(", ")}
        aria-current={picked ? "date" : undefined}
        {...keys.day(day.date)}
      >
        <span>{Number(day.date.slice(8))}</span>
        <span className="stay-calendar__sub">{shortPrice(day.price)}</span>
      </Link>
    );
  }

  function checkOutCell(entry: StayCalendarCheckOut, pick: string) {
    if (entry.total === undefined) return off(entry.date, why(entry), why(entry));
    const chosen = entry.date === links.chosenEnd;
    return (
      <Link
        discover="none"
        className={`stay-calendar__day stay-calendar__day--out${chosen ? " stay-calendar__day--picked" : ""}`}
        to={links.checkOut(entry, pick)}
        aria-label={`${long(entry.date)}, ${w("total", { price: formatPrice(entry.total, lang), count: entry.nights })}`}
        aria-current={chosen ? "date" : undefined}
        onClick={keys.picked}
        {...keys.day(entry.date)}
      >
        <span>{Number(entry.date.slice(8))}</span>
        <span className="stay-calendar__sub">{shortPrice(entry.total)}</span>
      </Link>
    );
  }

  const months = calendar ? [...new Set(calendar.days.map((day) => day.date.slice(0, 7)))] : [];
  // Weekday headings from a known Sunday (2023-01-01).
  const weekdays = Array.from({ length: 7 }, (_, index) => weekdayOf(addDays("2023-01-01", index)));
  const monthLink = (month: string | null, text: string) =>
    month ? (
      <Link preventScrollReset discover="none" to={links.month(month)}>
        {text}
      </Link>
    ) : (
      <span />
    );
  return (
    <section
      className={`stay-calendar${dialog?.open ? " stay-calendar--dialog" : ""}`}
      id="stay-calendar"
      aria-labelledby="stay-calendar-heading"
      ref={keys.section}
      onKeyDown={keys.enhanced ? keys.onKeyDown : undefined}
      {...(dialog?.open ? { role: "dialog", "aria-modal": true } : {})}
    >
      <h2 id="stay-calendar-heading">{w("heading")}</h2>
      {dialog?.open ? (
        <button type="button" className="stay-calendar__close" onClick={dialog.close}>
          {w("close")}
        </button>
      ) : null}
      <p className="stay-calendar__hint" aria-live="polite">
        {view.pick ? w("hint_check_out", { date: long(view.pick) }) : w("hint_check_in")}
      </p>
      <nav className="stay-calendar__nav" aria-label={w("heading")}>
        {monthLink(view.previous, `‹ ${w("previous")}`)}
        {monthLink(view.next, `${w("next")} ›`)}
      </nav>
      {calendar ? null : <p>{w(onRoomPage ? "unavailable_room" : "unavailable")}</p>}
      <div className="stay-calendar__months">
        {months.map((month) => {
          const first = `${month}-01`;
          const inMonth = [...days.keys()].filter((date) => date.startsWith(month));
          const lead = dayOfWeek(first);
          return (
            <table key={month} className="stay-calendar__month" role={keys.enhanced ? "grid" : undefined}>
              <caption>{formatMonth(first, lang)}</caption>
              <thead>
                <tr>
                  {weekdays.map((name) => (
                    <th key={name} scope="col">
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.ceil((lead + inMonth.length) / 7) }, (_, week) => (
                  <tr key={week}>
                    {Array.from({ length: 7 }, (_, column) => {
                      const date = inMonth[week * 7 + column - lead];
                      if (!date) return <td key={column} />;
                      const out = view.pick && date > view.pick ? checkOuts.get(date) : undefined;
                      return (
                        <td key={column}>
                          {out && view.pick ? checkOutCell(out, view.pick) : checkInCell(days.get(date) as StayCalendarDay)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          );
        })}
      </div>
    </section>
  );
}

/**
 * The button beside the search's dates that opens the calendar as a dialog. Without JavaScript it
 * is a link down to the calendar, which is on the page all the same.
 */
export function CalendarButton({ open, onOpen, button }: { open: boolean; onOpen: () => void; button: RefObject<HTMLButtonElement> }) {
  const { t } = useTranslation();
  const text: ReactNode = t("calendar.open", { ns: "calendar" });
  return useHydrated() ? (
    <button type="button" className="stay-calendar__open" ref={button} aria-haspopup="dialog" aria-expanded={open} onClick={onOpen}>
      {text}
    </button>
  ) : (
    <a className="stay-calendar__open" href="#stay-calendar">
      {text}
    </a>
  );
}

const visible = (element: HTMLElement | null | undefined): element is HTMLElement => !!element && element.getClientRects().length > 0;

/**
 * The keyboard of the APG date picker dialog over the calendar's days: one day is in the tab order
 * (roving tabindex); a move beyond the months on screen loads the month it reaches through the
 * route's loader (the same link as "Next month"), then focuses that day.
 */
function useDayKeys(view: CalendarView, links: CalendarLinks, dialog: CalendarDialog | undefined) {
  const navigate = useNavigate();
  const idle = useNavigation().state === "idle";
  const enhanced = useHydrated() && dialog !== undefined;
  const section = useRef<HTMLElement>(null);
  const [active, setActive] = useState<string | null>(null);
  const pending = useRef<string | null>(null);
  const calendar = view.calendar;
  const today = calendar?.today ?? "";
  const lastDay = addDays(today, 364);
  const shown = (date: string | null) => !!date && !!calendar?.days.some((day) => day.date === date);
  const bookable = (date: string) =>
    view.pick && date > view.pick
      ? calendar?.check_outs.some((entry) => entry.date === date && entry.total !== undefined)
      : calendar?.days.some((day) => day.date === date && day.price !== undefined);
  // The day that takes focus: the one last moved to, else the pick, else the first that can be picked.
  const current = shown(active)
    ? active
    : view.pick && shown(view.pick)
      ? view.pick
      : (calendar?.days.find((day) => day.date >= today && bookable(day.date))?.date ??
        calendar?.days.find((day) => day.date >= today)?.date);
  const element = (date: string) => section.current?.querySelector<HTMLElement>(`[data-date="${date}"]`);

  useEffect(() => {
    // After a pick or a month loaded (the page's data in place), the day moved to takes focus.
    if (!enhanced || !idle) return;
    if (pending.current && visible(element(pending.current))) {
      element(pending.current)?.focus();
      pending.current = null;
    }
  });
  useEffect(() => {
    // Opening the dialog puts focus on the day (APG: the selected date, else today's).
    if (dialog?.open && current) element(current)?.focus();
    if (!dialog?.open) return;
    // Escape closes the dialog wherever focus is inside the page.
    const close = dialog.close;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      close();
    };
    document.addEventListener("keydown", onEscape);
    return () => document.removeEventListener("keydown", onEscape);
    // Only when the dialog opens or closes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dialog?.open]);

  function moveTo(date: string) {
    const target = date < today ? today : date > lastDay ? lastDay : date;
    setActive(target);
    const found = element(target);
    if (visible(found)) found.focus();
    else {
      pending.current = target;
      navigate(links.month(target.slice(0, 7)), { preventScrollReset: true });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === "Tab" && dialog?.open) {
      // A modal dialog keeps focus inside: Tab from the last control goes to the first, and back.
      const stops = [
        ...(section.current?.querySelectorAll<HTMLElement>('a[href]:not([tabindex="-1"]), button, [tabindex="0"]') ?? []),
      ].filter(visible);
      const edge = event.shiftKey ? stops[0] : stops[stops.length - 1];
      if (edge && event.target === edge) {
        event.preventDefault();
        (event.shiftKey ? stops[stops.length - 1] : stops[0])?.focus();
      }
      return;
    }
    const target = event.target as HTMLElement;
    if (!target.dataset.date) return;
    // While a month loads, keys move on from the day they were going to, not the one still focused.
    const date = pending.current ?? target.dataset.date;
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(date, -1),
      ArrowRight: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -dayOfWeek(date)),
      End: () => addDays(date, 6 - dayOfWeek(date)),
      PageUp: () => addMonths(date, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(date, event.shiftKey ? 12 : 1),
    };
    if (event.key === " " || event.key === "Enter") {
      // A link picks on Enter by itself; Space picks too. A day that cannot be picked does nothing.
      // A check-in keeps focus on its day; a check-out searches and closes the dialog.
      if (target.tagName === "A" && !target.classList.contains("stay-calendar__day--out")) pending.current = target.dataset.date;
      if (event.key === " ") {
        event.preventDefault();
        target.click();
      }
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    moveTo(move());
  }

  return {
    enhanced,
    section,
    onKeyDown,
    /** A check-out picked from the dialog: the search follows, the dialog closes. */
    picked: () => dialog?.open && dialog.close(),
    day: (date: string) => ({
      "data-date": date,
      ...(enhanced ? { tabIndex: date === current ? 0 : -1, onFocus: () => setActive(date) } : {}),
    }),
  };
}
