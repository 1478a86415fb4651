/**
 * The built-in sandbox payment gateway (docs/decisions/031): a stand-in for ECPay that speaks ECPay
 * AIO exactly, for the demo hotels and the tests. The site posts its checkout form here as it would
 * to ECPay; this hosted page, clearly a test payment, lets the guest pay, decline, or take an ATM
 * account and pay later. The result goes to the site's real ReturnURL / PaymentInfoURL routes
 * server to server, signed with a valid CheckMacValue and retried until they answer `1|OK`; then
 * the browser returns to ClientBackURL. Nothing in the order flow knows it is a sandbox.
 */
import { checkMacValue, ecpayDate, ECPAY_OK } from "~/backend/payments/gateways/ecpay";
import { base64Url, fromBase64Url, safeEqual } from "~/lib/crypto";
import { escapeHtml } from "~/lib/html";
import { formatPrice } from "~/i18n/format";
import { SANDBOX_PATH, sandboxKeys } from "~/backend/payments/gateways/sandbox-gateway";
import { sandboxTexts, type SandboxTexts } from "~/backend/payments/sandbox/texts";
import { readForm } from "~/platform/forms.server";
import type { Logger } from "~/platform/log.server";

/** The gateway's pages: the checkout the site posts to, the guest's decision, the ATM account page. */
export const SANDBOX_PATHS: readonly string[] = [`${SANDBOX_PATH}/checkout`, `${SANDBOX_PATH}/decide`, `${SANDBOX_PATH}/atm`];

export function isSandboxPath(pathname: string): boolean {
  return SANDBOX_PATHS.includes(pathname);
}

export interface SandboxDeps {
  signingSecret: string;
  /** The site's own origin: the only place callbacks are posted and the browser is sent back to. */
  origin: string;
  /** Sends a callback to the site's own routes (in process) and returns its answer. */
  deliver: (request: Request) => Promise<Response>;
  waitUntil: (promise: Promise<unknown>) => void;
  now?: Date;
  /** Pause between delivery attempts (tests shorten it). */
  retryDelayMs?: (attempt: number) => number;
  /** The request's logger (its lines carry the request id). */
  log: Logger;
}

const MAX_ATTEMPTS = 8;

/**
 * A built-in sandbox's page (this test gateway's, the invoice sandbox's consent page): plain HTML
 * that works without JavaScript, its title, the banner that says nothing real happens, and the body.
 */
export function sandboxPage(lang: string, title: string, notice: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}.banner{background:#fff3cd;border:2px dashed #b8860b;padding:.75rem 1rem;font-weight:600}button{font:inherit;padding:.6rem 1rem;margin:.25rem 0;width:100%;cursor:pointer}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p class="banner" role="note">${escapeHtml(notice)}</p>${body}</main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

function page(texts: SandboxTexts, body: string, status = 200): Response {
  return sandboxPage(texts.lang, texts.title, texts.notice, body, status);
}

function hiddenFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
}

/** Whether an address is on the site's own origin (and, for callbacks, one of its callback routes). */
function onOrigin(address: string, origin: string, pathPrefix = "/"): boolean {
  try {
    const url = new URL(address);
    return url.origin === origin && url.pathname.startsWith(pathPrefix) && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * The merchant's checkout fields, verified with the sandbox's keys; null when the signature is
 * wrong, or when a callback or return address is not on the site's own origin (decision 047).
 */
async function verifiedCheckout(form: FormData, signingSecret: string, origin: string): Promise<Record<string, string> | null> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" || name.startsWith("sandbox_")) continue;
    fields[name] = value;
  }
  const merchantId = fields.MerchantID ?? "";
  if (!/^\d{1,10}$/.test(merchantId) || !fields.CheckMacValue) return null;
  const keys = await sandboxKeys(signingSecret, merchantId);
  if (!safeEqual(fields.CheckMacValue, await checkMacValue(fields, keys))) return null;
  if (!/^\d+$/.test(fields.TotalAmount ?? "") || !fields.ReturnURL) return null;
  const callbacks = "/api/payment/callback/";
  if (!onOrigin(fields.ReturnURL, origin, callbacks) || (fields.PaymentInfoURL && !onOrigin(fields.PaymentInfoURL, origin, callbacks)))
    return null;
  if (fields.ClientBackURL && !onOrigin(fields.ClientBackURL, origin)) return null;
  return fields;
}

function digits(count: number): string {
  return [...crypto.getRandomValues(new Uint8Array(count))].map((byte) => String(byte % 10)).join("");
}

/**
 * Posts a signed callback until the site answers `1|OK`, as a gateway or ECPay's invoice service does:
 * the first try now, the rest in the background with a growing pause, `attempts` in all. Used by this
 * test gateway and by the invoice sandbox's consent page (`what` names it in the log).
 */
export async function deliverUntilOk(
  deps: Pick<SandboxDeps, "deliver" | "waitUntil" | "retryDelayMs" | "log">,
  url: string,
  fields: Record<string, string>,
  { what = "sandbox gateway", attempts = MAX_ATTEMPTS }: { what?: string; attempts?: number } = {},
): Promise<boolean> {
  const body = new URLSearchParams(fields).toString();
  const attempt = async () => {
    try {
      const response = await deps.deliver(
        new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
      );
      return (await response.text()) === ECPAY_OK;
    } catch (error) {
      deps.log.warn(`${what}: callback failed`, url, error);
      return false;
    }
  };
  if (await attempt()) return true;
  const delay = deps.retryDelayMs ?? ((n: number) => Math.min(60_000, 1000 * 2 ** n));
  deps.waitUntil(
    (async () => {
      for (let n = 1; n < attempts; n++) {
        await new Promise((resolve) => setTimeout(resolve, delay(n)));
        if (await attempt()) return;
      }
      deps.log.error(`${what}: callback never answered 1|OK`, url);
    })(),
  );
  return false;
}

async function signed(fields: Record<string, string>, signingSecret: string): Promise<Record<string, string>> {
  const keys = await sandboxKeys(signingSecret, fields.MerchantID ?? "");
  return { ...fields, CheckMacValue: await checkMacValue(fields, keys) };
}

function back(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

interface AtmTicket {
  fields: Record<string, string>;
  tradeNo: string;
  account: string;
  expire: string;
}

/** The ATM account page, at an address the guest can come back to to "transfer" later. */
async function atmPage(url: URL, deps: SandboxDeps): Promise<Response> {
  let ticket: AtmTicket | null = null;
  try {
    ticket = JSON.parse(new TextDecoder().decode(fromBase64Url(url.searchParams.get("d") ?? "") ?? new Uint8Array())) as AtmTicket;
  } catch {
    ticket = null;
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket?.fields ?? {})) form.set(name, String(value));
  const checkout = await verifiedCheckout(form, deps.signingSecret, deps.origin);
  const texts = sandboxTexts(checkout?.Language);
  if (!checkout || !ticket || !/^\d{1,20}$/.test(ticket.tradeNo) || !/^\d{1,20}$/.test(ticket.account))
    return page(texts, `<p role="alert">${escapeHtml(texts.invalid)}</p>`, 400);
  const summary = `<dl><dt>${escapeHtml(texts.order)}</dt><dd>${escapeHtml(checkout.MerchantTradeNo ?? "")}</dd><dt>${escapeHtml(texts.amount)}</dt><dd>${escapeHtml(formatPrice(Number(checkout.TotalAmount), texts.lang))}</dd></dl>`;
  const details = `<p role="status">${escapeHtml(texts.atmIssued)}</p><dl><dt>${escapeHtml(texts.bank)}</dt><dd>812</dd><dt>${escapeHtml(texts.account)}</dt><dd>${ticket.account}</dd><dt>${escapeHtml(texts.payBy)}</dt><dd>${escapeHtml(ticket.expire)}</dd></dl>`;
  const transfer = `<form method="post" action="${SANDBOX_PATH}/decide">${hiddenFields({ ...checkout, sandbox_trade_no: ticket.tradeNo })}<button type="submit" name="sandbox_decision" value="atm_pay">${escapeHtml(texts.transferNow)}</button></form>`;
  return page(
    texts,
    `${summary}${details}${transfer}<p><a href="${escapeHtml(checkout.ClientBackURL || "/")}">${escapeHtml(texts.back)}</a></p>`,
  );
}

export async function handleSandbox(request: Request, deps: SandboxDeps): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.endsWith("/atm") && (request.method === "GET" || request.method === "HEAD")) return atmPage(url, deps);
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
  // Anything but a form (empty, JSON, text, broken multipart) is the same 400 as a bad signature.
  const form = (await readForm(request)) ?? new FormData();
  const checkout = await verifiedCheckout(form, deps.signingSecret, deps.origin);
  const texts = sandboxTexts(typeof form.get("Language") === "string" ? String(form.get("Language")) : "");
  if (!checkout) return page(texts, `<p role="alert">${escapeHtml(texts.invalid)}</p>`, 400);
  const now = deps.now ?? new Date();
  const summary = `<dl><dt>${escapeHtml(texts.order)}</dt><dd>${escapeHtml(checkout.MerchantTradeNo ?? "")}</dd><dt>${escapeHtml(texts.amount)}</dt><dd>${escapeHtml(formatPrice(Number(checkout.TotalAmount), texts.lang))}</dd></dl>`;
  const action = `${SANDBOX_PATH}/decide`;
  const button = (decision: string, label: string, extra: Record<string, string> = {}) =>
    `<form method="post" action="${action}">${hiddenFields({ ...checkout, ...extra })}<button type="submit" name="sandbox_decision" value="${decision}">${escapeHtml(label)}</button></form>`;

  if (url.pathname.endsWith("/checkout")) {
    return page(texts, `${summary}${button("pay", texts.pay)}${button("decline", texts.decline)}${button("atm", texts.atm)}`);
  }

  const decision = String(form.get("sandbox_decision") ?? "");
  const common = {
    MerchantID: checkout.MerchantID ?? "",
    MerchantTradeNo: checkout.MerchantTradeNo ?? "",
    StoreID: "",
    TradeAmt: checkout.TotalAmount ?? "",
    TradeDate: ecpayDate(now),
    CustomField1: "",
    CustomField2: "",
    CustomField3: "",
    CustomField4: "",
  };
  const backTo = checkout.ClientBackURL || "/";
  if (decision === "pay" || decision === "atm_pay" || decision === "decline") {
    const paid = decision !== "decline";
    const tradeNo = String(form.get("sandbox_trade_no") ?? "") || `${ecpayDate(now).replace(/\D/g, "").slice(2, 10)}${digits(8)}`;
    const result = await signed(
      {
        ...common,
        RtnCode: paid ? "1" : "10100058",
        RtnMsg: paid ? "交易成功" : "付款失敗",
        TradeNo: tradeNo,
        PaymentDate: paid ? ecpayDate(now) : "",
        PaymentType: decision === "atm_pay" ? "ATM_TAISHIN" : "Credit_CreditCard",
        PaymentTypeChargeFee: "0",
        SimulatePaid: "0",
      },
      deps.signingSecret,
    );
    await deliverUntilOk(deps, checkout.ReturnURL ?? "", result);
    return back(backTo);
  }
  if (decision === "atm") {
    const days = Math.max(1, Math.min(60, Number(checkout.ExpireDate) || 3));
    const expire = ecpayDate(new Date(now.getTime() + days * 86_400_000)).slice(0, 10);
    const tradeNo = `${ecpayDate(now).replace(/\D/g, "").slice(2, 10)}${digits(8)}`;
    const account = digits(14);
    const info = await signed(
      {
        ...common,
        RtnCode: "2",
        RtnMsg: "Get VirtualAccount Succeeded",
        TradeNo: tradeNo,
        PaymentType: "ATM_TAISHIN",
        BankCode: "812",
        vAccount: account,
        ExpireDate: expire,
      },
      deps.signingSecret,
    );
    if (checkout.PaymentInfoURL) await deliverUntilOk(deps, checkout.PaymentInfoURL, info);
    const ticket: AtmTicket = { fields: checkout, tradeNo, account, expire };
    return back(`${SANDBOX_PATH}/atm?d=${base64Url(JSON.stringify(ticket))}`);
  }
  return page(texts, `<p role="alert">${escapeHtml(texts.invalid)}</p>`, 400);
}
