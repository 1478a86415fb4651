/**
 * The provider's remote checks at booking, which only advise (decision 166, issue 41): before an
 * order with a cloud invoice on a mobile barcode, or a donation code, is written, the hotel's
 * provider is asked whether the code exists (CheckBarcode, CheckLoveCode), with a short deadline;
 * for a company invoice, the name its 統一編號 is registered to (GetCompanyNameByTaxID, decision 168).
 * Only a clear "does not exist", or a registered name plainly not the one typed, is advice, given
 * once per code: the guest checks it or places the booking again with it as typed. A provider that
 * is down, slow past the deadline, refuses the check or has no data says nothing to the guest (a log
 * line): the booking goes on. Never throws.
 */
import { normalisedCode, type BuyerChoice } from "~/domain/einvoice/buyer";
import { sameCompanyName } from "~/domain/einvoice/company-name";
import type { EinvoiceProvider, ProviderAnswer } from "~/backend/einvoice/provider";
import { rememberedBuyer } from "~/backend/einvoice/invoices.server";
import { einvoiceProvider, hotelInvoicing, requestEinvoiceDeps } from "~/backend/einvoice/registry.server";
import type { BackendContext } from "~/backend/route";

/** How long a booking waits at most for the provider's answer (run beside the order's pricing). */
export const REMOTE_CHECK_DEADLINE_MS = 1_500;

/** The code of a choice the provider can be asked about: a mobile barcode, a donation code, or a company's 統一編號. */
export interface CheckableCode {
  kind: "mobile_barcode" | "love_code" | "tax_id";
  code: string;
}

/**
 * The advice: the provider does not know this code (the order payload's field it was typed in), or
 * (decision 168) registers this 統一編號 to another name than the one typed, `registeredName`.
 */
export type BuyerAdvice =
  | { kind: "mobile_barcode" | "love_code"; code: string; field: "invoice.carrier_code" | "invoice.love_code" }
  | { kind: "tax_id"; code: string; field: "company_name"; registeredName: string };

/** The code of a choice the provider's remote checks can be asked about, or null (citizen certificate, member carrier). */
export function checkableCode(choice: BuyerChoice): CheckableCode | null {
  if (choice.kind === "carrier" && choice.carrier === "mobile") return { kind: "mobile_barcode", code: choice.code };
  if (choice.kind === "donation") return { kind: "love_code", code: choice.loveCode };
  if (choice.kind === "company") return { kind: "tax_id", code: choice.taxId };
  return null;
}

const WHAT: Record<CheckableCode["kind"], string> = {
  mobile_barcode: "mobile barcode",
  love_code: "donation code",
  tax_id: "company's tax ID (its registered name)",
};

/** A registered name as shown to the guest: no control characters, spaces collapsed, at most 100 characters. */
export function registeredNameText(name: string): string {
  const text = name
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return [...text].slice(0, 100).join("").trim();
}

/** Whether a member's remembered choice is this one: placed before, it is not asked about again. */
function rememberedIs(remembered: BuyerChoice | null, choice: BuyerChoice, checkable: CheckableCode): boolean {
  if (!remembered) return false;
  const before = checkableCode(remembered);
  if (before?.kind !== checkable.kind || before.code !== checkable.code) return false;
  // A company: the same number with the same name (another name typed is asked about).
  return remembered.kind !== "company" || (choice.kind === "company" && remembered.companyName === choice.companyName);
}

/** Asks the provider about the choice: the advice, null (known, or the same name), or "no data". */
async function ask(
  provider: EinvoiceProvider,
  choice: BuyerChoice,
  checkable: CheckableCode,
): Promise<ProviderAnswer<BuyerAdvice | null | "no_data">> {
  if (checkable.kind === "tax_id") {
    const answer = await provider.companyName(checkable.code);
    if (!answer.ok) return answer;
    const registered = answer.value.name === null ? "" : registeredNameText(answer.value.name);
    if (registered === "") return { ok: true, value: "no_data" };
    const typed = choice.kind === "company" ? choice.companyName : "";
    if (sameCompanyName(typed, registered)) return { ok: true, value: null };
    return { ok: true, value: { kind: "tax_id", code: checkable.code, field: "company_name", registeredName: registered } };
  }
  const answer =
    checkable.kind === "mobile_barcode" ? await provider.checkBarcode(checkable.code) : await provider.checkLoveCode(checkable.code);
  if (!answer.ok) return answer;
  if (answer.value.exists) return { ok: true, value: null };
  const field = checkable.kind === "mobile_barcode" ? "invoice.carrier_code" : "invoice.love_code";
  return { ok: true, value: { kind: checkable.kind, code: checkable.code, field } };
}

/**
 * The advice to give before writing the order, or null: the booking goes on. `advisedCode` is the
 * code the guest was already advised of (the payload's `invoice.advised_code`): that one is never
 * asked again. A member's remembered choice with the same code (and, for a company, the same name)
 * is not asked either: it was placed before, told or not. Only a hotel whose invoices Portico issues
 * is asked.
 */
export async function adviseBuyer(
  ctx: Pick<BackendContext, "db" | "secret" | "fetcher" | "testGateway" | "log">,
  hotelId: number,
  choice: BuyerChoice,
  advisedCode: string,
  memberId: number | null,
  deadlineMs = REMOTE_CHECK_DEADLINE_MS,
): Promise<BuyerAdvice | null> {
  const checkable = checkableCode(choice);
  if (!checkable || normalisedCode(advisedCode) === checkable.code) return null;
  const what = WHAT[checkable.kind];
  try {
    const [config, remembered] = await Promise.all([
      hotelInvoicing(ctx.db, hotelId),
      memberId === null ? Promise.resolve(null) : rememberedBuyer(ctx.db, memberId),
    ]);
    if (!config || (config.issuer !== "portico_at_payment" && config.issuer !== "portico_at_checkout")) return null;
    if (rememberedIs(remembered, choice, checkable)) return null;
    const provider = einvoiceProvider(config, requestEinvoiceDeps(ctx));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"deadline">((resolve) => {
      timer = setTimeout(() => resolve("deadline"), deadlineMs);
    });
    const answer = await Promise.race([ask(provider, choice, checkable), deadline]).finally(() => clearTimeout(timer));
    if (answer === "deadline") {
      ctx.log.warn(`e-invoice check of a ${what}: no answer within ${deadlineMs} ms: the booking goes on`);
      return null;
    }
    if (!answer.ok) {
      ctx.log.warn(`e-invoice check of a ${what}: ${answer.kind} (${answer.code}): the booking goes on`, answer.message);
      return null;
    }
    if (answer.value === "no_data") {
      ctx.log.info(`e-invoice check of a ${what}: the ${config.provider} provider has no data: the booking goes on`);
      return null;
    }
    if (answer.value) {
      ctx.log.info(
        answer.value.kind === "tax_id"
          ? `e-invoice check: the ${config.provider} provider registers this tax ID to another name: the guest is advised`
          : `e-invoice check: the ${config.provider} provider does not know this ${what}: the guest is advised`,
      );
    }
    return answer.value;
  } catch (error) {
    // A configuration error, a sandbox refused on a live host, a D1 error: never the booking's failure.
    ctx.log.warn(`e-invoice check of a ${what} left out: it could not be asked`, error);
    return null;
  }
}
