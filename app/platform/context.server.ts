/**
 * The per-request services, built once by the Worker entry and handed to every loader and action
 * through the load context. Routes never build clients or read D1 themselves.
 */
import type { AppEnv } from "~/platform/env.server";
import { HotelApi, HotelApiError, type Transport } from "~/contract/client";
import type { HotelInfo, MemberProfile } from "~/contract/schemas";
import { readSession, type SessionState } from "~/platform/session.server";
import { getHotelInfo } from "~/platform/edge/hotel-cache.server";
import { DEFAULT_LANGUAGE, languageFromPath, type Language } from "~/i18n/languages";
import type { Logger } from "~/platform/log.server";
import { isLoopbackHost } from "~/lib/hosts";

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
  /**
   * The API client for this request; it carries the member token when one is saved (and the
   * hotel's member system is on). Pages that show or charge member prices use `member()` instead.
   */
  api: HotelApi;
  /**
   * The signed-in member, asked of the back end once per request (decision 023): their profile and
   * the client to price and book with. A token the back end refuses reads as a guest (and the
   * Worker clears the member cookie); so do a missing token and a back end that cannot answer.
   */
  member: () => Promise<MemberSession>;
  /**
   * The sign-in session as saved in this browser (app/features/account/): empty when the hotel's member
   * system is closed. Whether the back end still accepts it is `member()`'s question.
   */
  session: SessionState;
  /** The saved member token was refused by the back end during this request: clear the cookie. */
  memberTokenRefused: () => boolean;
  cspNonce: string;
  /**
   * The request asks for data, not a document (Remix's `.data` requests: a navigation or a form
   * with JavaScript). An action may then answer with the next page's data (decision 127).
   */
  dataRequest: boolean;
  waitUntil: (promise: Promise<unknown>) => void;
  /** A POST whose Origin is another site's: every form action refuses it (docs/decisions/017). */
  crossSite: boolean;
  /** This request's logger: every line carries the request id. */
  log: Logger;
  /**
   * The first back-end call of this request that could not be answered (down, too slow, garbage),
   * or null: a page that fails after one is answered 503 by the Worker (decision 024).
   */
  backendUnavailable: () => HotelApiError | null;
}

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    app: AppContext;
  }
}

export interface MemberSession {
  /** The member's profile; null for a guest. */
  profile: MemberProfile | null;
  /** Carries the member's token only when the back end accepted it. */
  api: HotelApi;
}

/** The hotel when it is active and has a website; otherwise none (spec §2: its domain is a plain 404, never named). */
export function liveHotel(hotel: HotelInfo | null): HotelInfo | null {
  return hotel && hotel.status === 1 && hotel.website_exist ? hotel : null;
}

/** The hotel domain of a request: its host without port; plain localhost is the default hotel. */
export function hotelDomainFor(host: string, defaultDomain: string): string {
  const bare = host.toLowerCase().replace(/:\d+$/, "");
  if (isLoopbackHost(bare) && defaultDomain) return defaultDomain;
  return bare;
}

export interface ContextInput {
  request: Request;
  env: AppEnv;
  transport: Transport;
  apiOrigin: string;
  masterBase: string;
  accountBase: string;
  pmsBase: string;
  waitUntil: (promise: Promise<unknown>) => void;
  cspNonce: string;
  crossSite?: boolean;
  log: Logger;
  /** The hotel's content version when the built-in back end knows it (docs/decisions/026); part of the hotel info cache key. */
  contentVersion?: number | null;
}

export async function createAppContext(input: ContextInput): Promise<AppContext> {
  const url = new URL(input.request.url);
  const host = url.host.replace(/:\d+$/, "");
  const domain = hotelDomainFor(host, input.env.DEFAULT_HOTEL_DOMAIN);
  const fromPath = languageFromPath(url.pathname);
  const lang = fromPath?.language ?? DEFAULT_LANGUAGE;
  const { log } = input;
  let unavailable: HotelApiError | null = null;
  const onUnavailable = (error: HotelApiError, path: string) => {
    unavailable ??= error;
    log.error("back end unavailable", path, error.code, error.message);
  };
  const options = {
    transport: input.transport,
    origin: input.apiOrigin,
    masterBase: input.masterBase,
    accountBase: input.accountBase,
    pmsBase: input.pmsBase,
    domain,
    lang,
    onUnavailable,
  };
  // Hotel info is the same for every guest (and cached at the edge): fetched without the token.
  const hotel = await getHotelInfo(
    domain,
    lang,
    () => new HotelApi(options).hotelInfo(),
    input.waitUntil,
    Date.now(),
    log,
    input.contentVersion ?? null,
  );
  const noSession: SessionState = { apiToken: null, memToken: null, member: null, migration: [] };
  const session = hotel && !hotel.close_member_system ? await readSession(input.request, input.env, domain) : noSession;
  const memberToken = session.apiToken;
  const api = new HotelApi({ ...options, memberToken });
  let refused = false;
  let memberSession: Promise<MemberSession> | null = null;
  const member = () =>
    (memberSession ??= (async (): Promise<MemberSession> => {
      const guest = { profile: null, api: new HotelApi(options) };
      if (!memberToken) return guest;
      try {
        return { profile: await api.memberProfile(), api };
      } catch (error) {
        if (!(error instanceof HotelApiError)) throw error;
        // 401: the token is no longer accepted (expired, revoked). Anything else: the back end
        // cannot say now; this request is a guest's, and the cookie stays for the next one.
        if (error.status === 401) refused = true;
        else log.warn("member profile unavailable, serving as a guest", error.status, error.code, error.message);
        return guest;
      }
    })());
  return {
    env: input.env,
    host,
    domain,
    hotel,
    lang,
    langValid: fromPath !== null,
    api,
    member,
    session,
    memberTokenRefused: () => refused,
    cspNonce: input.cspNonce,
    dataRequest: url.pathname.endsWith(".data"),
    waitUntil: input.waitUntil,
    crossSite: input.crossSite ?? false,
    log,
    backendUnavailable: () => unavailable,
  };
}
