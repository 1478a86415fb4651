/**
 * The per-request services, built once by the Worker entry and handed to every loader and action
 * through the load context. Routes never build clients or read D1 themselves.
 */
import type { AppEnv } from "~/env.server";
import { HotelApi, type Transport } from "~/hotel-api/client";
import type { HotelInfo } from "~/hotel-api/schemas";
import { readMemberToken } from "~/cookies.server";
import { getHotelInfo } from "~/hotel-cache.server";
import { DEFAULT_LANGUAGE, languageFromPath, type Language } from "~/i18n/languages";

export interface AppContext {
  env: AppEnv;
  /** The request's host without port, and the hotel domain it maps to. */
  host: string;
  domain: string;
  /** The hotel served at this domain, or null when none is. */
  hotel: HotelInfo | null;
  /** The language named by the path; null when the path has an unknown language prefix. */
  lang: Language;
  langValid: boolean;
  /** The API client for this request; it carries the member token when one is saved (and the hotel's member system is on). */
  api: HotelApi;
  /** A member token is saved for this hotel (spec §4: login state). The back end decides whether it is still valid. */
  signedIn: boolean;
  cspNonce: string;
  waitUntil: (promise: Promise<unknown>) => void;
  /** A POST whose Origin is another site's: every form action refuses it (docs/decisions/017). */
  crossSite: boolean;
}

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    app: AppContext;
  }
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The hotel domain of a request: its host without port; plain localhost is the default hotel. */
export function hotelDomainFor(host: string, defaultDomain: string): string {
  const bare = host.toLowerCase().replace(/:\d+$/, "");
  if (LOCAL_HOSTS.has(bare) && defaultDomain) return defaultDomain;
  return bare;
}

export interface ContextInput {
  request: Request;
  env: AppEnv;
  transport: Transport;
  apiOrigin: string;
  masterBase: string;
  waitUntil: (promise: Promise<unknown>) => void;
  cspNonce: string;
  crossSite?: boolean;
}

export async function createAppContext(input: ContextInput): Promise<AppContext> {
  const url = new URL(input.request.url);
  const host = url.host.replace(/:\d+$/, "");
  const domain = hotelDomainFor(host, input.env.DEFAULT_HOTEL_DOMAIN);
  const fromPath = languageFromPath(url.pathname);
  const lang = fromPath?.language ?? DEFAULT_LANGUAGE;
  const options = { transport: input.transport, origin: input.apiOrigin, masterBase: input.masterBase, domain, lang };
  // Hotel info is the same for every guest (and cached at the edge): fetched without the token.
  const hotel = await getHotelInfo(domain, lang, () => new HotelApi(options).hotelInfo(), input.waitUntil);
  const memberToken = hotel && !hotel.close_member_system ? await readMemberToken(input.request, input.env, domain) : null;
  const api = new HotelApi({ ...options, memberToken });
  return {
    env: input.env,
    host,
    domain,
    hotel,
    lang,
    langValid: fromPath !== null,
    api,
    signedIn: memberToken !== null,
    cspNonce: input.cspNonce,
    waitUntil: input.waitUntil,
    crossSite: input.crossSite ?? false,
  };
}
