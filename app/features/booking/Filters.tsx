import { Form } from "@remix-run/react";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useSite } from "~/ui/site-data";
import { useTranslation } from "~/i18n/react";
import type { BookingData } from "./types";

/** Narrowing the results: meals, plans, rooms and facilities (spec §5). */
export function Filters({ data }: { data: BookingData }) {
  const { t } = useTranslation();
  const site = useSite();
  if (
    data.rooms.length === 0 &&
    data.filters.plans.length + data.filters.rooms.length + data.filters.facilities.length === 0 &&
    !data.filters.meals
  )
    return null;
  return (
    <Form method="get" className="booking-filters">
      <details open={data.filters.plans.length + data.filters.rooms.length + data.filters.facilities.length > 0 || data.filters.meals}>
        <summary>{t("filters.heading")}</summary>
        {Object.entries(data.search).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ))}
        <fieldset>
          <legend>{t("filters.meals")}</legend>
          <label>
            <input type="checkbox" name="meals" value="1" defaultChecked={data.filters.meals} /> {t("filters.meals_only")}
          </label>
        </fieldset>
        <fieldset>
          <legend>{t("filters.plans")}</legend>
          {data.planChoices.map(([id, name]) => (
            <label key={id}>
              <input type="checkbox" name="plan" value={id} defaultChecked={data.filters.plans.includes(id)} /> {name}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t(unitKey("filters.rooms", lodgingUnit(site?.hotel.kind)))}</legend>
          {data.roomChoices.map(([id, name]) => (
            <label key={id}>
              <input type="checkbox" name="room_id" value={id} defaultChecked={data.filters.rooms.includes(id)} /> {name}
            </label>
          ))}
        </fieldset>
        {data.facilities.length > 0 ? (
          <fieldset>
            <legend>{t("filters.facilities")}</legend>
            {data.facilities.map((key) => (
              <label key={key}>
                <input type="checkbox" name="facility" value={key} defaultChecked={data.filters.facilities.includes(key)} />{" "}
                {t(key, { ns: "facility", defaultValue: key.replace(/_/g, " ") })}
              </label>
            ))}
          </fieldset>
        ) : null}
        <button type="submit" className="button button--secondary">
          {t("filters.apply")}
        </button>
      </details>
    </Form>
  );
}
