import type { useLoaderData } from "@remix-run/react";
import { addMonths, dayOfWeek } from "~/domain/dates";
import { LocaleLink } from "~/ui/LocaleLink";
import { useSite } from "~/ui/site-data";
import { CALENDAR_MONTHS, type roomPage } from "~/features/content/room-page.server";
import { dateTimeFormat, formatDate, formatMonth, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";

/** The room's prices by day over two months; an open day links to the booking page for that night. */
export function Calendar({ data }: { data: ReturnType<typeof useLoaderData<typeof roomPage>> }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const months = Array.from({ length: CALENDAR_MONTHS }, (_, index) => addMonths(data.firstMonth, index));
  const weekdays = Array.from({ length: 7 }, (_, index) =>
    dateTimeFormat(lang, "weekday", { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2030, 0, 6 + index))),
  );
  return (
    <section className="room-calendar" id="calendar">
      <h2>{t("room.calendar_heading")}</h2>
      <nav className="room-calendar__nav">
        {data.previousMonth ? (
          <LocaleLink to={`?month=${data.previousMonth}#calendar`} className="text-link" preventScrollReset>
            ← {t("room.previous_month")}
          </LocaleLink>
        ) : (
          <span />
        )}
        {data.nextMonth ? (
          <LocaleLink to={`?month=${data.nextMonth}#calendar`} className="text-link" preventScrollReset>
            {t("room.next_month")} →
          </LocaleLink>
        ) : null}
      </nav>
      <div className="room-calendar__months">
        {months.map((month) => {
          const days = data.calendar.filter((day) => day.date.startsWith(month.slice(0, 7)));
          const blanks = dayOfWeek(month);
          return (
            <table key={month} className="month">
              <caption>{formatMonth(month, lang)}</caption>
              <thead>
                <tr>
                  {weekdays.map((weekday) => (
                    <th key={weekday} scope="col">
                      {weekday}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: Math.ceil((blanks + days.length) / 7) }, (_, week) => (
                  <tr key={week}>
                    {Array.from({ length: 7 }, (_, weekday) => {
                      const day = days[week * 7 + weekday - blanks];
                      if (!day) return <td key={weekday} />;
                      const label = Number(day.date.slice(8));
                      return (
                        <td
                          key={weekday}
                          className={day.href ? "day day--open" : day.date < data.today ? "day day--past" : "day day--closed"}
                        >
                          {day.href ? (
                            <a
                              href={day.href}
                              aria-label={`${formatDate(day.date, lang)} ${day.price !== null ? formatPrice(day.price, lang) : ""}`}
                            >
                              <span className="day__number">{label}</span>
                              {day.price !== null ? <span className="day__price">{formatPrice(day.price, lang)}</span> : null}
                            </a>
                          ) : (
                            <span>
                              <span className="day__number">{label}</span>
                              <span className="day__price">{day.date >= data.today ? t("room.full") : ""}</span>
                            </span>
                          )}
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
