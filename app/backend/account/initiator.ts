/**
 * Whether a browser's request comes from the service's own pages (decision 051). Pure: headers in,
 * a yes or no out. Fetch Metadata decides when the browser sends it; otherwise Origin, then the
 * Referer's origin; a request with none of them is not trusted.
 */
export function fromOwnOrigin(headers: Headers, ownOrigin: string): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  // same-site is not enough: a sibling subdomain may be another hotel's site on a shared domain;
  // none is an address typed or a link opened from another application.
  if (fetchSite !== null) return fetchSite === "same-origin";
  for (const name of ["origin", "referer"]) {
    const value = headers.get(name);
    if (!value || value === "null") continue;
    try {
      return new URL(value).origin === ownOrigin;
    } catch {
      return false;
    }
  }
  return false;
}
