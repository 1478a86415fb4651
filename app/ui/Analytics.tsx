import { useRouteLoaderData } from "@remix-run/react";
import type { AnalyticsScript } from "~/lib/analytics-scripts";

/** TAG_ID of analytics-scripts, kept here so that module (and the snippets) stays out of the browser bundle. */
const ID = /^[A-Za-z0-9-]{4,40}$/;

/**
 * Google Tag Manager for browsers without JavaScript: Google's own fallback, an invisible iframe
 * (the CSP's frame-src allows www.googletagmanager.com). It belongs right after <body> opens.
 */
export function GtmNoscript({ gtm }: { gtm: string }) {
  if (!ID.test(gtm)) return null;
  return (
    <noscript>
      <iframe
        src={`https://www.googletagmanager.com/ns.html?id=${gtm}`}
        title="Google Tag Manager"
        height="0"
        width="0"
        style={{ display: "none", visibility: "hidden" }}
      />
    </noscript>
  );
}

/**
 * The hotel's analytics scripts (Google Analytics, the Meta pixel, Google Tag Manager), as the
 * server built them (analyticsScripts, decision 161). All load async at the end of the body, so
 * they never block rendering; a hotel that configures none has none.
 */
export function Analytics({ scripts }: { scripts: AnalyticsScript[] }) {
  const root = useRouteLoaderData<{ nonce: string }>("root");
  const nonce = root?.nonce;
  if (scripts.length === 0) return null;
  return (
    <>
      {scripts.map((script) =>
        script.src ? (
          <script key={script.key} async src={script.src} nonce={nonce} />
        ) : (
          <script key={script.key} nonce={nonce} dangerouslySetInnerHTML={{ __html: script.inline ?? "" }} />
        ),
      )}
    </>
  );
}
