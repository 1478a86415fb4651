/**
 * The invoice sandbox's consent page (decision 167): where the link of its consent email leads, as
 * ECPay's does for AllowanceByCollegiate. The guest sees the invoice and the allowance's amount and
 * agrees or refuses, with two plain forms (JavaScript off). The page then posts the signed callback
 * (RtnCode, RtnMsg, IA_Allow_No, IA_Invoice_No, IA_Date, IIS_Remain_Allowance_Amt, the MD5
 * CheckMacValue with the hotel's sandbox keys) to the ReturnURL's path on this Worker, in process,
 * as the test gateway posts its ReturnURL, until it answers `1|OK`. The allowance is found by an
 * unguessable token; one decided, or past its 72 hours, cannot be decided again. Like the test
 * gateway's pages it exists only where the sandbox may run (local hosts, or ALLOW_TEST_GATEWAY).
 */
import { deliverUntilOk, sandboxPage } from "~/backend/payments/sandbox/sandbox.server";
import { einvoiceCheckMacValue } from "~/backend/einvoice/ecpay.server";
import { consentCallbackPath } from "~/backend/einvoice/registry.server";
import { sandboxEinvoiceKeys } from "~/backend/einvoice/sandbox.server";
import { formatPrice } from "~/i18n/format";
import { isLanguage, type Language } from "~/i18n/languages";
import { serverText, type ServerKey } from "~/i18n/server-text";
import { escapeHtml } from "~/lib/html";
import { readForm } from "~/platform/forms.server";
import type { Logger } from "~/platform/log.server";

/** The consent page's address (GET: the page, by its token; POST: the guest's decision). */
export const EINVOICE_SANDBOX_PATHS: readonly string[] = ["/sandbox-einvoice/consent"];

export function isEinvoiceSandboxPath(pathname: string): boolean {
  return EINVOICE_SANDBOX_PATHS.includes(pathname);
}

export interface ConsentPageDeps {
  db: D1Database;
  signingSecret: string;
  /** Sends the callback to this Worker's own back end (in process) and returns its answer. */
  deliver: (request: Request) => Promise<Response>;
  waitUntil: (promise: Promise<unknown>) => void;
  /** The page's own origin: the callback is posted there, to the ReturnURL's path only. */
  origin: string;
  now?: Date;
  /** Pause between delivery attempts (tests shorten it). */
  retryDelayMs?: (attempt: number) => number;
  log: Logger;
}

interface ConsentRow {
  hotel_id: number;
  number: string;
  invoice_number: string;
  amount: number;
  status: string;
  return_url: string;
  expires_at: string;
  lang: string;
  hotel_name: string;
}

const MAX_ATTEMPTS = 6;
const TOKEN = /^[0-9a-f]{32}$/;

type Key = ServerKey<"sandbox">;

function texts(lang: Language) {
  const t = (key: Key, params?: Record<string, string | number>) => serverText(lang, "sandbox", key, params);
  return t;
}

/** The page's `lang` attribute for a language. */
const HTML_LANG: Record<Language, string> = {
  "zh-TW": "zh-Hant-TW",
  "zh-CN": "zh-Hans-CN",
  "en-US": "en-US",
  "ja-JP": "ja-JP",
  "ko-KR": "ko-KR",
};

function page(lang: Language, body: string, status = 200): Response {
  const t = texts(lang);
  return sandboxPage(HTML_LANG[lang], t("consent_title"), t("consent_notice"), body, status);
}

/** The language a request names (?lang=, for a page without an allowance to take it from), else zh-TW. */
function requestLang(url: URL): Language {
  const asked = url.searchParams.get("lang") ?? "";
  return isLanguage(asked) ? asked : "zh-TW";
}

const rowLang = (row: Pick<ConsentRow, "lang">): Language => (isLanguage(row.lang) ? row.lang : "zh-TW");

/** "yyyy-MM-dd HH:mm" in Taipei (UTC+8 all year), as ECPay writes its times. */
function taipei(iso: string, seconds = false): string {
  return new Date(Date.parse(iso) + 8 * 3_600_000)
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace("T", " ");
}

async function findByToken(db: D1Database, token: string): Promise<ConsentRow | null> {
  if (!TOKEN.test(token)) return null;
  return db
    .prepare(
      `SELECT a.hotel_id, a.number, a.invoice_number, a.amount, a.status, a.return_url, a.expires_at, a.lang, h.hotel_name AS hotel_name
       FROM einvoice_sandbox_allowances a JOIN hotels h ON h.id = a.hotel_id WHERE a.token = ?`,
    )
    .bind(token)
    .first<ConsentRow>();
}

/** A hotel's name in a language (the hotels table keeps it as JSON by language), or the first it has. */
function hotelName(json: string, lang: Language): string {
  try {
    const names = JSON.parse(json) as Record<string, string>;
    return names[lang] ?? names["zh-TW"] ?? Object.values(names)[0] ?? "";
  } catch {
    return json;
  }
}

function invalid(lang: Language, status: number): Response {
  return page(lang, `<p role="alert">${escapeHtml(texts(lang)("consent_invalid"))}</p>`, status);
}

/** The page for a token: the allowance and the two forms, or why it can no longer be answered. */
async function consentPage(url: URL, deps: ConsentPageDeps): Promise<Response> {
  const row = await findByToken(deps.db, url.searchParams.get("t") ?? "");
  if (!row) return invalid(requestLang(url), 404);
  const lang = rowLang(row);
  const t = texts(lang);
  const now = deps.now ?? new Date();
  if (row.status !== "awaiting" || Date.parse(row.expires_at) <= now.getTime()) {
    const said = row.status === "issued" ? t("consent_agreed") : row.status === "refused" ? t("consent_refused") : t("consent_invalid");
    return page(lang, `<p role="status">${escapeHtml(said)}</p>`, row.status === "awaiting" || row.status === "expired" ? 410 : 200);
  }
  const token = url.searchParams.get("t") ?? "";
  const facts = `<p>${escapeHtml(t("consent_intro", { hotel: hotelName(row.hotel_name, lang) }))}</p><dl><dt>${escapeHtml(t("consent_invoice"))}</dt><dd>${escapeHtml(row.invoice_number)}</dd><dt>${escapeHtml(t("consent_amount"))}</dt><dd>${escapeHtml(formatPrice(row.amount, lang))}</dd><dt>${escapeHtml(t("consent_until"))}</dt><dd>${escapeHtml(taipei(row.expires_at))}</dd></dl>`;
  const button = (decision: "agree" | "refuse", label: string) =>
    `<form method="post" action="${EINVOICE_SANDBOX_PATHS[0]}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit" name="decision" value="${decision}">${escapeHtml(label)}</button></form>`;
  return page(lang, `${facts}${button("agree", t("consent_agree"))}${button("refuse", t("consent_refuse"))}`);
}

/** The guest's decision: recorded once (a second post, or one after the 72 hours, changes nothing), then the signed callback. */
async function decide(request: Request, url: URL, deps: ConsentPageDeps): Promise<Response> {
  const form = await readForm(request);
  const token = typeof form?.get("token") === "string" ? String(form?.get("token")) : "";
  const decision = form?.get("decision");
  const row = await findByToken(deps.db, token);
  if (!row || (decision !== "agree" && decision !== "refuse")) return invalid(row ? rowLang(row) : requestLang(url), 400);
  const lang = rowLang(row);
  const now = deps.now ?? new Date();
  const agreed = decision === "agree";
  const decided = await deps.db
    .prepare(
      `UPDATE einvoice_sandbox_allowances SET status = ?1, decided_at = ?2
       WHERE token = ?3 AND status = 'awaiting' AND expires_at > ?2 RETURNING number`,
    )
    .bind(agreed ? "issued" : "refused", now.toISOString(), token)
    .first<{ number: string }>();
  if (!decided) return invalid(lang, 409);
  // What the invoice still counts for once this is made (ECPay's IIS_Remain_Allowance_Amt).
  const left = await deps.db
    .prepare(
      `SELECT i.amount - COALESCE((SELECT SUM(a.amount) FROM einvoice_sandbox_allowances a
         WHERE a.hotel_id = i.hotel_id AND a.invoice_number = i.number AND a.status = 'issued'), 0) AS remaining
       FROM einvoice_sandbox_invoices i WHERE i.hotel_id = ? AND i.number = ?`,
    )
    .bind(row.hotel_id, row.invoice_number)
    .first<{ remaining: number }>();
  const fields: Record<string, string> = {
    RtnCode: agreed ? "1" : "0",
    RtnMsg: agreed ? "折讓單開立成功" : "買受人不同意折讓",
    IA_Allow_No: row.number,
    IA_Invoice_No: row.invoice_number,
    IA_Date: agreed ? taipei(now.toISOString(), true) : "",
    IIS_Remain_Allowance_Amt: agreed ? String(left?.remaining ?? 0) : "",
  };
  const keys = await sandboxEinvoiceKeys(deps.signingSecret, row.hotel_id);
  const signed = { ...fields, CheckMacValue: einvoiceCheckMacValue(fields, keys) };
  // Only ever this hotel's consent route on this Worker, whatever address was stored.
  const path = consentCallbackPath(row.hotel_id);
  let stored = "";
  try {
    stored = new URL(row.return_url).pathname;
  } catch {
    stored = "";
  }
  if (stored === path)
    await deliverUntilOk(deps, `${deps.origin}${path}`, signed, { what: "invoice sandbox: consent", attempts: MAX_ATTEMPTS });
  else deps.log.warn("invoice sandbox: a ReturnURL that is not the hotel's consent route", row.hotel_id, row.return_url.slice(0, 100));
  const t = texts(lang);
  return page(lang, `<p role="status">${escapeHtml(agreed ? t("consent_agreed") : t("consent_refused"))}</p>`);
}

export async function handleEinvoiceSandbox(request: Request, deps: ConsentPageDeps): Promise<Response> {
  const url = new URL(request.url);
  if (request.method === "GET" || request.method === "HEAD") return consentPage(url, deps);
  if (request.method === "POST") return decide(request, url, deps);
  return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, HEAD, POST" } });
}
