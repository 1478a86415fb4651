/**
 * The desk's calendar (calendar-page.server.ts): per room class a table of the month's nights (its
 * rooms to sell, then each of its plans unfolded under it), rule markers explained by the key and
 * said in words in each cell; below, the bulk change's form, its preview and the apply button. No
 * JavaScript: month and room links, plain forms.
 */
import { Form, Link } from "@remix-run/react";
import type { DeskCalendar, DeskPlanNight, DeskRoomNight } from "~/contract/desk-calendar-schemas";
import { BULK_CHANGES, type BulkChangeKind } from "~/domain/bulk-change";
import { dateTimeFormat, formatCount, formatMonth } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { deskPath } from "./paths";
import { useCalendarWords } from "./calendar-words";
import type { BulkFormValues, CalendarView } from "./calendar-page.server";

type Words = ReturnType<typeof useCalendarWords>;

const GROUPS: [string, BulkChangeKind[]][] = [
  ["price", BULK_CHANGES.filter((kind) => kind.startsWith("price_"))],
  ["rooms", ["rooms_set", "allotment_set", "allotment_clear"]],
  ["sale", ["close", "open"]],
  ["rules", BULK_CHANGES.filter((kind) => /stay|arrival|departure/.test(kind))],
];

const dayHead = (night: string, lang: Language) => {
  const at = new Date(`${night}T00:00:00Z`);
  return {
    weekday: dateTimeFormat(lang, "desk-weekday", { weekday: "short", timeZone: "UTC" }).format(at),
    day: at.getUTCDate(),
    weekend: at.getUTCDay() === 0 || at.getUTCDay() === 6,
  };
};

/** The rule markers of a night (shown) and the same in words (read out). */
function rules(cell: DeskRoomNight | DeskPlanNight, w: Words): { marks: string[]; words: string[] } {
  const found: [boolean, string, string][] = [
    [cell.closed, "✕", w("rule.closed")],
    [cell.min_stay !== null, `≥${cell.min_stay}`, w("rule.min", { count: cell.min_stay ?? 0 })],
    [cell.max_stay !== null, `≤${cell.max_stay}`, w("rule.max", { count: cell.max_stay ?? 0 })],
    [cell.no_arrival, "→✕", w("rule.no_arrival")],
    [cell.no_departure, "✕→", w("rule.no_departure")],
    [cell.changed, "•", w("rule.changed")],
  ];
  const shown = found.filter(([on]) => on);
  return { marks: shown.map(([, mark]) => mark), words: shown.map(([, , words]) => words) };
}

function RoomCell({ cell, night, w }: { cell: DeskRoomNight | null; night: string; w: Words }) {
  if (!cell) return <td data-night={night}>{w("cell.none")}</td>;
  const { marks, words } = rules(cell, w);
  const left = Math.max(0, cell.to_sell - cell.booked);
  return (
    <td data-night={night} className={cell.closed ? "is-closed" : left === 0 ? "is-full" : undefined}>
      <span aria-hidden="true">{`${left}/${cell.to_sell}`}</span>
      {marks.length > 0 ? (
        <span className="desk-cal__marks" aria-hidden="true">
          {marks.join(" ")}
        </span>
      ) : null}
      <span className="visually-hidden">{[w("cell.left", { left, total: cell.to_sell }), ...words].join(", ")}</span>
    </td>
  );
}

function PlanCell({ cell, night, lang, w }: { cell: DeskPlanNight | null; night: string; lang: Language; w: Words }) {
  if (!cell) return <td data-night={night}>{w("cell.none")}</td>;
  const { marks, words } = rules(cell, w);
  const extra = [
    cell.member_price !== null ? w("cell.member", { price: formatCount(cell.member_price, lang) }) : "",
    cell.allotment !== null ? w("cell.allotment", { count: cell.allotment, sold: cell.sold }) : "",
  ].filter(Boolean);
  return (
    <td data-night={night} className={cell.closed ? "is-closed" : undefined}>
      <span aria-hidden="true">{formatCount(cell.price, lang)}</span>
      {cell.member_price !== null ? (
        <span className="desk-cal__small" aria-hidden="true">{`M ${formatCount(cell.member_price, lang)}`}</span>
      ) : null}
      {cell.allotment !== null ? <span className="desk-cal__small" aria-hidden="true">{`[${cell.allotment}]`}</span> : null}
      {marks.length > 0 ? (
        <span className="desk-cal__marks" aria-hidden="true">
          {marks.join(" ")}
        </span>
      ) : null}
      <span className="visually-hidden">{[formatCount(cell.price, lang), ...extra, ...words].join(", ")}</span>
    </td>
  );
}

function RoomGrid({
  room,
  calendar,
  view,
  w,
}: {
  room: DeskCalendar["room_classes"][number];
  calendar: DeskCalendar;
  view: CalendarView;
  w: Words;
}) {
  const heading = `desk-cal-room-${room.id}`;
  return (
    <section className="desk-cal__room" aria-labelledby={heading} data-room={room.code}>
      <h2 id={heading}>{room.name}</h2>
      {/* A month is wider than a phone: the table scrolls on its own, by keyboard too. */}
      <div
        className="desk-cal__scroll"
        role="region"
        aria-label={w("grid.region", { room: room.name, month: formatMonth(view.month, view.lang) })}
        tabIndex={0}
      >
        <table className="desk-cal__grid">
          <thead>
            <tr>
              <td />
              {calendar.nights.map((night) => {
                const head = dayHead(night, view.lang);
                return (
                  <th
                    key={night}
                    scope="col"
                    className={[head.weekend ? "is-weekend" : "", night === calendar.today ? "is-today" : ""].join(" ").trim() || undefined}
                  >
                    <span className="desk-cal__weekday">{head.weekday}</span> {head.day}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            <tr data-row="rooms">
              <th scope="row">{w("grid.rooms")}</th>
              {room.nights.map((cell, at) => (
                <RoomCell key={calendar.nights[at]} cell={cell} night={calendar.nights[at]!} w={w} />
              ))}
            </tr>
            {room.plans.map((plan) => (
              <tr key={plan.id} data-plan={plan.code}>
                <th scope="row">{w("grid.plan", { plan: plan.name })}</th>
                {plan.nights.map((cell, at) => (
                  <PlanCell key={calendar.nights[at]} cell={cell} night={calendar.nights[at]!} lang={view.lang} w={w} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The form's fields, hidden, so the apply sends exactly what was previewed. */
function HiddenFields({ values }: { values: BulkFormValues }) {
  return (
    <>
      <input type="hidden" name="from" value={values.from} />
      <input type="hidden" name="to" value={values.to} />
      {values.weekdays.map((day) => (
        <input key={`d${day}`} type="hidden" name="weekday" value={day} />
      ))}
      {values.room_class_ids.map((id) => (
        <input key={`r${id}`} type="hidden" name="room" value={id} />
      ))}
      {values.plans.map((pair) => (
        <input key={`p${pair}`} type="hidden" name="plan" value={pair} />
      ))}
      <input type="hidden" name="change" value={values.change} />
      <input type="hidden" name="value" value={values.value} />
    </>
  );
}

function shownValue(column: string, value: number | null, lang: Language, w: Words): string {
  if (value === null) return w("value.none");
  if (column === "closed" || column === "no_arrival" || column === "no_departure") return w(value ? "value.yes" : "value.no");
  return formatCount(value, lang);
}

function Preview({ view, w }: { view: CalendarView; w: Words }) {
  const preview = view.preview!;
  return (
    <section className="desk-cal__preview" aria-labelledby="desk-cal-preview">
      <h2 id="desk-cal-preview">{w("preview.title")}</h2>
      {preview.refusals.length > 0 ? (
        <div className="alert alert--danger" role="alert">
          <p>{w("preview.refused")}</p>
          <ul>
            {preview.refusals.map((refusal) => (
              <li key={`${refusal.night}${refusal.room_name}${refusal.plan_name ?? ""}`}>
                {[
                  refusal.night,
                  refusal.room_name,
                  refusal.plan_name,
                  refusal.taken !== null ? w("preview.taken", { count: refusal.taken }) : "",
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </li>
            ))}
          </ul>
        </div>
      ) : preview.rows === 0 ? (
        <p role="status">{w("preview.nothing")}</p>
      ) : (
        <p role="status">{w("preview.count", { count: preview.rows })}</p>
      )}
      {preview.groups.length > 0 ? (
        <div className="desk-cal__scroll">
          <table className="desk-bookings__table desk-cal__changes">
            <thead>
              <tr>
                {["room", "plan", "what", "nights", "from", "to"].map((key) => (
                  <th key={key} scope="col">
                    {w(`preview.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.groups.map((group) => (
                <tr key={`${group.room_class_id}:${group.rate_plan_id ?? ""}:${group.column}:${group.old}:${group.new}`}>
                  <td>{group.room_name}</td>
                  <td>{group.plan_name ?? "—"}</td>
                  <td>{w(`column.${group.column}`)}</td>
                  <td>{group.runs.map(([first, last]) => (first === last ? first : `${first} – ${last}`)).join(", ")}</td>
                  <td>{shownValue(group.column, group.old, view.lang, w)}</td>
                  <td>{shownValue(group.column, group.new, view.lang, w)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {preview.refusals.length === 0 && preview.rows > 0 ? (
        <Form method="post" replace>
          <input type="hidden" name="csrf" value={view.csrf} />
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="digest" value={preview.digest} />
          <input type="hidden" name="form_key" value={view.applyKey} />
          <HiddenFields values={view.values} />
          <button type="submit" className="btn btn--primary">
            {w("preview.apply", { count: preview.rows })}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

function BulkForm({ view, w }: { view: CalendarView; w: Words }) {
  const { values } = view;
  const weekdayName = (day: number) =>
    dateTimeFormat(view.lang, "desk-weekday-long", { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 7 + day)));
  return (
    <Form method="post" className="desk-cal__bulk" aria-labelledby="desk-cal-bulk">
      <h2 id="desk-cal-bulk">{w("bulk.title")}</h2>
      <input type="hidden" name="csrf" value={view.csrf} />
      <input type="hidden" name="intent" value="preview" />
      <div className="desk-cal__dates">
        <label>
          {w("bulk.from")}
          <input type="date" name="from" defaultValue={values.from} required />
        </label>
        <label>
          {w("bulk.to")}
          <input type="date" name="to" defaultValue={values.to} required />
        </label>
        <small>{w("bulk.range_hint")}</small>
      </div>
      <fieldset>
        <legend>{w("bulk.weekdays")}</legend>
        {[1, 2, 3, 4, 5, 6, 0].map((day) => (
          <label key={day} className="desk-cal__check">
            <input type="checkbox" name="weekday" value={day} defaultChecked={values.weekdays.includes(day)} />
            {weekdayName(day)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{w("bulk.targets")}</legend>
        <p>
          <small>{w("bulk.targets_hint")}</small>
        </p>
        {view.calendar.room_classes.map((room) => (
          <fieldset key={room.id} className="desk-cal__target">
            <legend>{room.name}</legend>
            <label className="desk-cal__check">
              <input type="checkbox" name="room" value={room.id} defaultChecked={values.room_class_ids.includes(room.id)} />
              {w("bulk.room", { room: room.name })}
            </label>
            {room.plans.map((plan) => (
              <label key={plan.id} className="desk-cal__check">
                <input
                  type="checkbox"
                  name="plan"
                  value={`${plan.id}:${room.id}`}
                  defaultChecked={values.plans.includes(`${plan.id}:${room.id}`)}
                  aria-label={`${room.name}: ${plan.name}`}
                />
                {plan.name}
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <div className="desk-cal__dates">
        <label>
          {w("bulk.change")}
          <select name="change" defaultValue={values.change}>
            {GROUPS.map(([group, kinds]) => (
              <optgroup key={group} label={w(`group.${group}`)}>
                {kinds.map((kind) => (
                  <option key={kind} value={kind}>
                    {w(`change.${kind}`)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          {w("bulk.value")}
          <input
            type="number"
            name="value"
            inputMode="numeric"
            min={0}
            step={1}
            defaultValue={values.value}
            aria-describedby="desk-cal-value-hint"
          />
        </label>
        <small id="desk-cal-value-hint">{w("bulk.value_hint")}</small>
      </div>
      <button type="submit" className="btn btn--primary">
        {w("bulk.preview")}
      </button>
    </Form>
  );
}

export function CalendarPage({ view }: { view: CalendarView }) {
  const w = useCalendarWords();
  const { calendar } = view;
  const base = deskPath(view.lang, "/calendar");
  const monthLink = (month: string) => `${base}?month=${month}${view.room ? `&room=${view.room}` : ""}`;
  const rooms = view.room ? calendar.room_classes.filter((room) => room.id === view.room) : calendar.room_classes;
  return (
    <main id="main" className="desk__main desk-cal">
      <h1>
        {w("title")} · {formatMonth(view.month, view.lang)}
      </h1>
      <p>{w("intro")}</p>
      {view.notice ? (
        <p className="alert alert--success" role="status">
          {view.notice.outcome === "done" ? w("done.done", { count: view.notice.rows }) : w("done.already_done")}
        </p>
      ) : null}
      {view.error ? (
        <p className="alert alert--danger" role="alert">
          {view.error}
        </p>
      ) : null}
      <nav className="desk-cal__months" aria-label={formatMonth(view.month, view.lang)}>
        <Link to={monthLink(view.previous)}>{`‹ ${w("month.previous")}`}</Link>
        <Link to={monthLink(view.next)}>{`${w("month.next")} ›`}</Link>
      </nav>
      <nav className="desk-cal__rooms" aria-label={w("rooms.label")}>
        <Link to={`${base}?month=${view.month}`} className="desk-cal__all" aria-current={view.room === null ? "page" : undefined}>
          {w("rooms.all")}
        </Link>
        {calendar.room_classes.map((room) => (
          <Link key={room.id} to={`${base}?month=${view.month}&room=${room.id}`} aria-current={view.room === room.id ? "page" : undefined}>
            {room.name}
          </Link>
        ))}
      </nav>
      <details className="desk-cal__legend">
        <summary>{w("legend.title")}</summary>
        <dl>
          {[
            ["3/5", "legend.left"],
            ["✕", "legend.closed"],
            ["≥2", "legend.min"],
            ["≤5", "legend.max"],
            ["→✕", "legend.no_arrival"],
            ["✕→", "legend.no_departure"],
            ["•", "legend.changed"],
          ].map(([mark, key]) => (
            <div key={key}>
              <dt>{mark}</dt>
              <dd>{w(key!)}</dd>
            </div>
          ))}
          <div>
            <dt>M</dt>
            <dd>{w("legend.member")}</dd>
          </div>
          <div>
            <dt>[3]</dt>
            <dd>{w("legend.allotment")}</dd>
          </div>
        </dl>
      </details>
      <div className={view.room === null ? "desk-cal__rooms-shown desk-cal__rooms-shown--all" : "desk-cal__rooms-shown"}>
        {rooms.map((room) => (
          <RoomGrid key={room.id} room={room} calendar={calendar} view={view} w={w} />
        ))}
      </div>
      {view.preview ? <Preview view={view} w={w} /> : null}
      {view.canChange ? <BulkForm view={view} w={w} /> : <p className="alert alert--info">{w("bulk.read_only")}</p>}
    </main>
  );
}
