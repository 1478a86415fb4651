/** The audit log page (owner only; decision 149): a page of entries, newest first, and a link to the older ones. */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { requireDeskStaff } from "./guard.server";

export async function loadAuditPage(args: { request: Request; context: AppLoadContext }) {
  const access = await requireDeskStaff(args, ["owner"]);
  const before = Number(new URL(args.request.url).searchParams.get("before") ?? "");
  const page = await args.context.app.api.deskAudit(access.session, Number.isSafeInteger(before) && before > 0 ? before : null);
  return { ...page, first: !(before > 0) };
}
