/**
 * The page a guest gets when the hotel back end cannot answer (down, slower than the timeout,
 * answering garbage) and the page cannot be served without it: a 503 with Retry-After, in the
 * guest's language, naming the hotel and how to reach it when its info is known (decision 024).
 * Plain HTML built here, not by Remix: it must render whatever else is broken.
 */
import type { HotelInfo } from "~/contract/schemas";
import type { Language } from "~/i18n/languages";
import { resources } from "~/i18n/resources";

/** Seconds a guest (or a crawler) is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 120;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export function unavailablePage(lang: Language, hotel: HotelInfo | null): Response {
  const t = (key: string) => resources[lang].common[key] ?? resources["en-US"].common[key] ?? key;
  const contact: string[] = [];
  if (hotel?.phone)
    contact.push(
      `<li>${escape(t("unavailable.phone"))}: <a href="tel:${escape(hotel.phone.replace(/[^\d+]/g, ""))}">${escape(hotel.phone)}</a></li>`,
    );
  if (hotel?.email)
    contact.push(`<li>${escape(t("unavailable.email"))}: <a href="mailto:${escape(hotel.email)}">${escape(hotel.email)}</a></li>`);
  const title = hotel ? `${t("unavailable.title")} | ${hotel.hotel_name}` : t("unavailable.title");
  const html = `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#222;background:#fafafa}main{max-width:36rem;margin:0 auto}h1{font-size:1.5rem}a{color:#0b5cad}</style>
</head>
<body>
<main id="main">
${hotel ? `<p>${escape(hotel.hotel_name)}</p>\n` : ""}<h1>${escape(t("unavailable.title"))}</h1>
<p role="alert">${escape(t("unavailable.body"))}</p>
${contact.length > 0 ? `<p>${escape(t("unavailable.contact"))}</p>\n<ul>${contact.join("")}</ul>\n` : ""}</main>
</body>
</html>
`;
  return new Response(html, {
    status: 503,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-language": lang,
      "cache-control": "no-store",
      "retry-after": String(RETRY_AFTER_SECONDS),
    },
  });
}
