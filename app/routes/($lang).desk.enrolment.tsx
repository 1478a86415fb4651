import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EnrolmentPage } from "~/features/desk/EnrolmentPage";
import { enrolmentAction, loadEnrolment } from "~/features/desk/enrolment.server";
import { deskTitle } from "~/features/desk/words";

/** /desk/enrolment: the authenticator set up, then the recovery codes shown once (features/desk/enrolment.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return loadEnrolment(args);
}

export async function action(args: ActionFunctionArgs) {
  return enrolmentAction(args);
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "enrol.title") }];

export default function DeskEnrolment() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return <EnrolmentPage view={acted ?? loaded} />;
}
