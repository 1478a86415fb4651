/**
 * With JavaScript, a form whose action already knows the next page's data hands it over with its
 * answer, so the next page is shown without asking the server again (issue 26, decision 127):
 * placing a booking is then one round trip, where without JavaScript it is two (the POST, then the
 * 303's GET). The action's client side keeps the data for the address it leads to
 * (`handOver`); that route's `clientLoader` takes it (`takeHandedOver`), and the loaders of what
 * every page shares are not asked again for that address (`handedOver`, in
 * `sharedDataRevalidation`). One entry at most, taken once: a reload, back or any later visit asks
 * the server as before.
 */

export interface HandOff<Data> {
  /** The same-origin address the action leads to (path and query), as its redirect would. */
  path: string;
  /** The next page's loader data, exactly as its loader answers it for this request. */
  page: Data;
}

let pending: { key: string; page: unknown } | null = null;

const keyOf = (url: URL) => `${url.pathname}${url.search}`;

/** Is the answer of an action a hand-off (rather than a reply for the same page)? */
export function isHandOff(value: unknown): value is { handoff: HandOff<unknown> } {
  if (typeof value !== "object" || value === null || !("handoff" in value)) return false;
  const handoff = (value as { handoff: unknown }).handoff;
  return typeof handoff === "object" && handoff !== null && typeof (handoff as { path: unknown }).path === "string";
}

/** Keeps the next page's data for its address; the caller then redirects there. */
export function handOver(handoff: HandOff<unknown>): void {
  pending = { key: keyOf(new URL(handoff.path, window.location.href)), page: handoff.page };
}

/** Is data waiting for this address? (The shared loaders then need not run again.) */
export function handedOver(url: URL): boolean {
  return pending !== null && pending.key === keyOf(url);
}

/** The data handed over for this address, once; undefined when there is none. */
export function takeHandedOver<Data>(url: URL): Data | undefined {
  if (pending === null || pending.key !== keyOf(url)) return undefined;
  const { page } = pending;
  pending = null;
  return page as Data;
}
