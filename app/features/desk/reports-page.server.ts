/** The month report (decision 152): `?month=YYYY-MM`, this month (the hotel's) by default; a month not written so is said so, in the page's language. */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { HotelApiError } from "~/contract/client";
import { todayIn } from "~/domain/dates";
import { MONTH, monthOf } from "~/domain/months";
import { requireDeskStaff } from "./guard.server";

export async function loadReportsPage(args: { request: Request; context: AppLoadContext }) {
  const access = await requireDeskStaff(args);
  const asked = new URL(args.request.url).searchParams.get("month");
  const { app } = args.context;
  const month = asked && MONTH.test(asked) ? asked : monthOf(todayIn(app.hotel?.time_zone ?? "Asia/Taipei"));
  try {
    return { month, report: await app.api.deskMonthReport(access.session, month), error: asked && asked !== month ? "month" : null };
  } catch (error) {
    if (error instanceof HotelApiError && error.status === 400) return { month, report: null, error: "month" };
    throw error;
  }
}
