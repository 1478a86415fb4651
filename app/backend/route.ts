/** The shapes the built-in back end's handlers share; the router and every capability import them from here. */
import type { Language } from "~/i18n/languages";
import type { Logger } from "~/platform/log.server";

/** What every handler of the built-in back end gets. */
export interface BackendContext {
  request: Request;
  url: URL;
  db: D1Database;
  lang: Language;
  /** Secret for signing order links (HMAC). */
  signingSecret: string;
  /** The moment the request is handled; tests may fix it. */
  now: Date;
  /** A Worker secret by name (payment gateway keys named in the hotel file); never stored anywhere. */
  secret: (name: string) => string | undefined;
  /** The guest's address ("" when unknown): the unpaid-order limit counts by it. */
  clientIp: string;
  /** fetch, for the payment gateways' APIs. */
  fetcher: (request: Request) => Promise<Response>;
  /** Keeps work going after the answer (ctx.waitUntil); runs it inline when there is no Worker context. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** FEATURE_REPAY (spec §9). */
  featureRepay: boolean;
  /** The hotel site the request came through: where links in emails point (origin and {product}). */
  site: SiteAddress;
  /**
   * Whether the built-in test gateway may take "payments" here: on this machine's own hosts, or on a
   * deployment that opted in with ALLOW_TEST_GATEWAY (a staging site; decision 047).
   */
  testGateway: boolean;
  /**
   * The request's logger: every line carries the request id, the same one the site's lines of this
   * request carry (and the x-request-id header); a cron run's id for the scheduled work.
   */
  log: Logger;
}

export interface SiteAddress {
  origin: string;
  product: string;
}

export type Handler = (ctx: BackendContext, params: Record<string, string>) => Promise<Response>;

export interface BackendRoute {
  method: "GET" | "POST";
  /** A path like /api/wota/order/cancel_apply/:id */
  path: string;
  handler: Handler;
}
