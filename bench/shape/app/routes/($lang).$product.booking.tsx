import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Page } from "../generated/page";
import { pageData } from "../generated/data";

/**
 * The booking page's data. With the bench's simulated back end (SHAPE_LATENCY_MS) the loader waits
 * that long once: a search needs one round trip to the back end, whatever the page does. With
 * `floor_d1` in the query it also makes one D1 call (SELECT 1, in a session as Portico reads): the
 * least a page that reads its data from D1 pays for it, which under Miniflare is a Durable Object
 * call in the same engine (scripts/bench.mjs, decision 130).
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { latencyMs = 0, db } = context as { latencyMs?: number; db?: D1Database };
  if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
  if (db && new URL(request.url).searchParams.has("floor_d1"))
    await db.withSession("first-unconstrained").prepare("SELECT 1 AS one").first();
  return pageData;
}

export default function BookingShape() {
  useLoaderData<typeof loader>();
  return <Page />;
}
