/**
 * A hotel's e-invoice configuration (the hotel file's `invoicing`, stored in hotel_invoicing) and
 * the provider it names (decision 159). The sandbox runs only where the test gateway may
 * (`testGateway`: local hosts, or a staging site with ALLOW_TEST_GATEWAY); ECPay's keys come from
 * the Worker secrets the file names.
 */
import type { AllowanceMode, Issuer } from "~/domain/einvoice/machine";
import { isLocalHost } from "~/lib/hosts";
import { ecpayEinvoice } from "~/backend/einvoice/ecpay.server";
import type { EinvoiceProvider, EinvoiceProviderName, Fetcher } from "~/backend/einvoice/provider";
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
    .prepare("SELECT hi.*, h.domain FROM hotel_invoicing hi JOIN hotels h ON h.id = hi.hotel_id WHERE hi.hotel_id = ?")
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

/** The provider a hotel's invoicing names; a clear configuration error when its keys are missing or it may not run here. */
export function einvoiceProvider(config: HotelInvoicing, deps: EinvoiceDeps, now?: () => Date): EinvoiceProvider {
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
  return ecpayEinvoice({
    keys: { merchantId: config.merchant_id, hashKey: key("hash_key"), hashIv: key("hash_iv") },
    mode: config.mode,
    fetcher: deps.fetcher,
    now,
  });
}
