import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AuditPage } from "~/features/desk/AuditPage";
import { loadAuditPage } from "~/features/desk/audit-page.server";
import { deskTitle } from "~/features/desk/words";

/** /desk/audit (owner): the audit log, newest first, read only (features/desk/audit-page.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return loadAuditPage(args);
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "audit.title") }];

export default function DeskAudit() {
  return <AuditPage page={useLoaderData<typeof loader>()} />;
}
