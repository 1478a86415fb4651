/**
 * The built-in account service's clients: each hotel's website. The client_id is the hotel's domain,
 * its secret is derived from the signing secret, and its one registered redirect URI is the site's
 * `https://<domain>/<product>/oauth/callback`. On a local host (localhost, *.localhost), where sites
 * run on a port and over http, the callback on the service's own origin is registered too
 * (docs/decisions/035). A redirect_uri must equal a registered one exactly.
 */
import { findHotelByDomain, type HotelRow } from "~/backend/hotels/hotels.server";
import { isLocalHost } from "~/lib/hosts";
import { builtInClientSecret } from "~/lib/oauth-crypto";
import { safeEqual } from "~/lib/crypto";

export interface OAuthClient {
  clientId: string;
  hotel: HotelRow;
  redirectUris: string[];
}

/** The client of a live hotel whose member system is open; null otherwise. */
export async function findClient(db: D1Database, clientId: string | null, serviceUrl: URL, product: string): Promise<OAuthClient | null> {
  if (!clientId || clientId.length > 253) return null;
  const hotel = await findHotelByDomain(db, clientId);
  if (!hotel || hotel.domain !== clientId.toLowerCase() || hotel.status !== 1 || hotel.close_member_system === 1) return null;
  const path = `/${product}/oauth/callback`;
  const redirectUris = [`https://${hotel.domain}${path}`];
  if (isLocalHost(serviceUrl.hostname)) redirectUris.push(`http://${serviceUrl.host}${path}`, `https://${serviceUrl.host}${path}`);
  return { clientId: hotel.domain, hotel, redirectUris };
}

export function isRegisteredRedirect(client: OAuthClient, redirectUri: string | null): redirectUri is string {
  return redirectUri !== null && client.redirectUris.includes(redirectUri);
}

/** Where a sign-out may send the browser back to: the site of a registered redirect URI. */
export function siteHomeFor(client: OAuthClient, redirectUri: string | null): string | null {
  const homes = client.redirectUris.map((uri) => `${new URL(uri).origin}/`);
  return redirectUri !== null && homes.includes(redirectUri) ? redirectUri : null;
}

export async function clientSecretMatches(signingSecret: string, clientId: string, given: string): Promise<boolean> {
  return safeEqual(await builtInClientSecret(signingSecret, clientId.toLowerCase()), given);
}
