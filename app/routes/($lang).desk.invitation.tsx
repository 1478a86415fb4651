import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { InvitationPage } from "~/features/desk/InvitationPage";
import { invitationAction, loadInvitation } from "~/features/desk/invitation.server";
import { deskTitle } from "~/features/desk/words";

/** /desk/invitation?token=…: the emailed invitation accepted with a password (features/desk/invitation.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return loadInvitation(args);
}

export async function action(args: ActionFunctionArgs) {
  return invitationAction(args);
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "invitation.title") }];

export default function DeskInvitation() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return <InvitationPage view={acted ?? loaded} />;
}
