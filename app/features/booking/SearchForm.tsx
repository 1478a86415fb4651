import { Form } from "@remix-run/react";
import { useRef, useState, type ChangeEvent, type ReactNode } from "react";
import { earliestCheckOut } from "~/domain/check-out";
import { MAX_ROOMS_PER_ORDER } from "~/domain/limits";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useHydrated } from "~/ui/forms";
import { useSite } from "~/ui/site-data";
import { useTranslation } from "~/i18n/react";
import type { BookingData } from "./types";

/** The stay and the party: dates, rooms, adults and children (a GET form: the search is the address). */
export function SearchForm({ data, children }: { data: BookingData; children?: ReactNode }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const end = useRef<HTMLInputElement>(null);
  // Check-out is at least one night after check-in: in the HTML, and as check-in changes.
  const searched = `${data.entered.start} ${data.today}`;
  const [picked, setPicked] = useState<{ searched: string; min: string } | null>(null);
  const checkOutMin = picked?.searched === searched ? picked.min : earliestCheckOut(data.entered.start, data.today);
  const onStartChange = (event: ChangeEvent<HTMLInputElement>) => {
    const min = earliestCheckOut(event.currentTarget.value, data.today);
    setPicked({ searched, min });
    if (end.current && end.current.value < min) end.current.value = min;
  };
  const unit = lodgingUnit(useSite()?.hotel.kind);
  const field = (name: keyof BookingData["entered"]) => ({
    name,
    id: `search-${name}`,
    defaultValue: data.entered[name],
    "aria-invalid": data.errors[name] ? true : undefined,
    "aria-describedby": data.errors[name] ? `search-${name}-error` : undefined,
  });
  const error = (name: keyof BookingData["entered"]) =>
    data.errors[name] ? (
      <p className="field__error" id={`search-${name}-error`}>
        {t(data.errors[name] === "search.error.rooms" ? unitKey("search.error.rooms", unit) : (data.errors[name] ?? ""))}
      </p>
    ) : null;
  return (
    <Form method="get" className="booking-search" aria-label={t(unitKey("search.heading", unit))} noValidate={hydrated}>
      <div className="field">
        <label htmlFor="search-start">{t("search.start")}</label>
        <input type="date" min={data.today} required {...field("start")} onChange={onStartChange} />
        {error("start")}
      </div>
      <div className="field">
        <label htmlFor="search-end">{t("search.end")}</label>
        <input type="date" min={checkOutMin} required {...field("end")} ref={end} />
        {error("end")}
      </div>
      {children}
      <div className="field field--small">
        <label htmlFor="search-room">{t(unitKey("search.rooms", unit))}</label>
        <input type="number" inputMode="numeric" min={1} max={MAX_ROOMS_PER_ORDER} {...field("room")} />
        {error("room")}
      </div>
      <div className="field field--small">
        <label htmlFor="search-adults">{t("search.adults")}</label>
        <input type="number" inputMode="numeric" min={1} max={100} {...field("adults")} />
        {error("adults")}
      </div>
      <div className="field field--small">
        <label htmlFor="search-children">{t("search.children")}</label>
        <input type="number" inputMode="numeric" min={0} max={100} {...field("children")} />
        {error("children")}
      </div>
      <button type="submit" className="button">
        {t("search.submit")}
      </button>
    </Form>
  );
}
