/**
 * The desk's calendar page (decision 156): `?month=YYYY-MM` (the hotel's this month by default) and
 * `?room=<id>` (one room class: what a phone shows), the month's grid from the staff API, and the
 * bulk change's two POSTs: `intent=preview` answers the page with the preview (nothing written),
 * `intent=apply` sends the preview's digest and the form's one-time key, then redirects back
 * (Post/Redirect/Get) with what was done in a signed 60-second cookie; a refusal answers the page
 * again with the back end's words and the form as it was.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { HotelApiError } from "~/contract/client";
import type { DeskBulkChangeInput, DeskBulkPreview, DeskCalendar } from "~/contract/desk-calendar-schemas";
import { addMonths, todayIn } from "~/domain/dates";
import { BULK_CHANGES, type BulkChangeKind } from "~/domain/bulk-change";
import { MONTH, monthOf } from "~/domain/months";
import type { Language } from "~/i18n/languages";
import { safeCookie } from "~/platform/cookies.server";
import type { AppEnv } from "~/platform/env.server";
import { requireDeskStaff } from "./guard.server";
import { deskCsrf, field, newFormKey, readDeskForm } from "./forms.server";
import { deskPath } from "./paths";
import { ACTING_ROLES } from "./booking-actions";
import { calendarWord } from "./calendar-words";

type Args = { request: Request; context: AppLoadContext };

/** The bulk form's fields as typed (so a refused form comes back as it was). */
export interface BulkFormValues {
  from: string;
  to: string;
  weekdays: number[];
  room_class_ids: number[];
  plans: string[];
  change: BulkChangeKind;
  value: string;
}

export interface CalendarView {
  lang: Language;
  month: string;
  previous: string;
  next: string;
  calendar: DeskCalendar;
  /** The one room class shown (a phone's view), or null for all. */
  room: number | null;
  canChange: boolean;
  csrf: string;
  values: BulkFormValues;
  preview: DeskBulkPreview | null;
  /** The apply form's one-time key. */
  applyKey: string;
  error: string | null;
  notice: { outcome: "done" | "already_done"; rows: number } | null;
}

const NoticeSchema = v.object({ outcome: v.picklist(["done", "already_done"]), rows: v.number() });
const noticeCookie = (env: AppEnv) =>
  safeCookie("desk_calendar_notice", {
    httpOnly: true,
    secure: true,
    sameSite: "strict",
    path: "/",
    maxAge: 60,
    secrets: [env.SESSION_SECRET],
  });

const isChange = (value: string): value is BulkChangeKind => (BULK_CHANGES as readonly string[]).includes(value);
const wholeNumbers = (values: FormDataEntryValue[]) =>
  values.map((value) => Number(value)).filter((value) => Number.isInteger(value) && value >= 0 && value < 1e9);

/** The form's values, and what the staff API is asked (an amount that is not a number is sent as none: the API says what it needs). */
function readBulkForm(form: FormData): { values: BulkFormValues; input: DeskBulkChangeInput } {
  const change = field(form, "change", 40);
  const value = field(form, "value", 20).trim();
  const values: BulkFormValues = {
    from: field(form, "from", 10),
    to: field(form, "to", 10),
    weekdays: wholeNumbers(form.getAll("weekday")).filter((day) => day <= 6),
    room_class_ids: wholeNumbers(form.getAll("room")),
    plans: form
      .getAll("plan")
      .map(String)
      .filter((pair) => /^\d{1,9}:\d{1,9}$/.test(pair))
      .slice(0, 2000),
    change: isChange(change) ? change : "price_set",
    value,
  };
  const amount = value === "" ? null : Number(value);
  return {
    values,
    input: {
      from: values.from,
      to: values.to,
      weekdays: values.weekdays,
      room_class_ids: values.room_class_ids,
      plans: values.plans,
      change: values.change,
      value: amount !== null && Number.isFinite(amount) ? amount : null,
    },
  };
}

function defaults(month: string, today: string): BulkFormValues {
  const first = `${month}-01`;
  const last = addMonths(first, 1);
  const from = first < today ? today : first;
  const lastNight = new Date(Date.parse(`${last}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return {
    from,
    to: lastNight < from ? from : lastNight,
    weekdays: [0, 1, 2, 3, 4, 5, 6],
    room_class_ids: [],
    plans: [],
    change: "price_set",
    value: "",
  };
}

async function view(
  args: Args,
  month: string | null,
  change: Partial<CalendarView> = {},
): Promise<{ view: CalendarView; setCookie: string[] }> {
  const access = await requireDeskStaff(args);
  const { app } = args.context;
  const url = new URL(args.request.url);
  const today = todayIn(app.hotel?.time_zone ?? "Asia/Taipei");
  const asked = month ?? url.searchParams.get("month");
  const shown = asked && MONTH.test(asked) ? asked : monthOf(today);
  const [calendar, csrf, notice] = await Promise.all([
    app.api.deskCalendar(access.session, shown),
    deskCsrf(args.request, args.context),
    noticeCookie(app.env).parse(args.request.headers.get("cookie")),
  ]);
  const room = Number(url.searchParams.get("room"));
  const parsedNotice = v.safeParse(NoticeSchema, notice);
  const setCookie = [
    ...(csrf.headers ? [csrf.headers["set-cookie"]] : []),
    ...(parsedNotice.success ? [await noticeCookie(app.env).serialize("", { maxAge: 0 })] : []),
  ];
  return {
    view: {
      lang: app.lang,
      month: shown,
      previous: addMonths(`${shown}-01`, -1).slice(0, 7),
      next: addMonths(`${shown}-01`, 1).slice(0, 7),
      calendar,
      room: calendar.room_classes.some((each) => each.id === room) ? room : null,
      canChange: (ACTING_ROLES as readonly string[]).includes(access.staff.role),
      csrf: csrf.csrf,
      values: defaults(shown, today),
      preview: null,
      applyKey: newFormKey(),
      error: null,
      notice: parsedNotice.success ? parsedNotice.output : null,
      ...change,
    },
    setCookie,
  };
}

function answer(shown: { view: CalendarView; setCookie: string[] }, status = 200) {
  const headers = new Headers();
  for (const cookie of shown.setCookie) headers.append("set-cookie", cookie);
  return data(shown.view, { status, headers });
}

export async function loadCalendarPage(args: Args) {
  return answer(await view(args, null));
}

export async function calendarPageAction(args: Args) {
  const { app } = args.context;
  const access = await requireDeskStaff(args, ACTING_ROLES);
  const form = await readDeskForm(args.request, args.context);
  if (!form) return answer(await view(args, null, { error: calendarWord(app.lang, "error.form") }), 403);
  const { values, input } = readBulkForm(form);
  const month = /^\d{4}-\d{2}-\d{2}$/.test(values.from) ? values.from.slice(0, 7) : null;
  const intent = field(form, "intent", 10);
  try {
    if (intent === "apply") {
      const done = await app.api.deskCalendarApply(access.session, input, field(form, "digest", 64), field(form, "form_key", 64));
      return redirect(`${deskPath(app.lang, "/calendar")}?month=${month ?? ""}`, {
        status: 303,
        headers: { "set-cookie": await noticeCookie(app.env).serialize({ outcome: done.outcome, rows: done.rows }) },
      });
    }
    const preview = await app.api.deskCalendarPreview(access.session, input);
    return answer(await view(args, month, { values, preview }));
  } catch (error) {
    if (!(error instanceof HotelApiError) || error.isUnavailable) throw error;
    if (error.status === 401) throw redirect(deskPath(app.lang, "/sign-in"));
    return answer(await view(args, month, { values, error: error.message }), 400);
  }
}
