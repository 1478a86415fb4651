/**
 * A hotel's e-invoice configuration (the hotel file's `invoicing`, stored in hotel_invoicing) and
 * the provider it names (decision 159). The sandbox runs only where the test gateway may
 * (`testGateway`: local hosts, or a staging site with ALLOW_TEST_GATEWAY); ECPay's and ezPay's keys
 * (decision 171) come from the Worker secrets the file names.
 */
import type { AllowanceMode, Issuer } from "~/domain/einvoice/machine";
import { isLocalHost } from "~/lib/hosts";
import { ecpayEinvoice } from "~/backend/einvoice/ecpay.server";
import { ezpayEinvoice } from "~/backend/einvoice/ezpay.server";
import { failure, type EinvoiceProvider, type EinvoiceProviderName, type Fetcher, type ProviderAnswer } from "~/backend/einvoice/provider";
import { sandboxEinvoice } from "~/backend/einvoice/sandbox.server";
import type { BackendContext } from "~/backend/route";

export interface HotelInvoicing {
  hotel_id: number;
  /** The hotel's domain: a hotel only this machine reaches (*.localhost) may use the sandbox from the Cron too. */
  domain: string;
  issuer: Issuer;
  provider: EinvoiceProviderName;
  mode: "test" | "production";
  seller_tax_id: string;
  merchant_id: string;
  secrets: { hash_key?: string; hash_iv?: string };
  /** How allowances are made: at once, or by the buyer's emailed consent (decision 167). */
  allowance_mode: AllowanceMode;
  /** Until when the hotel's provider is left alone after an HTTP 403 (decision 170), or null. */
  provider_rest_until: string | null;
}

/** AllowanceByCollegiate's ReturnURL for a hotel: its own domain, the back end's consent callback (decision 167). */
export function consentCallbackPath(hotelId: number): string {
  return `/api/einvoice/allowance-consent/${hotelId}`;
}

export function consentReturnUrl(config: Pick<HotelInvoicing, "hotel_id" | "domain">): string {
  return `https://${config.domain}${consentCallbackPath(config.hotel_id)}`;
}

export interface EinvoiceDeps {
  db: D1Database;
  /** Worker secrets by name (only the names a hotel file may give reach here). */
  secret: (name: string) => string | undefined;
  fetcher: Fetcher;
  /** Whether the built-in test gateway (and so the e-invoice sandbox) may run here. */
  testGateway: boolean;
}

/** The e-invoice runner's needs from a request (the staff API's, a payment's callback). */
export function requestEinvoiceDeps(ctx: Pick<BackendContext, "db" | "secret" | "fetcher" | "testGateway">): EinvoiceDeps {
  return { db: ctx.db, secret: ctx.secret, fetcher: ctx.fetcher, testGateway: ctx.testGateway };
}

export class EinvoiceConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EinvoiceConfigError";
  }
}

/** The hotel's invoicing, or null: Portico issues nothing for it. */
export async function hotelInvoicing(db: D1Database, hotelId: number): Promise<HotelInvoicing | null> {
  const row = await db
    .prepare(
      `SELECT hi.*, h.domain, r.until AS provider_rest_until
       FROM hotel_invoicing hi JOIN hotels h ON h.id = hi.hotel_id LEFT JOIN einvoice_provider_rest r ON r.hotel_id = hi.hotel_id
       WHERE hi.hotel_id = ?`,
    )
    .bind(hotelId)
    .first<Omit<HotelInvoicing, "secrets"> & { secrets: string }>();
  if (!row) return null;
  let secrets: HotelInvoicing["secrets"] = {};
  try {
    secrets = JSON.parse(row.secrets) as HotelInvoicing["secrets"];
  } catch {
    secrets = {};
  }
  return { ...row, secrets };
}

/**
 * The provider a hotel's invoicing names, resting after an HTTP 403 (decision 170); a clear
 * configuration error when its keys are missing or it may not run here.
 */
export function einvoiceProvider(config: HotelInvoicing, deps: EinvoiceDeps, now?: () => Date): EinvoiceProvider {
  return restingAfter403(adapterOf(config, deps, now), deps.db, config, now ?? (() => new Date()));
}

/** How long a hotel's provider is left alone after it answered HTTP 403 ("too fast": ECPay asks for 30 minutes). */
export const PROVIDER_REST_MS = 30 * 60_000;

/**
 * Every call of a hotel's provider, kept from ECPay's "too fast" (decision 170): a call answered
 * HTTP 403 puts the hotel's provider to rest for 30 minutes (`einvoice_provider_rest`), and until
 * then no call of any kind is made for that hotel; each is answered `rate_limited` at once, as the
 * provider would, so the queue waits, a booking's remote check says nothing and books, and the desk
 * says why. The rest read with the configuration is enough: a call that slips through in the same
 * moment meets the provider's own 403. Writing the rest never fails the call.
 */
function restingAfter403(provider: EinvoiceProvider, db: D1Database, config: HotelInvoicing, now: () => Date): EinvoiceProvider {
  let restUntil = config.provider_rest_until ? Date.parse(config.provider_rest_until) : 0;
  const guarded = {} as Record<string, unknown>;
  for (const [name, call] of Object.entries(provider) as [string, (...args: unknown[]) => Promise<ProviderAnswer<unknown>>][]) {
    guarded[name] = async (...args: unknown[]) => {
      const at = now().getTime();
      if (at < restUntil)
        return failure(
          "rate_limited",
          "403",
          `${name}: not asked: the provider answered HTTP 403, resting until ${new Date(restUntil).toISOString()}`,
        );
      const answer = await call(...args);
      if (!answer.ok && answer.kind === "rate_limited") {
        restUntil = Math.max(restUntil, at + PROVIDER_REST_MS);
        const until = new Date(restUntil).toISOString();
        await db
          .prepare(
            `INSERT INTO einvoice_provider_rest (hotel_id, until, reason) VALUES (?1, ?2, ?3)
             ON CONFLICT (hotel_id) DO UPDATE SET until = max(until, excluded.until), reason = excluded.reason`,
          )
          .bind(config.hotel_id, until, `${name}: ${answer.message}`.slice(0, 300))
          .run()
          .catch(() => undefined);
      }
      return answer;
    };
  }
  return guarded as unknown as EinvoiceProvider;
}

function adapterOf(config: HotelInvoicing, deps: EinvoiceDeps, now?: () => Date): EinvoiceProvider {
  if (config.provider === "sandbox") {
    // The Cron serves every hotel with no request's host: a hotel on this machine's own hosts may run it, as its requests may.
    const allowed = deps.testGateway || isLocalHost(config.domain);
    return sandboxEinvoice({ db: deps.db, hotelId: config.hotel_id, allowed, now });
  }
  const key = (role: "hash_key" | "hash_iv") => {
    const name = config.secrets[role];
    const value = name ? deps.secret(name) : undefined;
    if (!value)
      throw new EinvoiceConfigError(`e-invoice: the Worker secret for ${role} (${name ?? "not named in the hotel file"}) is not set`);
    return value;
  };
  const options = {
    keys: { merchantId: config.merchant_id, hashKey: key("hash_key"), hashIv: key("hash_iv") },
    mode: config.mode,
    fetcher: deps.fetcher,
    now,
  };
  return config.provider === "ezpay" ? ezpayEinvoice(options) : ecpayEinvoice(options);
}
