/**
 * ezPay's (藍新) e-invoice API (decision 171), behind the same interface as ECPay's. Every call is a
 * form POST of `MerchantID_` and `PostData_`: the request's fields as a query string, AES-256-CBC
 * with the merchant's HashKey and HashIV, in hex (NewebPay MPG's TradeInfo scheme: its codec is
 * reused, never written twice). The answer is plain JSON `{Status, Message, Result}`, Status
 * "SUCCESS" or an error code, Result a JSON string; an invoice's Result carries a CheckCode, the
 * uppercase SHA-256 of `HashIV=…&InvoiceTransNo=…&MerchantID=…&MerchantOrderNo=…&RandomNum=…&TotalAmt=…&HashKey=…`:
 * an answer whose CheckCode does not verify, or that names another merchant, order or amount, is
 * not believed. ezPay documents no "too fast" 403: every HTTP failure is `unavailable`.
 */
import { decryptTradeInfo, encryptTradeInfo } from "~/backend/payments/gateways/newebpay";
import { safeEqual, sha256Hex } from "~/lib/crypto";
import type { BuyerChoice } from "~/domain/einvoice/buyer";
import { companyTaxSplit, shareOut, type InvoiceItem } from "~/domain/einvoice/items";
import { ECPAY_CALL_TIMEOUT_MS, ecpayInvoiceDay, itemsMismatch } from "~/backend/einvoice/ecpay.server";
import {
  failure,
  type AllowanceRequest,
  type EinvoiceProvider,
  type Fetcher,
  type IssueRequest,
  type IssuedInvoice,
  type ProviderAnswer,
} from "~/backend/einvoice/provider";

export const EZPAY_EINVOICE_HOST = {
  test: "https://cinv.ezpay.com.tw",
  production: "https://inv.ezpay.com.tw",
} as const;

/** Each endpoint's version, as the open implementations send them (decision 171). */
export const EZPAY_VERSIONS = {
  invoice_issue: "1.5",
  invoice_touch_issue: "1.0",
  invoice_invalid: "1.0",
  allowance_issue: "1.3",
  allowanceInvalid: "1.0",
  invoice_search: "1.3",
} as const;
type Endpoint = keyof typeof EZPAY_VERSIONS;

export interface EzpayEinvoiceKeys {
  merchantId: string;
  hashKey: string;
  hashIv: string;
}

export interface EzpayEinvoiceOptions {
  keys: EzpayEinvoiceKeys;
  mode: "test" | "production";
  fetcher: Fetcher;
  now?: () => Date;
  /** How long one call may take before it is given up as unavailable (ECPAY_CALL_TIMEOUT_MS, shared). */
  callTimeoutMs?: number;
}

/** PostData_: the fields as a query string (form encoding), AES-256-CBC, lowercase hex. */
export function encryptPostData(fields: Readonly<Record<string, string>>, keys: Pick<EzpayEinvoiceKeys, "hashKey" | "hashIv">) {
  return encryptTradeInfo(new URLSearchParams(fields).toString(), keys);
}

/** The fields inside a PostData_, or null when it does not decrypt with these keys. */
export async function decryptPostData(
  postData: string,
  keys: Pick<EzpayEinvoiceKeys, "hashKey" | "hashIv">,
): Promise<Record<string, string> | null> {
  const plain = await decryptTradeInfo(postData, keys);
  return plain === null ? null : Object.fromEntries(new URLSearchParams(plain));
}

/** The fields an invoice's CheckCode covers (ezPay's answers to issue, trigger and search). */
export interface CheckCodeFields {
  InvoiceTransNo: string;
  MerchantID: string;
  MerchantOrderNo: string;
  RandomNum: string;
  TotalAmt: string | number;
}

/** ezPay's CheckCode: the fields sorted by name, between HashIV and HashKey, SHA-256, uppercase hex. */
export async function ezpayCheckCode(fields: CheckCodeFields, keys: Pick<EzpayEinvoiceKeys, "hashKey" | "hashIv">): Promise<string> {
  const sorted = (Object.keys(fields) as (keyof CheckCodeFields)[])
    .sort()
    .map((name) => `${name}=${String(fields[name])}`)
    .join("&");
  return (await sha256Hex(`HashIV=${keys.hashIv}&${sorted}&HashKey=${keys.hashKey}`)).toUpperCase();
}

/**
 * The buyer's fields: a company is B2B and printed with its 統一編號; a carrier is 0 (mobile
 * barcode), 1 (citizen certificate) or 2 (ezPay's member carrier, reached by the email); a
 * donation carries its LoveCode; none of those is printed.
 */
export function ezpayBuyerFields(buyer: BuyerChoice, customerName: string): Record<string, string> {
  const base = { BuyerUBN: "", BuyerAddress: "", BuyerEmail: buyer.email, CarrierType: "", CarrierNum: "", LoveCode: "" };
  switch (buyer.kind) {
    case "company":
      return {
        ...base,
        Category: "B2B",
        BuyerName: buyer.companyName,
        BuyerUBN: buyer.taxId,
        BuyerAddress: buyer.companyAddress,
        PrintFlag: "Y",
      };
    case "donation":
      return { ...base, Category: "B2C", BuyerName: customerName.slice(0, 30), LoveCode: buyer.loveCode, PrintFlag: "N" };
    case "carrier": {
      const type = buyer.carrier === "mobile" ? "0" : buyer.carrier === "citizen" ? "1" : "2";
      const number = buyer.carrier === "member" ? buyer.email : buyer.code;
      return { ...base, Category: "B2C", BuyerName: customerName.slice(0, 30), CarrierType: type, CarrierNum: number, PrintFlag: "N" };
    }
  }
}

/**
 * The items as ezPay's `|`-joined fields. B2C prices include tax (they add up to TotalAmt); B2B
 * prices are untaxed (they add up to Amt): each item's untaxed share of Amt by largest remainder,
 * and a count kept only when it divides the share (else one lot, 式), so price × count = amount.
 */
export function ezpayItemFields(items: readonly InvoiceItem[], untaxed: number | null): Record<string, string> {
  const amounts =
    untaxed === null
      ? items.map((item) => item.amount)
      : shareOut(
          untaxed,
          items.map((item) => item.amount),
        );
  const lines = items.map((item, index) => {
    const amount = amounts[index] ?? 0;
    const keepsCount = item.count > 0 && amount % item.count === 0;
    return keepsCount
      ? { name: item.name, count: item.count, word: item.word, price: amount / item.count, amount }
      : { name: item.name, count: 1, word: "式", price: amount, amount };
  });
  // "|" separates the items: one in a name would split it.
  const join = (pick: (line: (typeof lines)[number]) => string | number) =>
    lines.map((line) => String(pick(line)).replace(/\|/g, "/")).join("|");
  return {
    ItemName: join((line) => line.name),
    ItemCount: join((line) => line.count),
    ItemUnit: join((line) => line.word),
    ItemPrice: join((line) => line.price),
    ItemAmt: join((line) => line.amount),
  };
}

/** invoice_issue's fields for an invoice issued now (Status 1) or held until triggered (Status 0). */
function issueFields(request: IssueRequest, status: "1" | "0"): Record<string, string> {
  const company = request.buyer.kind === "company";
  const split = companyTaxSplit(request.amount);
  return {
    MerchantOrderNo: request.relateNumber,
    Status: status,
    ...ezpayBuyerFields(request.buyer, request.customerName),
    TaxType: "1",
    TaxRate: "5",
    Amt: String(split.untaxed),
    TaxAmt: String(split.tax),
    TotalAmt: String(request.amount),
    ...ezpayItemFields(request.items, company ? split.untaxed : null),
    Comment: (request.remark ?? "").slice(0, 200),
  };
}

const INVOICE_NUMBER = /^[A-Z]{2}\d{8}$/;
const RANDOM_NUMBER = /^\d{4}$/;

type Result = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");

/** The ezPay e-invoice adapter. */
export function ezpayEinvoice(options: EzpayEinvoiceOptions): EinvoiceProvider {
  const { keys, fetcher } = options;
  const now = options.now ?? (() => new Date());
  const host = EZPAY_EINVOICE_HOST[options.mode];

  /** One call: encrypt, post the form, check the transport, read Status and Result. */
  async function call(endpoint: Endpoint, fields: Record<string, string>): Promise<ProviderAnswer<Result>> {
    const postData = await encryptPostData(
      {
        RespondType: "JSON",
        Version: EZPAY_VERSIONS[endpoint],
        TimeStamp: String(Math.floor(now().getTime() / 1000)),
        ...fields,
      },
      keys,
    );
    let response: Response;
    try {
      response = await fetcher(
        new Request(`${host}/Api/${endpoint}`, {
          method: "POST",
          body: new URLSearchParams({ MerchantID_: keys.merchantId, PostData_: postData }),
          signal: AbortSignal.timeout(options.callTimeoutMs ?? ECPAY_CALL_TIMEOUT_MS),
        }),
      );
    } catch (error) {
      return failure("unavailable", "", `${endpoint}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) return failure("unavailable", String(response.status), `${endpoint}: HTTP ${response.status}`);
    let answer: Record<string, unknown>;
    try {
      answer = (await response.json()) as Record<string, unknown>;
    } catch {
      return failure("unavailable", "", `${endpoint}: the answer is not JSON`);
    }
    if (typeof answer !== "object" || answer === null) return failure("unavailable", "", `${endpoint}: the answer is not an object`);
    const status = text(answer.Status);
    if (status === "") return failure("unavailable", "", `${endpoint}: an answer without a Status`);
    if (status !== "SUCCESS") return failure("refused", status, `${endpoint}: ${status} ${text(answer.Message)}`);
    let result: unknown = answer.Result;
    if (typeof result === "string") {
      try {
        result = JSON.parse(result);
      } catch {
        return failure("unavailable", "", `${endpoint}: Result is not JSON`);
      }
    }
    if (typeof result !== "object" || result === null) return failure("unavailable", "", `${endpoint}: SUCCESS without a Result`);
    const read = result as Result;
    if (text(read.MerchantID) !== keys.merchantId) return failure("unavailable", "", `${endpoint}: an answer for another merchant`);
    return { ok: true, value: read };
  }

  /** Believes an invoice's answer only when its CheckCode verifies and it is the order and amount asked. */
  async function verified(endpoint: Endpoint, fields: Result, relateNumber: string, amount: number): Promise<ProviderAnswer<Result>> {
    const expected = await ezpayCheckCode(
      {
        InvoiceTransNo: text(fields.InvoiceTransNo),
        MerchantID: keys.merchantId,
        MerchantOrderNo: text(fields.MerchantOrderNo),
        RandomNum: text(fields.RandomNum),
        TotalAmt: text(fields.TotalAmt),
      },
      keys,
    );
    if (!safeEqual(text(fields.CheckCode).toUpperCase(), expected))
      return failure("unavailable", "check_code", `${endpoint}: the CheckCode does not verify: the answer is not believed`);
    if (text(fields.MerchantOrderNo) !== relateNumber || Number(fields.TotalAmt) !== amount)
      return failure("unavailable", "", `${endpoint}: an answer for another order or amount`);
    return { ok: true, value: fields };
  }

  function issued(endpoint: Endpoint, fields: Result): ProviderAnswer<IssuedInvoice> {
    const number = text(fields.InvoiceNumber);
    const randomNumber = text(fields.RandomNum);
    const issuedOn = ecpayInvoiceDay(fields.CreateTime);
    if (!INVOICE_NUMBER.test(number) || !RANDOM_NUMBER.test(randomNumber) || issuedOn === "")
      return failure("unavailable", "", `${endpoint}: success without a well-formed invoice number, random number and date`);
    return { ok: true, value: { number, randomNumber, issuedOn } };
  }

  /** invoice_search by our relate number and the invoice's total (SearchType 1), verified. */
  async function search(relateNumber: string, amount: number): Promise<ProviderAnswer<Result>> {
    const answer = await call("invoice_search", {
      SearchType: "1",
      MerchantOrderNo: relateNumber,
      TotalAmt: String(amount),
      InvoiceNumber: "",
      RandomNum: "",
    });
    return answer.ok ? verified("invoice_search", answer.value, relateNumber, amount) : answer;
  }

  /** ezPay finds an invoice by our relate number only with its total: a caller that does not give it is refused here. */
  const amountOf = (known: { amount: number } | undefined): number | null =>
    known && Number.isInteger(known.amount) && known.amount > 0 ? known.amount : null;
  const noAmount = (endpoint: Endpoint) =>
    failure("refused", "local", `${endpoint}: ezPay finds an invoice by its relate number only with its total amount`);

  const unsupported = (name: string) =>
    failure("unavailable", "unsupported", `${name}: not offered by ezPay's e-invoice API (decision 171)`);

  return {
    name: "ezpay",
    async issue(request) {
      const mismatch = itemsMismatch(request.items, request.amount);
      if (mismatch) return failure("refused", "local", `invoice_issue: ${mismatch}`);
      const answer = await call("invoice_issue", issueFields(request, "1"));
      if (!answer.ok) return answer;
      const checked = await verified("invoice_issue", answer.value, request.relateNumber, request.amount);
      return checked.ok ? issued("invoice_issue", checked.value) : checked;
    },
    async delayIssue(request) {
      const mismatch = itemsMismatch(request.items, request.amount);
      if (mismatch) return failure("refused", "local", `invoice_issue: ${mismatch}`);
      // Status 0: kept by ezPay until invoice_touch_issue (issue at check-out).
      const answer = await call("invoice_issue", issueFields(request, "0"));
      if (!answer.ok) return answer;
      const checked = await verified("invoice_issue", answer.value, request.relateNumber, request.amount);
      if (!checked.ok) return checked;
      if (text(checked.value.InvoiceTransNo) === "") return failure("unavailable", "", "invoice_issue: held without an InvoiceTransNo");
      return { ok: true, value: { held: true } };
    },
    async triggerIssue(relateNumber, known) {
      const amount = amountOf(known);
      if (amount === null) return noAmount("invoice_touch_issue");
      // The touch needs ezPay's InvoiceTransNo, which the held answer gave and the machine does not keep: read back by search.
      const held = await search(relateNumber, amount);
      if (!held.ok) return held;
      const answer = await call("invoice_touch_issue", {
        InvoiceTransNo: text(held.value.InvoiceTransNo),
        MerchantOrderNo: relateNumber,
        TotalAmt: String(amount),
      });
      if (!answer.ok) return answer;
      const checked = await verified("invoice_touch_issue", answer.value, relateNumber, amount);
      return checked.ok ? issued("invoice_touch_issue", checked.value) : checked;
    },
    async cancelDelayIssue() {
      return unsupported("cancelDelayIssue");
    },
    async invalid(request) {
      const answer = await call("invoice_invalid", { InvoiceNumber: request.number, InvalidReason: request.reason.slice(0, 20) });
      if (!answer.ok) return answer;
      // Its CheckCode covers fields this answer does not carry: it must at least name the invoice asked.
      if (text(answer.value.InvoiceNumber) !== request.number)
        return failure("unavailable", "", "invoice_invalid: an answer for another invoice");
      return { ok: true, value: { number: request.number } };
    },
    async allowance(request: AllowanceRequest) {
      const mismatch = itemsMismatch(request.items, request.amount);
      if (mismatch) return failure("refused", "local", `allowance_issue: ${mismatch}`);
      if (!request.relateNumber) return failure("refused", "local", "allowance_issue: ezPay needs the invoice's relate number");
      // Prices without tax (each item's share of the untaxed whole), each item's tax beside them
      // (ItemTaxAmt), and TotalAmt the whole allowance, tax included.
      const untaxed = companyTaxSplit(request.amount).untaxed;
      const shares = shareOut(
        untaxed,
        request.items.map((item) => item.amount),
      );
      const answer = await call("allowance_issue", {
        InvoiceNo: request.number,
        MerchantOrderNo: request.relateNumber,
        ...ezpayItemFields(request.items, untaxed),
        ItemTaxAmt: request.items.map((item, index) => item.amount - (shares[index] ?? 0)).join("|"),
        TotalAmt: String(request.amount),
        BuyerEmail: request.email,
        // Status 1: confirmed at once (the hotel holds the buyer's consent).
        Status: "1",
      });
      if (!answer.ok) return answer;
      const allowanceNumber = text(answer.value.AllowanceNo);
      if (allowanceNumber === "" || text(answer.value.InvoiceNumber) !== request.number)
        return failure("unavailable", "", "allowance_issue: success without an allowance number for the invoice asked");
      return { ok: true, value: { allowanceNumber, remaining: Number(answer.value.RemainAmt ?? 0) } };
    },
    async allowanceByCollegiate() {
      // ezPay's Status 0 allowance waits for the merchant's own confirmation; ezPay emails no consent link.
      return unsupported("allowanceByCollegiate");
    },
    async allowanceInvalid(request) {
      // Never at allowance_issue: that would make another allowance (a known mistake).
      const answer = await call("allowanceInvalid", { AllowanceNo: request.allowanceNumber, InvalidReason: request.reason.slice(0, 20) });
      if (!answer.ok) return answer;
      if (text(answer.value.AllowanceNo) !== request.allowanceNumber)
        return failure("unavailable", "", "allowanceInvalid: an answer for another allowance");
      return { ok: true, value: { number: request.number } };
    },
    async getIssue(relateNumber, known) {
      const amount = amountOf(known);
      if (amount === null) return noAmount("invoice_search");
      const answer = await search(relateNumber, amount);
      if (!answer.ok) return answer;
      // Held (Status 0, not yet touched): ezPay knows it, without a number.
      if (text(answer.value.InvoiceNumber) === "") return { ok: true, value: { found: true, delayed: true } };
      const invoice = issued("invoice_search", answer.value);
      if (!invoice.ok) return invoice;
      return {
        ok: true,
        value: {
          found: true,
          delayed: false,
          invoice: invoice.value,
          amount: Number(answer.value.TotalAmt),
          // InvoiceStatus 1 issued, 2 voided.
          voided: text(answer.value.InvoiceStatus) === "2",
        },
      };
    },
    async checkBarcode() {
      return unsupported("checkBarcode");
    },
    async checkLoveCode() {
      return unsupported("checkLoveCode");
    },
    async companyName() {
      return unsupported("companyName");
    },
  };
}
