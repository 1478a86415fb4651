import { isLocalHost } from "~/lib/hosts";
import { writtenOut } from "~/contract/answers";
import { createLogger, requestIdOf, type Logger } from "~/platform/log.server";
import type { BackendContext, BackendRoute, SiteAddress } from "~/backend/route";
import { ApiError, fail, ok, requestLanguage } from "~/backend/http.server";
import { contentRoutes } from "~/backend/content/content.server";
import { memberRoutes } from "~/backend/account/members.server";
import { accountRoutes } from "~/backend/account/oauth.server";
import { orderRoutes } from "~/backend/orders/orders.server";
import { cancelRoutes } from "~/backend/orders/cancel.server";
import { pricingRoutes } from "~/backend/pricing/routes.server";
import { roomRoutes } from "~/backend/catalogue/rooms.server";
import { stayCalendarRoutes } from "~/backend/catalogue/stay-calendar.server";
import { paymentRoutes } from "~/backend/payments/payments.server";
import { masterRoutes } from "~/backend/payments/master.server";
import { captchaRoutes } from "~/backend/captcha/captcha.server";
import { addonRoutes } from "~/backend/addons/addons.server";
import { orderAddonRoutes } from "~/backend/addons/order-addons.server";
import { railRoutes } from "~/backend/rail/routes.server";
import { staffDeskRoutes } from "~/backend/desk/staff-routes.server";
import { deskActionRoutes } from "~/backend/desk/actions.server";
import { deskBookingRoutes } from "~/backend/desk/bookings.server";
import { deskCalendarRoutes } from "~/backend/desk/calendar.server";
import { einvoiceRoutes } from "~/backend/einvoice/consent.server";

const coreRoutes: BackendRoute[] = [
  // A trivial endpoint: the baseline that benchmarks compare real calls against.
  { method: "GET", path: "/api/health", handler: async () => ok({ status: "ok" }) },
];

/** Every route of the built-in back end; the bad-input corpus (test/worker/bad-input-corpus.test.ts) walks it. */
export const BACKEND_ROUTES: readonly BackendRoute[] = [
  ...coreRoutes,
  ...contentRoutes,
  ...roomRoutes,
  ...stayCalendarRoutes,
  ...pricingRoutes,
  ...orderRoutes,
  ...cancelRoutes,
  ...memberRoutes,
  ...paymentRoutes,
  ...masterRoutes,
  ...accountRoutes,
  ...captchaRoutes,
  ...addonRoutes,
  ...orderAddonRoutes,
  ...railRoutes,
  ...staffDeskRoutes,
  ...deskActionRoutes,
  ...deskBookingRoutes,
  ...deskCalendarRoutes,
  ...einvoiceRoutes,
];

interface CompiledRoute extends BackendRoute {
  pattern: RegExp;
  names: string[];
}

const COMPILED: CompiledRoute[] = BACKEND_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { ...route, names, pattern: new RegExp(`^${source}/?$`) };
});

export function isBackendPath(pathname: string): boolean {
  return /^\/(api|account|pms|master)(\/|$)/.test(pathname);
}

export interface BackendOptions {
  db: D1Database;
  signingSecret: string;
  now?: Date;
  secret?: (name: string) => string | undefined;
  clientIp?: string;
  fetcher?: (request: Request) => Promise<Response>;
  waitUntil?: (promise: Promise<unknown>) => void;
  featureRepay?: boolean;
  /** The site's origin and {product}; default: the request's own origin and "hxa". */
  site?: SiteAddress;
  /** The built-in test gateway is allowed (local hosts, or ALLOW_TEST_GATEWAY); default: no. */
  testGateway?: boolean;
  /** The request's logger (the Worker passes the site's, so both carry one id); default: one for this request. */
  log?: Logger;
  /**
   * Answers are handed over as values, their text not written (the site's in-process client,
   * decision 131); default: every answer with its JSON text.
   */
  handOver?: boolean;
}

/** Answers one request of the hotel API contract (spec §7) from D1. */
export async function handleBackendRequest(request: Request, options: BackendOptions): Promise<Response> {
  const url = new URL(request.url);
  const lang = requestLanguage(url);
  const candidates = COMPILED.filter((route) => route.pattern.test(url.pathname));
  if (candidates.length === 0) return fail(new ApiError(404, "route_not_found"), lang);
  const route = candidates.find((candidate) => candidate.method === request.method);
  if (!route) {
    const response = fail(new ApiError(405, "method_not_allowed"), lang);
    response.headers.set("allow", candidates.map((candidate) => candidate.method).join(", "));
    return response;
  }
  const match = route.pattern.exec(url.pathname);
  const params: Record<string, string> = {};
  try {
    route.names.forEach((name, index) => {
      params[name] = decodeURIComponent(match?.[index + 1] ?? "");
    });
  } catch {
    // A malformed %-escape in the path names nothing we have.
    return fail(new ApiError(404, "route_not_found"), lang);
  }
  const log = options.log ?? createLogger(requestIdOf(request));
  const ctx: BackendContext = {
    request,
    url,
    db: options.db,
    lang,
    signingSecret: options.signingSecret,
    now: options.now ?? new Date(),
    secret: options.secret ?? (() => undefined),
    clientIp: options.clientIp ?? "",
    fetcher: options.fetcher ?? ((request) => fetch(request)),
    waitUntil: options.waitUntil ?? ((promise) => void promise.catch((error: unknown) => log.error("background work failed", error))),
    featureRepay: options.featureRepay ?? false,
    site: options.site ?? { origin: url.origin, product: "hxa" },
    testGateway: options.testGateway ?? isLocalHost(new URL(options.site?.origin ?? url.origin).hostname),
    log,
  };
  try {
    const response = await route.handler(ctx, params);
    return options.handOver ? response : writtenOut(response);
  } catch (error) {
    if (error instanceof ApiError) return fail(error, lang);
    log.error("backend error", request.method, url.pathname, error);
    return fail(new ApiError(500, "internal_error"), lang);
  }
}
