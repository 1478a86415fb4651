import type { MetaFunction } from "@remix-run/cloudflare";
import { NotFound } from "~/ui/NotFound";
import { notFound } from "~/platform/not-found.server";

/** Any path the site does not know: the 404 page, with HTTP status 404. */
export async function loader() {
  throw notFound();
}

export const meta: MetaFunction = () => [{ title: "404" }];

export default function UnknownPath() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
