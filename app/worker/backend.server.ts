/** Step 3 of the pipeline: the built-in back end, mounted in process (or reached over HTTP when origins are set), and what it gets besides the database. */
import { handleBackendRequest, type BackendOptions } from "~/backend/router.server";
import { type AppEnv } from "~/platform/env.server";
import type { Transport } from "~/contract/client";
import { type Logger } from "~/platform/log.server";
import { isLocalHost } from "~/lib/hosts";
import { isBackendPath } from "~/backend/router.server";
import { handleSandbox, isSandboxPath } from "~/backend/payments/sandbox/sandbox.server";
import { handleEinvoiceSandbox, isEinvoiceSandboxPath } from "~/backend/einvoice/sandbox-consent.server";
import { EINVOICE_SECRET_NAME } from "~/backend/einvoice/provider";
import { deliverMailSoon } from "~/backend/mail/deliver.server";
import { isOutboxPath, outboxPage } from "~/backend/mail/outbox-page.server";
import { PRIVATE_NO_STORE, securityHeaders } from "~/platform/security.server";

/** How the site reaches its back end: in-process by default, over HTTP when an origin is set. */
const IN_PROCESS_ORIGIN = "https://backend.internal";

/** Where the site finds the spec's services: the /api origin and the {master}, {account} and {pms} bases. */
export interface BackendBases {
  origin: string;
  masterBase: string;
  accountBase: string;
  pmsBase: string;
}

/**
 * How the site reaches its back end: in-process by default; over HTTP to HOTEL_API_ORIGIN (the
 * /api calls), MASTER_ORIGIN, ACCOUNT_ORIGIN and PMS_ORIGIN (the spec's {master}, {account} and
 * {pms}) when they are set. An unset base is served by the same back end as /api.
 */
/**
 * What the built-in back end gets besides the database: Worker secrets by name (payment keys named
 * in a hotel file; only PAY_*, ECPAY_EINVOICE_* and EZPAY_EINVOICE_* names), the guest's address, fetch and waitUntil, FEATURE_REPAY.
 */
export function backendOptions(
  env: AppEnv,
  rawEnv: Record<string, unknown>,
  extra: { clientIp?: string; waitUntil?: (promise: Promise<unknown>) => void; siteOrigin?: string; log?: Logger } = {},
): BackendOptions {
  const siteHost = extra.siteOrigin ? new URL(extra.siteOrigin).hostname : "";
  return {
    db: env.DB,
    signingSecret: env.SESSION_SECRET,
    secret: (name) => {
      // Payment keys (PAY_*) and e-invoice keys (ECPAY_EINVOICE_*, EZPAY_EINVOICE_*: decisions 159, 171): the names a hotel file may give.
      const value = /^PAY_[A-Z0-9_]+$/.test(name) || EINVOICE_SECRET_NAME.test(name) ? rawEnv[name] : undefined;
      return typeof value === "string" && value !== "" ? value : undefined;
    },
    clientIp: extra.clientIp ?? "",
    waitUntil: extra.waitUntil,
    featureRepay: env.FEATURE_REPAY,
    // The site's own origin, so links the back end writes (emails) lead back to this hotel's site.
    site: extra.siteOrigin ? { origin: extra.siteOrigin, product: env.PRODUCT } : undefined,
    // The test gateway takes no money: this machine's hosts, or a staging deployment that opted in (decision 047).
    testGateway: env.ALLOW_TEST_GATEWAY || (siteHost !== "" && isLocalHost(siteHost)),
    // The request's logger: the back end's lines carry the same request id as the site's.
    log: extra.log,
  };
}

export function backendTransport(
  env: AppEnv,
  fetcher: typeof fetch = fetch,
  db: D1Database = env.DB,
  options: Omit<BackendOptions, "db"> = { signingSecret: env.SESSION_SECRET },
): BackendBases & { transport: Transport } {
  const origin = env.HOTEL_API_ORIGIN || IN_PROCESS_ORIGIN;
  const masterBase = env.MASTER_ORIGIN || `${origin}/master`;
  const accountBase = env.ACCOUNT_ORIGIN || `${origin}/account`;
  const pmsBase = env.PMS_ORIGIN || `${origin}/pms`;
  // In process, the back end hands its answers over as values (decision 131).
  const inProcess = (request: Request) => handleBackendRequest(request, { ...options, db, handOver: true });
  // Every call over the network ends after HOTEL_API_TIMEOUT_MS, answer body included (decision 024).
  const external = (request: Request) => fetcher(new Request(request, { signal: AbortSignal.timeout(env.HOTEL_API_TIMEOUT_MS) }));
  const send: Transport = (request) => (new URL(request.url).origin === IN_PROCESS_ORIGIN ? inProcess(request) : external(request));
  // The bench's far-away back end (BENCH_BACKEND_LATENCY_MS, unset in production): every call waits first.
  const latency = env.BENCH_BACKEND_LATENCY_MS;
  return {
    origin,
    masterBase,
    accountBase,
    pmsBase,
    transport: latency > 0 ? (request) => new Promise((resolve) => setTimeout(resolve, latency)).then(() => send(request)) : send,
  };
}

/**
 * Step 3: the development outbox page (only when configured, and only on this machine), the
 * built-in back end, and the test gateway; null for a request of the site.
 */
export async function serveBackend(
  request: Request,
  url: URL,
  env: AppEnv,
  options: BackendOptions,
  ctx: ExecutionContext,
  log: Logger,
): Promise<Response | null> {
  if (env.MAIL_OUTBOX_PAGE && isLocalHost(url.hostname) && request.method === "GET" && isOutboxPath(url.pathname)) {
    return securityHeaders(await outboxPage(env, url, log), {});
  }
  if (isBackendPath(url.pathname)) {
    const response = await handleBackendRequest(request, options);
    // An order or a cancellation queues email: it leaves after the response. A refused call queued nothing.
    if (request.method === "POST" && response.status < 400) ctx.waitUntil(deliverMailSoon(env, log));
    // Every answer says no-store (JSON) or private, no-store (the account pages); the account
    // service's redirects, which carry a sign-in code, said nothing: no cache keeps them either (issue 37).
    if (response.headers.has("cache-control")) return securityHeaders(response, { api: true });
    const headers = new Headers(response.headers);
    headers.set("cache-control", PRIVATE_NO_STORE);
    return securityHeaders(new Response(response.body, { status: response.status, statusText: response.statusText, headers }), {
      api: true,
    });
  }
  if (isSandboxPath(url.pathname) && options.testGateway) {
    // The built-in test gateway: its callbacks reach this Worker's own routes in process, and only
    // those (never another origin); on a public host it does not exist unless ALLOW_TEST_GATEWAY.
    const response = await handleSandbox(request, {
      signingSecret: env.SESSION_SECRET,
      origin: url.origin,
      waitUntil: (promise) => ctx.waitUntil(promise),
      deliver: (callback) => handleBackendRequest(callback, { ...options, clientIp: "" }),
      log,
    });
    return securityHeaders(response, {});
  }
  if (isEinvoiceSandboxPath(url.pathname) && options.testGateway) {
    // The invoice sandbox's consent page (decision 167): like the test gateway, only where it may run;
    // its callback reaches this Worker's own consent route in process, and only that.
    const response = await handleEinvoiceSandbox(request, {
      db: env.DB,
      signingSecret: env.SESSION_SECRET,
      origin: url.origin,
      waitUntil: (promise) => ctx.waitUntil(promise),
      deliver: (callback) => handleBackendRequest(callback, { ...options, clientIp: "" }),
      log,
    });
    return securityHeaders(response, {});
  }
  return null;
}
