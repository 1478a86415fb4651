/**
 * The staff page (owner only; decision 149): the team, each row with its role form and its remove
 * form, and the invitation form. Every form carries its own one-time key; a change answers with a
 * redirect back (Post/Redirect/Get) saying what was done, or the page again with the refusal.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { DeskStaffMember } from "~/contract/desk-staff-schemas";
import { requireDeskStaff } from "./guard.server";
import { deskCsrf, field, newFormKey, readDeskForm, refusalMessage } from "./forms.server";
import { deskPath } from "./paths";
import { deskWord } from "./words";

type Args = { request: Request; context: AppLoadContext };

const ROLES = ["owner", "front_desk", "read_only"] as const;
type Role = (typeof ROLES)[number];
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export const DONE = ["invite", "role", "remove", "already"] as const;
export type Done = (typeof DONE)[number];

export interface StaffPageView {
  csrf: string;
  me: number;
  staff: (DeskStaffMember & { roleKey: string; removeKey: string })[];
  inviteKey: string;
  done: Done | null;
  doneEmail: string;
  error: string | null;
  values: { email: string; name: string; role: Role };
}

async function view(args: Args, change: Partial<StaffPageView> = {}): Promise<StaffPageView> {
  const access = await requireDeskStaff(args, ["owner"]);
  const { csrf } = await deskCsrf(args.request, args.context);
  const { staff } = await args.context.app.api.deskStaff(access.session);
  const url = new URL(args.request.url);
  const done = url.searchParams.get("done");
  return {
    csrf,
    me: access.staff.id,
    staff: staff.map((member) => ({ ...member, roleKey: newFormKey(), removeKey: newFormKey() })),
    inviteKey: newFormKey(),
    done: (DONE as readonly string[]).includes(done ?? "") ? (done as Done) : null,
    doneEmail: (url.searchParams.get("email") ?? "").slice(0, 200),
    error: null,
    values: { email: "", name: "", role: "front_desk" },
    ...change,
  };
}

export async function loadStaffPage(args: Args) {
  const { headers } = await deskCsrf(args.request, args.context);
  return data(await view(args), { headers });
}

export async function staffPageAction(args: Args) {
  const { app } = args.context;
  const access = await requireDeskStaff(args, ["owner"]);
  const form = await readDeskForm(args.request, args.context);
  if (!form) return data(await view(args, { error: deskWord(app.lang, "error.form_expired") }), { status: 403 });
  const intent = field(form, "intent", 20);
  const formKey = field(form, "form_key", 64);
  const staffId = Number(field(form, "staff_id", 12));
  const role = field(form, "role", 20);
  const values = {
    email: field(form, "email", 200).trim(),
    name: field(form, "name", 100).trim(),
    role: isRole(role) ? role : "front_desk",
  };
  const back = (done: Done, email = "") =>
    redirect(`${deskPath(app.lang, "/staff")}?${new URLSearchParams(email ? { done, email } : { done })}`);
  try {
    if (intent === "invite") {
      if (!isRole(role)) throw new RangeError("role");
      const answer = await app.api.deskInvite(access.session, { form_key: formKey, email: values.email, name: values.name, role });
      return back(answer.already_done ? "already" : "invite", values.email);
    }
    if (intent === "role" && isRole(role)) {
      const answer = await app.api.deskChangeRole(access.session, { form_key: formKey, staff_id: staffId, role });
      return back(answer.already_done ? "already" : "role");
    }
    if (intent === "remove") {
      const answer = await app.api.deskRemoveStaff(access.session, { form_key: formKey, staff_id: staffId });
      return back(answer.already_done ? "already" : "remove");
    }
    return data(await view(args, { error: deskWord(app.lang, "error.form_expired"), values }), { status: 400 });
  } catch (error) {
    const message = error instanceof RangeError ? deskWord(app.lang, "error.form_expired") : refusalMessage(error);
    return data(await view(args, { error: message, values }), { status: 400 });
  }
}
