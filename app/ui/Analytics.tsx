import { useRouteLoaderData } from "@remix-run/react";
import { pixelScript } from "~/ui/pixel";

interface AnalyticsProps {
  ga: string;
  pixel: string;
  gtm: string;
}

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
 * Google Analytics (ga_code), the Meta pixel (pixel_code) and Google Tag Manager (feature flag),
 * each only when configured. All load async at the end of the body, so they never block rendering;
 * a hotel that configures none ships no script at all.
 */
export function Analytics({ ga, pixel, gtm }: AnalyticsProps) {
  const root = useRouteLoaderData<{ nonce: string }>("root");
  const nonce = root?.nonce;
  const scripts: { key: string; src?: string; inline?: string }[] = [];
  if (ID.test(ga)) {
    scripts.push({ key: "ga-src", src: `https://www.googletagmanager.com/gtag/js?id=${ga}` });
    scripts.push({
      key: "ga",
      inline: `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config",${JSON.stringify(ga)});`,
    });
  }
  if (/^\d{5,20}$/.test(pixel)) {
    scripts.push({ key: "pixel", inline: pixelScript(pixel) });
  }
  if (ID.test(gtm)) {
    scripts.push({
      key: "gtm",
      inline: `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({"gtm.start":new Date().getTime(),event:"gtm.js"});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src="https://www.googletagmanager.com/gtm.js?id="+i;f.parentNode.insertBefore(j,f)})(window,document,"script","dataLayer",${JSON.stringify(gtm)});`,
    });
  }
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
