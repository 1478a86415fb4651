/**
 * The account service's own pages (sign in, create an account, errors), rendered as plain HTML by
 * the Worker: no JavaScript, in the five languages (locales/<lng>/account.json). The sign-in and
 * sign-up pages wear the hotel's identity — its logo or name linking to its site, its layout's
 * colours, its languages, a way back — as its own pages do (decision 093).
 */
import { isLanguage, LANGUAGE_NAMES, localizePath, type Language } from "~/i18n/languages";
import { serverText, type ServerKey, type TextParams } from "~/i18n/server-text";
import { escapeHtml } from "~/lib/html";
import { layoutPalette, NEUTRAL_PALETTE, readableOn, type Palette } from "~/layouts/palettes";
import { hotelNameIn, mainLanguage, type HotelRow } from "~/backend/hotels/hotels.server";
import { parseJson } from "~/backend/localize";
import { challengeFieldset, newChallengeButton, type ChallengeState } from "~/backend/captcha/fieldset";

export type AccountText = ServerKey<"account">;

/** A text of the account service (locales/<lng>/account.json; decision 094). */
export function accountText(lang: Language, key: AccountText, params: TextParams = {}): string {
  return serverText(lang, "account", key, params);
}

/** The page's colours as custom properties; links inside the white card take the first colour that reads on white. */
function colours(palette: Palette): string {
  const cardLink = readableOn("#ffffff", [palette.link, palette.accent, "#1d1d1b"]);
  return `:root{--bg:${palette.bg};--text:${palette.text};--link:${palette.link};--accent:${palette.accent};--on-accent:${palette.onAccent};--card-link:${cardLink}}`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:0 .75rem;background:var(--bg);color:var(--text)}
main{max-width:26rem;margin:1rem auto 2rem;padding:1.5rem;background:#fff;color:#1d1d1b;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:4px}
button{margin-top:1.2rem;width:100%;padding:.7rem;font:inherit;font-weight:600;background:var(--accent);color:var(--on-accent);border:0;border-radius:4px;cursor:pointer}
.error{color:#a4000f;font-weight:600}.hint{color:#555;font-size:.9rem}.field-error{color:#a4000f;margin:.2rem 0 0}
a{color:var(--link)}main a{color:var(--card-link)}fieldset{border:1px solid #767676;border-radius:4px;margin:1.2rem 0 0;padding:.2rem .9rem .9rem}legend{font-weight:600;padding:0 .3rem}
fieldset img{display:block;max-width:100%;height:auto;border:1px solid #767676;border-radius:4px}
button.secondary{background:#fff;color:var(--card-link);border:1px solid var(--card-link);margin-top:.8rem}
.brand{max-width:26rem;margin:0 auto;padding-top:.75rem;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.25rem 1rem}
.brand__home{display:inline-flex;align-items:center;min-height:44px;color:var(--text);font-size:1.2rem;font-weight:700;text-decoration:none;overflow-wrap:anywhere}
.brand__home img{display:block;height:44px;width:auto;max-width:100%}.brand__home .invert{filter:brightness(0) invert(1)}
.languages ul{display:flex;flex-wrap:wrap;margin:0 -.5rem;padding:0;list-style:none}
.languages a{display:inline-flex;align-items:center;min-height:44px;padding:0 .5rem;font-size:.9rem}.languages [aria-current]{font-weight:700;text-decoration:none}
.standalone{display:inline-block;min-width:24px;padding:.5rem 0}
.back{display:block;max-width:26rem;margin:-1rem auto 2rem}`;

/** What makes a page the hotel's: its name and logo linking home, its colours, the page in its other languages. */
export interface Brand {
  name: string;
  /** The hotel's site, its home page in this language (or the hotel's main one). */
  home: string;
  /** The logo on the site's origin, or "" (the name stands in). */
  logo: string;
  invertLogo: boolean;
  palette: Palette;
  /** The site's origin: the only place images come from. */
  origin: string;
  /** This page in each of the hotel's languages. */
  languages: { language: Language; href: string }[];
}

function brandHeader(lang: Language, brand: Brand): string {
  const home = brand.logo
    ? `<img src="${escapeHtml(brand.logo)}" alt="${escapeHtml(brand.name)}" height="44"${brand.invertLogo ? ' class="invert"' : ""}>`
    : escapeHtml(brand.name);
  const switcher =
    brand.languages.length < 2
      ? ""
      : `<nav class="languages" aria-label="${escapeHtml(accountText(lang, "nav.language"))}"><ul>${brand.languages
          .map(
            ({ language, href }) =>
              `<li><a href="${escapeHtml(href)}" hreflang="${language}" lang="${language}"${language === lang ? ' aria-current="true"' : ""}>${escapeHtml(LANGUAGE_NAMES[language])}</a></li>`,
          )
          .join("")}</ul></nav>`;
  return `<header class="brand"><a class="brand__home" href="${escapeHtml(brand.home)}">${home}</a>${switcher}</header>`;
}

export function page(lang: Language, title: string, body: string, status = 200, headers: HeadersInit = {}, brand?: Brand): Response {
  const content = brand
    ? `${brandHeader(lang, brand)}<main>${body}</main><footer class="back"><a class="standalone" href="${escapeHtml(brand.home)}">${escapeHtml(accountText(lang, "link.back"))}</a></footer>`
    : `<main>${body}</main>`;
  const html = `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${colours(brand?.palette ?? NEUTRAL_PALETTE)}
${STYLE}</style></head><body>${content}</body></html>`;
  const response = new Response(html, { status, headers });
  response.headers.set("content-type", "text/html; charset=utf-8");
  // A page of one person's account (their sign-in, sign-up, session): never kept by any cache (issue 37).
  response.headers.set("cache-control", "private, no-store");
  const images = brand?.logo ? `data: ${brand.origin}` : "data:";
  response.headers.set(
    "content-security-policy",
    `default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; base-uri 'none'; frame-ancestors 'none'`,
  );
  return response;
}

/** The hotel as its account pages show it. */
export type BrandHotel = Pick<HotelRow, "hotel_name" | "main_lang" | "support_lang" | "logo_dark" | "logo_white" | "template_code">;

/** A logo path of the site's own (as emails take it, decision 083); anything else is not shown. */
const sitePath = (path: string) => path.startsWith("/") && !path.startsWith("//");

/** The hotel's brand on a page of the service at `path` (whose query is the authorization request). */
function brandOf(hotel: BrandHotel, lang: Language, params: OAuthParams, path: string): Brand {
  const origin = new URL(params.redirect_uri).origin;
  const languages = parseJson<string[]>(hotel.support_lang, []).filter(isLanguage);
  const palette = layoutPalette(hotel.template_code);
  const white = palette.dark && sitePath(hotel.logo_white);
  const logo = white ? hotel.logo_white : hotel.logo_dark;
  return {
    name: hotelNameIn(hotel, lang),
    home: `${origin}${localizePath("/", languages.includes(lang) ? lang : mainLanguage(hotel))}`,
    logo: sitePath(logo) ? `${origin}${logo}` : "",
    invertLogo: palette.dark && !white,
    palette,
    origin,
    languages: languages.map((language) => ({ language, href: `${path}?${query(params, language)}` })),
  };
}

/** The OAuth request a sign-in or sign-up form carries along, as hidden fields. */
export type OAuthParams = Record<"client_id" | "redirect_uri" | "state" | "scope" | "code_challenge", string>;

function hiddenFields(params: OAuthParams, csrf: string): string {
  const fields = { ...params, code_challenge_method: "S256", response_type: "code", role: "mem", csrf };
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join("");
}

function query(params: OAuthParams, lang: Language): string {
  return new URLSearchParams({ ...params, response_type: "code", role: "mem", code_challenge_method: "S256", lang }).toString();
}

function field(
  lang: Language,
  name: string,
  key: AccountText,
  type: string,
  value: string,
  autocomplete: string,
  error?: string,
  hint?: string,
): string {
  const id = `f-${name}`;
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return `<label for="${id}">${escapeHtml(accountText(lang, key))}</label>${hint ? `<p class="hint" id="${id}-hint">${escapeHtml(hint)}</p>` : ""}<input id="${id}" name="${name}" type="${type}" value="${escapeHtml(value)}" autocomplete="${autocomplete}" required${described ? ` aria-describedby="${described}"` : ""}${error ? ' aria-invalid="true"' : ""}>${error ? `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : ""}`;
}

export interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  message?: string;
  /** A captcha to answer inside the form (decision 070). */
  captcha?: ChallengeState;
}

export function signInPage(
  lang: Language,
  hotel: BrandHotel,
  params: OAuthParams,
  csrf: string,
  state: FormState = {},
  status = 200,
): Response {
  const values = state.values ?? {};
  const hotelName = hotelNameIn(hotel, lang);
  const body = `<h1>${escapeHtml(accountText(lang, "title.signin"))}</h1><p>${escapeHtml(accountText(lang, "intro.signin", { hotel: hotelName }))}</p>${
    state.message ? `<p class="error" role="alert">${escapeHtml(state.message)}</p>` : ""
  }<form method="post" action="/account/signin?lang=${lang}">${hiddenFields(params, csrf)}${field(lang, "email", "field.email", "email", values.email ?? "", "username")}${field(
    lang,
    "password",
    "field.password",
    "password",
    "",
    "current-password",
  )}${state.captcha ? challengeFieldset(lang, state.captcha) : ""}<button type="submit">${escapeHtml(accountText(lang, "action.signin"))}</button>${
    state.captcha ? newChallengeButton(lang) : ""
  }<p class="hint" id="email-link-hint">${escapeHtml(accountText(lang, "signin_link.offer"))}</p><button type="submit" class="secondary" formaction="/account/signin/email-link?lang=${lang}" formnovalidate aria-describedby="email-link-hint">${escapeHtml(
    accountText(lang, "action.email_link"),
  )}</button></form><p><a class="standalone" href="/account/signup?${escapeHtml(query(params, lang))}">${escapeHtml(accountText(lang, "link.to_signup"))}</a></p>`;
  return page(
    lang,
    `${accountText(lang, "title.signin")} | ${hotelName}`,
    body,
    status,
    {},
    brandOf(hotel, lang, params, "/account/oauth/authorize"),
  );
}

export function signUpPage(
  lang: Language,
  hotel: BrandHotel,
  params: OAuthParams,
  csrf: string,
  state: FormState = {},
  status = 200,
): Response {
  const values = state.values ?? {};
  const hotelName = hotelNameIn(hotel, lang);
  const errors = state.errors ?? {};
  const body = `<h1>${escapeHtml(accountText(lang, "title.signup"))}</h1><p>${escapeHtml(accountText(lang, "intro.signup", { hotel: hotelName }))}</p>${
    state.message ? `<p class="error" role="alert">${escapeHtml(state.message)}</p>` : ""
  }<form method="post" action="/account/signup?lang=${lang}">${hiddenFields(params, csrf)}${field(lang, "last_name", "field.last_name", "text", values.last_name ?? "", "family-name", errors.last_name)}${field(
    lang,
    "first_name",
    "field.first_name",
    "text",
    values.first_name ?? "",
    "given-name",
    errors.first_name,
  )}${field(lang, "email", "field.email", "email", values.email ?? "", "email", errors.email)}${field(lang, "phone", "field.phone", "tel", values.phone ?? "", "tel", errors.phone)}${field(
    lang,
    "password",
    "field.password",
    "password",
    "",
    "new-password",
    errors.password,
    accountText(lang, "field.password_hint"),
  )}${state.captcha ? challengeFieldset(lang, state.captcha) : ""}<button type="submit">${escapeHtml(accountText(lang, "action.signup"))}</button>${state.captcha ? newChallengeButton(lang) : ""}</form><p><a class="standalone" href="/account/oauth/authorize?${escapeHtml(query(params, lang))}">${escapeHtml(accountText(lang, "link.to_signin"))}</a></p>`;
  return page(
    lang,
    `${accountText(lang, "title.signup")} | ${hotelName}`,
    body,
    status,
    {},
    brandOf(hotel, lang, params, "/account/signup"),
  );
}

/** A request the service cannot act on (unknown client, unregistered redirect_uri): never redirected. */
export function errorPage(lang: Language, key: AccountText, status = 400): Response {
  return page(
    lang,
    accountText(lang, "title.error"),
    `<h1>${escapeHtml(accountText(lang, "title.error"))}</h1><p role="alert">${escapeHtml(accountText(lang, key))}</p>`,
    status,
  );
}

/** The service's own sign-out form: a POST with its CSRF token, no JavaScript needed. */
export function signOutPage(lang: Language, clientId: string, redirectUri: string, csrf: string): Response {
  const fields = { client_id: clientId, redirect_uri: redirectUri, csrf };
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join("");
  return page(
    lang,
    accountText(lang, "action.signout"),
    `<h1>${escapeHtml(accountText(lang, "action.signout"))}</h1><form method="post" action="/account/logout?lang=${lang}">${hidden}<button type="submit">${escapeHtml(accountText(lang, "action.signout"))}</button></form>`,
  );
}

export function signedOutPage(lang: Language, home: string | null): Response {
  const link = home ? `<p><a href="${escapeHtml(home)}">${escapeHtml(accountText(lang, "link.back"))}</a></p>` : "";
  return page(
    lang,
    accountText(lang, "title.signed_out"),
    `<h1>${escapeHtml(accountText(lang, "title.signed_out"))}</h1><p>${escapeHtml(accountText(lang, "signed_out.body"))}</p>${link}`,
  );
}
