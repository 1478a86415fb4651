import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { StaffPage } from "~/features/desk/StaffPage";
import { loadStaffPage, staffPageAction } from "~/features/desk/staff-page.server";
import { deskTitle } from "~/features/desk/words";

/** /desk/staff (owner): the team, invitations, roles, removal (features/desk/staff-page.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return loadStaffPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return staffPageAction(args);
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "staff.title") }];

export default function DeskStaff() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return <StaffPage view={acted ?? loaded} />;
}
