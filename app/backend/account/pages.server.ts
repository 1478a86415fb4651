/**
 * The account service's own pages (sign in, create an account, errors), rendered as plain HTML by
 * the Worker: no JavaScript, in the five languages (locales/<lng>/account.json).
 */
import type { Language } from "~/i18n/languages";
import { serverText, type ServerKey, type TextParams } from "~/i18n/server-text";
import { escapeHtml } from "~/lib/html";
import { challengeFieldset, newChallengeButton, type ChallengeState } from "~/backend/captcha/fieldset";

export type AccountText = ServerKey<"account">;

/** A text of the account service (locales/<lng>/account.json; decision 094). */
export function accountText(lang: Language, key: AccountText, params: TextParams = {}): string {
  return serverText(lang, "account", key, params);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f2ee;color:#1d1d1b}
main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:4px}
button{margin-top:1.2rem;width:100%;padding:.7rem;font:inherit;font-weight:600;background:#1d4e89;color:#fff;border:0;border-radius:4px;cursor:pointer}
.error{color:#a4000f;font-weight:600}.hint{color:#555;font-size:.9rem}.field-error{color:#a4000f;margin:.2rem 0 0}
a{color:#1d4e89}fieldset{border:1px solid #767676;border-radius:4px;margin:1.2rem 0 0;padding:.2rem .9rem .9rem}legend{font-weight:600;padding:0 .3rem}
fieldset img{display:block;max-width:100%;height:auto;border:1px solid #767676;border-radius:4px}
button.secondary{background:#fff;color:#1d4e89;border:1px solid #1d4e89;margin-top:.8rem}`;

export function page(lang: Language, title: string, body: string, status = 200, headers: HeadersInit = {}): Response {
  const html = `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  const response = new Response(html, { status, headers });
  response.headers.set("content-type", "text/html; charset=utf-8");
  response.headers.set("cache-control", "no-store");
  response.headers.set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'");
  return response;
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

function field(lang: Language, name: string, key: AccountText, type: string, value: string, autocomplete: string, error?: string, hint?: string): string {
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

export function signInPage(lang: Language, hotelName: string, params: OAuthParams, csrf: string, state: FormState = {}, status = 200): Response {
  const values = state.values ?? {};
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
  }</form><p><a href="/account/signup?${escapeHtml(query(params, lang))}">${escapeHtml(accountText(lang, "link.to_signup"))}</a></p>`;
  return page(lang, `${accountText(lang, "title.signin")} | ${hotelName}`, body, status);
}

export function signUpPage(lang: Language, hotelName: string, params: OAuthParams, csrf: string, state: FormState = {}, status = 200): Response {
  const values = state.values ?? {};
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
  )}${state.captcha ? challengeFieldset(lang, state.captcha) : ""}<button type="submit">${escapeHtml(accountText(lang, "action.signup"))}</button>${state.captcha ? newChallengeButton(lang) : ""}</form><p><a href="/account/oauth/authorize?${escapeHtml(query(params, lang))}">${escapeHtml(accountText(lang, "link.to_signin"))}</a></p>`;
  return page(lang, `${accountText(lang, "title.signup")} | ${hotelName}`, body, status);
}

/** A request the service cannot act on (unknown client, unregistered redirect_uri): never redirected. */
export function errorPage(lang: Language, key: AccountText, status = 400): Response {
  return page(lang, accountText(lang, "title.error"), `<h1>${escapeHtml(accountText(lang, "title.error"))}</h1><p role="alert">${escapeHtml(accountText(lang, key))}</p>`, status);
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
  return page(lang, accountText(lang, "title.signed_out"), `<h1>${escapeHtml(accountText(lang, "title.signed_out"))}</h1><p>${escapeHtml(accountText(lang, "signed_out.body"))}</p>${link}`);
}
