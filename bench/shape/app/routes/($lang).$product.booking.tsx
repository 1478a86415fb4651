import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Page } from "../generated/page";
import { pageData } from "../generated/data";

/**
 * The booking page's data. With the bench's simulated back end (SHAPE_LATENCY_MS) the loader waits
 * that long once: a search needs one round trip to the back end, whatever the page does.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const latency = (context as { latencyMs?: number }).latencyMs ?? 0;
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
  return pageData;
}

export default function BookingShape() {
  useLoaderData<typeof loader>();
  return <Page />;
}
