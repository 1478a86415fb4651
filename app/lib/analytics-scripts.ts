import { pixelScript } from "~/lib/pixel";

/** One script of the hotel's analytics: an async file, or an inline snippet. */
export type AnalyticsScript = { key: string; src?: string; inline?: string };

/** What a tag id may look like (GA's and GTM's); anything else is not written into a page. */
export const TAG_ID = /^[A-Za-z0-9-]{4,40}$/;

/**
 * The scripts of Google Analytics (ga_code), the Meta pixel (pixel_code) and Google Tag Manager
 * (feature flag), each only when configured. Built by the server (loadSite) and handed to the page
 * as data, so the snippets' code stays out of the browser's bundle (decision 161): a hotel that
 * configures none ships no analytics code at all.
 */
export function analyticsScripts({ ga, pixel, gtm }: { ga: string; pixel: string; gtm: string }): AnalyticsScript[] {
  const scripts: AnalyticsScript[] = [];
  if (TAG_ID.test(ga)) {
    scripts.push({ key: "ga-src", src: `https://www.googletagmanager.com/gtag/js?id=${ga}` });
    scripts.push({
      key: "ga",
      inline: `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config",${JSON.stringify(ga)});`,
    });
  }
  if (/^\d{5,20}$/.test(pixel)) {
    scripts.push({ key: "pixel", inline: pixelScript(pixel) });
  }
  if (TAG_ID.test(gtm)) {
    scripts.push({
      key: "gtm",
      inline: `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({"gtm.start":new Date().getTime(),event:"gtm.js"});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src="https://www.googletagmanager.com/gtm.js?id="+i;f.parentNode.insertBefore(j,f)})(window,document,"script","dataLayer",${JSON.stringify(gtm)});`,
    });
  }
  return scripts;
}
