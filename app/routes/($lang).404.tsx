import type { MetaFunction } from "@remix-run/cloudflare";
import { NotFound } from "~/ui/NotFound";
import { notFound } from "~/platform/not-found.server";

/** /404: the not-found page itself (spec §2), answered with status 404. */
export async function loader() {
  throw notFound();
}

export const meta: MetaFunction = () => [{ title: "404" }];

export default function NotFoundPage() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
