/**
 * ECPay's B2C e-invoice API, revision 3.0.0 (decision 159). Every call is a JSON POST of
 * `{MerchantID, RqHeader: {Timestamp, Revision}, Data}`, where Data is the URL-encoded JSON of the
 * request, AES-128-CBC (PKCS7) with the merchant's HashKey and HashIV, in base64. The answer is
 * `{MerchantID, RpHeader, TransCode, TransMsg, Data}` with Data encrypted the same way: an answer
 * that does not decrypt with our keys, or names another merchant, is not believed. RtnCode 1 is
 * success. HTTP 403 means "too fast": wait 30 minutes, never retry in a loop. Callbacks (the
 * buyer's consent to an allowance) are form posts signed with the MD5 CheckMacValue.
 */
import { checkMacSource } from "~/backend/payments/gateways/ecpay";
import { base64, fromBase64Url, safeEqual } from "~/lib/crypto";
import { md5Hex } from "~/lib/md5";
import { ecpayBuyerFlags } from "~/domain/einvoice/buyer";
import type { InvoiceItem } from "~/domain/einvoice/items";
import {
  failure,
  type AllowanceRequest,
  type EinvoiceProvider,
  type Fetcher,
  type IssueRequest,
  type IssuedInvoice,
  type ProviderAnswer,
} from "~/backend/einvoice/provider";

export const ECPAY_EINVOICE_HOST = {
  test: "https://einvoice-stage.ecpay.com.tw",
  production: "https://einvoice.ecpay.com.tw",
} as const;

export const ECPAY_REVISION = "3.0.0";

/** ECPay's public test merchant for e-invoices (shared integrations notes). */
export const ECPAY_EINVOICE_TEST_KEYS = { merchantId: "2000132", hashKey: "ejCk326UnaZWKisg", hashIv: "q9jcZX8Ib9LM8wYk" } as const;

export interface EcpayEinvoiceKeys {
  merchantId: string;
  hashKey: string;
  hashIv: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

async function aesKey(keys: Pick<EcpayEinvoiceKeys, "hashKey">, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(keys.hashKey), "AES-CBC", false, [usage]);
}

/**
 * URL-encodes the JSON as ECPay's example does (its vector): UTF-8 bytes as %XX in uppercase, a
 * space as %20, so that both a .NET decoder (which reads "+" as a space) and a strict one read it
 * the same; a "+" of a mobile barcode is %2B.
 */
export function einvoiceUrlEncode(text: string): string {
  return encodeURIComponent(text);
}

/** The reverse, for either case of %xx (ECPay answers in lowercase too), `+` as a space. */
export function einvoiceUrlDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, " "));
}

/** Data of a request: base64(AES-128-CBC(PKCS7, HashKey, HashIV, URL-encoded JSON)). */
export async function encryptData(value: unknown, keys: Pick<EcpayEinvoiceKeys, "hashKey" | "hashIv">): Promise<string> {
  const plain = encoder.encode(einvoiceUrlEncode(JSON.stringify(value)));
  const cipher = await crypto.subtle.encrypt({ name: "AES-CBC", iv: encoder.encode(keys.hashIv) }, await aesKey(keys, "encrypt"), plain);
  return base64(cipher);
}

/** The JSON inside an answer's Data, or null when it does not decrypt with these keys to JSON. */
export async function decryptData(data: string, keys: Pick<EcpayEinvoiceKeys, "hashKey" | "hashIv">): Promise<unknown> {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const bytes = fromBase64Url(data.replace(/\+/g, "-").replace(/\//g, "_"));
  if (!bytes || bytes.length === 0 || bytes.length % 16 !== 0) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-CBC", iv: encoder.encode(keys.hashIv) }, await aesKey(keys, "decrypt"), bytes);
    return JSON.parse(einvoiceUrlDecode(decoder.decode(plain)));
  } catch {
    return null;
  }
}

/** The MD5 CheckMacValue of ECPay's e-invoice callbacks: as AIO's (sorted, .NET URL-encoding, lowercase), MD5, uppercase. */
export function einvoiceCheckMacValue(
  params: Readonly<Record<string, string>>,
  keys: Pick<EcpayEinvoiceKeys, "hashKey" | "hashIv">,
): string {
  return md5Hex(checkMacSource(params, keys)).toUpperCase();
}

/** A verified allowance-consent callback (AllowanceByCollegiate's ReturnURL), or why it is refused. */
export function readCollegiateCallback(
  form: URLSearchParams,
  keys: Pick<EcpayEinvoiceKeys, "hashKey" | "hashIv">,
): { ok: true; consented: boolean; allowanceNumber: string; invoiceNumber: string; remaining: number } | { ok: false; reason: string } {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (name in fields) return { ok: false, reason: `duplicate field ${name}` };
    fields[name] = value;
  }
  const given = fields.CheckMacValue;
  if (!given) return { ok: false, reason: "no CheckMacValue" };
  if (!safeEqual(given.toUpperCase(), einvoiceCheckMacValue(fields, keys))) return { ok: false, reason: "CheckMacValue mismatch" };
  return {
    ok: true,
    consented: fields.RtnCode === "1",
    allowanceNumber: fields.IA_Allow_No ?? "",
    invoiceNumber: fields.IA_Invoice_No ?? "",
    remaining: Number(fields.IIS_Remain_Allowance_Amt ?? "0"),
  };
}

/** ECPay's "yyyy-MM-dd HH:mm:ss" (or with "/"), Taipei time, as an ISO instant; "" when it is not one. */
export function ecpayTaipeiInstant(text: unknown): string {
  const match = typeof text === "string" ? /^(\d{4})[-/](\d{2})[-/](\d{2})[ +T](\d{2}):(\d{2}):(\d{2})$/.exec(text.trim()) : null;
  if (!match) return "";
  const [, y, mo, d, h, mi, se] = match.map(Number) as number[];
  const at = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, (h ?? 0) - 8, mi ?? 0, se ?? 0);
  return Number.isNaN(at) ? "" : new Date(at).toISOString();
}

/** ECPay's InvoiceDate ("2019-09-17 17:00:17", or "+" for the space) as the Taipei date it names. */
export function ecpayInvoiceDay(text: unknown): string {
  const match = typeof text === "string" ? /^(\d{4})[-/](\d{2})[-/](\d{2})/.exec(text) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : "";
}

const INVOICE_NUMBER = /^[A-Z]{2}\d{8}$/;
const RANDOM_NUMBER = /^\d{4}$/;

/** ECPay's item fields (v3.0.0): ItemSeq, ItemName, ItemCount, ItemWord, ItemPrice, ItemTaxType (1: taxed), ItemAmount. */
export function ecpayItems(items: readonly InvoiceItem[]) {
  return items.map((item, index) => ({
    ItemSeq: index + 1,
    ItemName: item.name,
    ItemCount: item.count,
    ItemWord: item.word,
    ItemPrice: item.price,
    ItemTaxType: "1",
    ItemAmount: item.amount,
  }));
}

export interface EcpayEinvoiceOptions {
  keys: EcpayEinvoiceKeys;
  mode: "test" | "production";
  fetcher: Fetcher;
  now?: () => Date;
  /** How long one call may take before it is given up as unavailable (ECPAY_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
}

/**
 * One call's deadline: a booking's remote check, the desk's run before it answers (decision 169) and
 * the Cron's pass never wait on a provider that does not answer. An issue given up on is looked up by
 * its relate number on the next run, never issued twice (decision 159).
 */
export const ECPAY_CALL_TIMEOUT_MS = 10_000;

type Decrypted = Record<string, unknown>;

/** Why ECPay would refuse an invoice whose items do not add up to its amount (its error 1200031), checked before asking. */
export function itemsMismatch(items: readonly InvoiceItem[], amount: number): string | null {
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  const each = items.find((item) => item.price * item.count !== item.amount);
  if (each) return `item ${each.name}: ${each.count} x ${each.price} is not ${each.amount}`;
  return total === amount ? null : `the items add up to ${total}, not ${amount}`;
}

/** The issue fields every Issue and DelayIssue carries. */
function issueData(merchantId: string, request: IssueRequest): Record<string, unknown> {
  const flags = ecpayBuyerFlags(request.buyer);
  const company = request.buyer.kind === "company" ? request.buyer : null;
  return {
    MerchantID: merchantId,
    RelateNumber: request.relateNumber,
    CustomerID: "",
    CustomerIdentifier: flags.CustomerIdentifier,
    // A company invoice names the company; the proof is printed, so its address is needed.
    CustomerName: company ? company.companyName : request.customerName.slice(0, 60),
    CustomerAddr: company ? company.companyAddress : "",
    CustomerPhone: "",
    CustomerEmail: request.buyer.email,
    ClearanceMark: "",
    Print: flags.Print,
    Donation: flags.Donation,
    LoveCode: flags.LoveCode,
    CarrierType: flags.CarrierType,
    CarrierNum: flags.CarrierNum,
    TaxType: "1",
    SalesAmount: request.amount,
    InvoiceRemark: (request.remark ?? "").slice(0, 200),
    InvType: "07",
    // Prices include tax (B2C); for a company, ECPay splits the 5 % out of SalesAmount.
    vat: "1",
    Items: ecpayItems(request.items),
  };
}

/** The ECPay B2C e-invoice adapter. */
export function ecpayEinvoice(options: EcpayEinvoiceOptions): EinvoiceProvider {
  const { keys, fetcher } = options;
  const now = options.now ?? (() => new Date());
  const host = ECPAY_EINVOICE_HOST[options.mode];

  /** One call: encrypt, post, check the transport, decrypt and verify, then RtnCode. */
  async function call(path: string, data: Record<string, unknown>): Promise<ProviderAnswer<Decrypted>> {
    const body = JSON.stringify({
      MerchantID: keys.merchantId,
      RqHeader: { Timestamp: Math.floor(now().getTime() / 1000), Revision: ECPAY_REVISION },
      Data: await encryptData(data, keys),
    });
    let response: Response;
    try {
      response = await fetcher(
        new Request(`${host}/B2CInvoice/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(options.callTimeoutMs ?? ECPAY_CALL_TIMEOUT_MS),
        }),
      );
    } catch (error) {
      return failure("unavailable", "", `${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Calling too fast: ECPay answers 403, and asks for 30 minutes' rest.
    if (response.status === 403) return failure("rate_limited", "403", `${path}: HTTP 403, too many calls: wait 30 minutes`);
    if (!response.ok) return failure("unavailable", String(response.status), `${path}: HTTP ${response.status}`);
    let answer: Record<string, unknown>;
    try {
      answer = (await response.json()) as Record<string, unknown>;
    } catch {
      return failure("unavailable", "", `${path}: the answer is not JSON`);
    }
    if (typeof answer !== "object" || answer === null) return failure("unavailable", "", `${path}: the answer is not an object`);
    if (String(answer.MerchantID ?? "") !== keys.merchantId) return failure("unavailable", "", `${path}: an answer for another merchant`);
    if (Number(answer.TransCode) !== 1) {
      return failure(
        "refused",
        String(answer.TransCode ?? ""),
        `${path}: TransCode ${String(answer.TransCode)} ${String(answer.TransMsg ?? "")}`,
      );
    }
    const decrypted = typeof answer.Data === "string" ? await decryptData(answer.Data, keys) : null;
    if (!decrypted || typeof decrypted !== "object") return failure("unavailable", "", `${path}: Data does not decrypt with our keys`);
    const fields = decrypted as Decrypted;
    if (Number(fields.RtnCode) !== 1) {
      return failure("refused", String(fields.RtnCode ?? ""), `${path}: RtnCode ${String(fields.RtnCode)} ${String(fields.RtnMsg ?? "")}`);
    }
    return { ok: true, value: fields };
  }

  function issued(path: string, fields: Decrypted): ProviderAnswer<IssuedInvoice> {
    const number = String(fields.InvoiceNo ?? fields.IIS_Number ?? "");
    const randomNumber = String(fields.RandomNumber ?? fields.IIS_Random_Number ?? "");
    const issuedOn = ecpayInvoiceDay(fields.InvoiceDate ?? fields.IIS_Create_Date);
    if (!INVOICE_NUMBER.test(number) || !RANDOM_NUMBER.test(randomNumber) || issuedOn === "") {
      return failure("unavailable", "", `${path}: success without a well-formed invoice number, random number and date`);
    }
    return { ok: true, value: { number, randomNumber, issuedOn } };
  }

  /**
   * A remote check's answer: `IsExist` "Y" exists, "N" does not; anything else ("no data": the field
   * missing or empty) says nothing, and "no data" is not "invalid" (decision 166): a failure.
   */
  function existence(path: string, fields: Decrypted): ProviderAnswer<{ exists: boolean }> {
    const said = String(fields.IsExist ?? "").toUpperCase();
    if (said === "Y") return { ok: true, value: { exists: true } };
    if (said === "N") return { ok: true, value: { exists: false } };
    return failure("unavailable", "no_data", `${path}: success without IsExist Y or N (no data)`);
  }

  async function getIssue(relateNumber: string) {
    const answer = await call("GetIssue", { MerchantID: keys.merchantId, RelateNumber: relateNumber });
    return answer;
  }

  async function allowanceCall(path: "Allowance" | "AllowanceByCollegiate", request: AllowanceRequest, extra: Record<string, unknown>) {
    const mismatch = itemsMismatch(request.items, request.amount);
    if (mismatch) return failure("refused", "local", `${path}: ${mismatch}`);
    const answer = await call(path, {
      MerchantID: keys.merchantId,
      InvoiceNo: request.number,
      InvoiceDate: request.issuedOn,
      AllowanceNotify: "E",
      CustomerName: request.customerName.slice(0, 60),
      NotifyMail: request.email,
      NotifyPhone: "",
      AllowanceAmount: request.amount,
      Items: ecpayItems(request.items),
      ...extra,
    });
    if (!answer.ok) return answer;
    const allowanceNumber = String(answer.value.IA_Allow_No ?? "");
    if (!/^\d{16}$/.test(allowanceNumber)) return failure("unavailable", "", `${path}: success without an allowance number`);
    // By consent, the answer also says until when the buyer may agree (IA_TempExpireDate; ECPay's SDK names it).
    const expiresAt = ecpayTaipeiInstant(answer.value.IA_TempExpireDate);
    return {
      ok: true as const,
      value: { allowanceNumber, remaining: Number(answer.value.IA_Remain_Allowance_Amt ?? 0), ...(expiresAt ? { expiresAt } : {}) },
    };
  }

  return {
    name: "ecpay",
    async issue(request) {
      const mismatch = itemsMismatch(request.items, request.amount);
      if (mismatch) return failure("refused", "1200031", `Issue: ${mismatch}`);
      const answer = await call("Issue", issueData(keys.merchantId, request));
      return answer.ok ? issued("Issue", answer.value) : answer;
    },
    async delayIssue(request) {
      const mismatch = itemsMismatch(request.items, request.amount);
      if (mismatch) return failure("refused", "1200031", `DelayIssue: ${mismatch}`);
      const answer = await call("DelayIssue", {
        ...issueData(keys.merchantId, request),
        // Held until TriggerIssue (DelayFlag 2), issued the day it is triggered (DelayDay 0).
        DelayFlag: "2",
        DelayDay: 0,
        Tsr: request.relateNumber,
        PayType: "2",
        PayAct: "ECPAY",
        NotifyURL: "",
      });
      return answer.ok ? { ok: true, value: { held: true } } : answer;
    },
    async triggerIssue(relateNumber) {
      const answer = await call("TriggerIssue", { MerchantID: keys.merchantId, Tsr: relateNumber, PayType: "2" });
      if (!answer.ok) return answer;
      // TriggerIssue answers no number: it is read back by the relate number.
      const lookup = await getIssue(relateNumber);
      return lookup.ok ? issued("GetIssue", lookup.value) : lookup;
    },
    async cancelDelayIssue(relateNumber) {
      const answer = await call("CancelDelayIssue", { MerchantID: keys.merchantId, Tsr: relateNumber });
      return answer.ok ? { ok: true, value: { cancelled: true } } : answer;
    },
    async invalid(request) {
      const answer = await call("Invalid", {
        MerchantID: keys.merchantId,
        InvoiceNo: request.number,
        InvoiceDate: request.issuedOn,
        Reason: request.reason.slice(0, 20),
      });
      return answer.ok ? { ok: true, value: { number: String(answer.value.InvoiceNo ?? request.number) } } : answer;
    },
    allowance(request) {
      return allowanceCall("Allowance", request, {});
    },
    allowanceByCollegiate(request) {
      return allowanceCall("AllowanceByCollegiate", request, { ReturnURL: request.returnUrl });
    },
    async allowanceInvalid(request) {
      // Never at the allowance endpoint: that would make another allowance (a known mistake).
      const answer = await call("AllowanceInvalid", {
        MerchantID: keys.merchantId,
        InvoiceNo: request.number,
        AllowanceNo: request.allowanceNumber,
        Reason: request.reason.slice(0, 20),
      });
      return answer.ok ? { ok: true, value: { number: request.number } } : answer;
    },
    async getIssue(relateNumber) {
      const answer = await getIssue(relateNumber);
      if (!answer.ok) {
        // 1600003: no invoice by that relate number (nothing was issued).
        return answer.code === "1600003" ? { ok: true, value: { found: false } } : answer;
      }
      const invoice = issued("GetIssue", answer.value);
      if (!invoice.ok) return invoice;
      return {
        ok: true,
        value: {
          found: true,
          delayed: false,
          invoice: invoice.value,
          amount: Number(answer.value.IIS_Sales_Amount ?? 0),
          voided: String(answer.value.IIS_Invalid_Status ?? "0") === "1",
        },
      };
    },
    async checkBarcode(code) {
      const answer = await call("CheckBarcode", { MerchantID: keys.merchantId, BarCode: code });
      return answer.ok ? existence("CheckBarcode", answer.value) : answer;
    },
    async checkLoveCode(code) {
      const answer = await call("CheckLoveCode", { MerchantID: keys.merchantId, LoveCode: code });
      return answer.ok ? existence("CheckLoveCode", answer.value) : answer;
    },
    // GetCompanyNameByTaxID (decision 168): RtnCode 1 and CompanyName, the registered name; RtnCode 7
    // 查無資料, no data (not "invalid"); 9000001, the Ministry of Finance's API down; any other a refusal.
    async companyName(taxId) {
      const path = "GetCompanyNameByTaxID";
      const answer = await call(path, { MerchantID: keys.merchantId, UnifiedBusinessNo: taxId });
      if (!answer.ok) {
        const rtnCode = answer.kind === "refused" && answer.message.startsWith(`${path}: RtnCode `) ? answer.code : "";
        if (rtnCode === "7") return { ok: true, value: { name: null } };
        if (rtnCode === "9000001") return failure("unavailable", rtnCode, answer.message);
        return answer;
      }
      const name = typeof answer.value.CompanyName === "string" ? answer.value.CompanyName.trim() : "";
      return { ok: true, value: { name: name === "" ? null : name } };
    },
  };
}
