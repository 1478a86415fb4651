/**
 * Security headers on every response of the Worker (design.md, security rules). Static files the
 * platform serves without the Worker get the same from public/_headers.
 */
export function securityHeaders(
  response: Response,
  options: {
    nonce?: string;
    api?: boolean;
    asset?: boolean;
    /** Inline scripts allowed by hash (a page served from the edge cache, decision 027). */ scriptHashes?: readonly string[];
  },
): Response {
  const allowed = [...(options.nonce ? [`'nonce-${options.nonce}'`] : []), ...(options.scriptHashes ?? []).map((hash) => `'${hash}'`)];
  const headers = new Headers(response.headers);
  const csp =
    options.api || options.asset
      ? "default-src 'none'; frame-ancestors 'none'"
      : [
          "default-src 'self'",
          `script-src 'self'${allowed.map((source) => ` ${source}`).join("")} https://www.googletagmanager.com https://connect.facebook.net`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "font-src 'self'",
          "connect-src 'self' https://www.google-analytics.com https://*.google-analytics.com https://www.facebook.com",
          "frame-src https://www.google.com https://www.googletagmanager.com",
          "form-action 'self' https:",
          "base-uri 'self'",
          "object-src 'none'",
          "frame-ancestors 'none'",
        ].join("; ");
  // The account service's own HTML pages carry their own (stricter-than-site) policy.
  if (!(options.api && headers.has("content-security-policy"))) headers.set("content-security-policy", csp);
  headers.set("strict-transport-security", "max-age=31536000; includeSubDomains");
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "strict-origin-when-cross-origin");
  headers.set("x-frame-options", "DENY");
  headers.set("permissions-policy", "camera=(), microphone=(), geolocation=()");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
