import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { useTranslation } from "~/i18n/react";
import { dateTimeFormat, formatCount, formatDate, formatMonth, formatPrice } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { addDays, addMonths, dayOfWeek } from "~/domain/dates";
import { useHydrated } from "~/ui/forms";
import { dayOf, type CalendarView, type Day } from "./calendar-days";

/**
 * Where the calendar's days go. The booking page keeps its state in its own address: its days are
 * buttons of two GET forms that carry `fields` (the party and filters) once. A room page sends each
 * day to the booking page by a link of its own (`day`).
 */
export interface CalendarLinks {
  month: (month: string) => string;
  /** A room page: the link of a day that can start a stay. */
  day?: (date: string) => string | undefined;
  /** The booking page: the fields every pick carries, as name and value. */
  fields?: readonly (readonly [string, string])[];
  /** The check-out of the stay searched from `pick`, shown as chosen. */
  chosenEnd?: string;
}

/** With JavaScript (the booking page): the calendar also opens as a modal date-picker dialog. */
export interface CalendarDialog {
  open: boolean;
  close: () => void;
}

/** The form of the check-out buttons (the check-in buttons are inside the months' form). */
const OUT_FORM = "stay-calendar-out";

/**
 * The guest's price calendar (decisions 157, 162): a month or two of plain GET buttons (links on a
 * room page), so that it works without JavaScript. The first tap picks check-in (the page comes back
 * with each check-out's total), the second picks check-out and searches. A day that cannot be picked
 * is text that says why. A day's name says its date and weekday, its price (or its stay's total) and
 * its rule, or why it cannot be picked; the currency is said once on screen, above.
 * With JavaScript the forms submit without a reload and the days are one grid that the keyboard
 * moves through as the WAI-ARIA date picker dialog's: arrows by day and week, Home/End, PageUp/PageDown
 * by month (with Shift by year), Enter/Space picks, Escape closes the dialog.
 */
export function StayCalendar({
  view,
  lang,
  links,
  dialog,
  unavailable,
}: {
  view: CalendarView;
  lang: Language;
  links: CalendarLinks;
  dialog?: CalendarDialog;
  /** What the page says when the calendar cannot be read, if not the booking page's words. */
  unavailable?: string;
}) {
  const { t } = useTranslation();
  const w = (key: string, values: Record<string, string | number> = {}) => t(`calendar.${key}`, { ...values, ns: "calendar" });
  // THE date style and month names (format.ts), which the Worker and the browser render alike.
  const long = (date: string) => formatDate(date, lang);
  const weekdayName = dateTimeFormat(lang, "calendar-weekday", { weekday: "short", timeZone: "UTC" });
  const weekdayOf = (date: string) =>
    (weekdayName.formatToParts(new Date(`${date}T00:00:00Z`)).find((part) => part.type === "weekday")?.value ?? "").replace(
      /[^\p{L}\p{N}]/gu,
      "",
    );
  const why = (day: Day) => w(day.reason ?? "sold_out", day.count === undefined ? {} : { count: day.count });
  const first = `${view.month}-01`;
  const dates = (view.days ?? []).map((_, index) => addDays(first, index));
  const keys = useDayKeys(view, dates, links, dialog);
  const { pick } = view;

  function cell(date: string) {
    const index = dates.indexOf(date);
    const out = pick !== null && date > pick ? view.outs[index - dates.indexOf(pick) - 1] : undefined;
    const day = dayOf(out ?? view.days?.[index]);
    const number = Number(date.slice(8));
    // Each day's name says its date with the weekday, then its price or why it cannot be picked, and
    // its rule (issue 40): "Fri 14 March 2027, from NT$3,200, minimum 2 nights".
    if (day.price === undefined) {
      const note = day.reason === "past" ? "" : why(day);
      return (
        <span {...keys.day(date)} aria-disabled={keys.enhanced || undefined}>
          <span aria-hidden="true">
            {note ? `${number} ` : number}
            {note ? <small>{note}</small> : null}
          </span>
          <span className="visually-hidden">{`${long(date)}, ${note || w("past")}`}</span>
        </span>
      );
    }
    const chosen = out !== undefined ? date === links.chosenEnd : date === pick;
    const price = formatPrice(day.price, lang);
    const label = [
      long(date),
      out !== undefined ? w("total", { price, count: index - dates.indexOf(pick ?? "") }) : w("from", { price }),
      day.minStay ? w("min_stay", { count: day.minStay }) : "",
    ]
      .filter(Boolean)
      .join(", ");
    const content = (
      <>
        {`${number} `}
        <small>{formatCount(day.price, lang)}</small>
      </>
    );
    const href = links.day?.(date);
    return href !== undefined ? (
      <Link discover="none" to={href} aria-label={label} aria-current={chosen ? "date" : undefined}>
        {content}
      </Link>
    ) : (
      <button
        name={out !== undefined ? "end" : "pick"}
        value={date}
        aria-label={label}
        form={out !== undefined ? OUT_FORM : undefined}
        aria-current={chosen ? "date" : undefined}
        onClick={out !== undefined ? keys.picked : undefined}
        {...keys.day(date)}
      >
        {content}
      </button>
    );
  }

  const months = [...new Set(dates.map((date) => date.slice(0, 7)))];
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
  const hidden = (fields: readonly (readonly [string, string])[]) =>
    fields.map(([name, value], index) => <input key={index} type="hidden" name={name} value={value} />);
  const tables = months.map((month) => {
    const inMonth = dates.filter((date) => date.startsWith(month));
    const lead = dayOfWeek(`${month}-01`);
    return (
      <table key={month} className="stay-calendar__month" role={keys.enhanced ? "grid" : undefined}>
        <caption>{formatMonth(`${month}-01`, lang)}</caption>
        <thead>
          <tr>
            {weekdays.map((name) => (
              <th key={name}>{name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: Math.ceil((lead + inMonth.length) / 7) }, (_, week) => (
            <tr key={week}>
              {Array.from({ length: 7 }, (_, column) => {
                const date = inMonth[week * 7 + column - lead];
                return <td key={column}>{date ? cell(date) : null}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    );
  });
  const fields = [...(links.fields ?? []), ["cal", view.month] as const];
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
        {pick ? w("hint_check_out", { date: long(pick) }) : w("hint_check_in")}
      </p>
      <nav className="stay-calendar__nav" aria-label={w("heading")}>
        {monthLink(view.previous, `‹ ${w("previous")}`)}
        {monthLink(view.next, `${w("next")} ›`)}
      </nav>
      {view.days ? null : <p>{unavailable ?? w("unavailable")}</p>}
      {links.fields ? (
        <>
          {/* A check-out searches the stay from the pick: its buttons submit this form (their `form`). */}
          {pick ? (
            <Form method="get" id={OUT_FORM} discover="none" hidden>
              {hidden([...fields, ["pick", pick], ["start", pick]])}
            </Form>
          ) : null}
          <Form method="get" action="#stay-calendar" preventScrollReset discover="none" className="stay-calendar__months">
            {hidden(fields)}
            {tables}
          </Form>
        </>
      ) : (
        <div className="stay-calendar__months">{tables}</div>
      )}
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

/** A layout effect in the browser; on the server (where it would only warn) an effect, which never runs there. */
const useLayoutEffectInBrowser = typeof document === "undefined" ? useEffect : useLayoutEffect;

const visible = (element: HTMLElement | null | undefined): element is HTMLElement => !!element && element.getClientRects().length > 0;

/**
 * The keyboard of the APG date picker dialog over the calendar's days: one day is in the tab order
 * (roving tabindex); a move beyond the months on screen loads the month it reaches through the
 * route's loader (the same link as "Next month"), then focuses that day.
 */
function useDayKeys(view: CalendarView, dates: string[], links: CalendarLinks, dialog: CalendarDialog | undefined) {
  const navigate = useNavigate();
  const idle = useNavigation().state === "idle";
  const enhanced = useHydrated() && dialog !== undefined;
  const section = useRef<HTMLElement>(null);
  const [active, setActive] = useState<string | null>(null);
  const pending = useRef<string | null>(null);
  const { today, pick } = view;
  const lastDay = addDays(today, 364);
  const shown = (date: string | null) => !!date && dates.includes(date);
  const bookable = (date: string) => {
    const index = dates.indexOf(date);
    const code = pick && date > pick ? view.outs[index - dates.indexOf(pick) - 1] : view.days?.[index];
    return code !== undefined && dayOf(code).price !== undefined;
  };
  // The day that takes focus: the one last moved to, else the pick, else the first that can be picked.
  const current = shown(active)
    ? active
    : pick && shown(pick)
      ? pick
      : (dates.find((date) => date >= today && bookable(date)) ?? dates.find((date) => date >= today));
  const element = (date: string) => section.current?.querySelector<HTMLElement>(`[data-date="${date}"]`);

  useLayoutEffectInBrowser(() => {
    // After a pick or a month loaded (the page's data in place), the day moved to takes focus, in the
    // same task as the new month's DOM: the day that had focus is gone from it, and a key pressed
    // before a later effect ran would reach the page's body and be lost (a PageDown right after the
    // month arrives). A layout effect leaves no such moment.
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
        ...(section.current?.querySelectorAll<HTMLElement>(':is(a[href], button):not([tabindex="-1"]), [tabindex="0"]') ?? []),
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
      // A day's button picks on Enter and Space by itself; a day that cannot be picked does nothing
      // (nor does Space scroll). A check-in keeps focus on its day; a check-out searches and closes the dialog.
      if (target.getAttribute("name") === "pick") pending.current = target.dataset.date;
      if (target.tagName !== "BUTTON") event.preventDefault();
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
    // The keyboard's marks only once it is there: the server's HTML carries none.
    day: (date: string) => (enhanced ? { "data-date": date, tabIndex: date === current ? 0 : -1, onFocus: () => setActive(date) } : {}),
  };
}
