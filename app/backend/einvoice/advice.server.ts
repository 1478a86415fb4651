/**
 * The provider's remote checks at booking, which only advise (decision 166, issue 41): before an
 * order with a cloud invoice on a mobile barcode, or a donation code, is written, the hotel's
 * provider is asked whether the code exists (CheckBarcode, CheckLoveCode), with a short deadline.
 * Only a clear "does not exist" is advice, given once per code: the guest checks it or places the
 * booking again with it as typed. A provider that is down, slow past the deadline, refuses the
 * check or has no data says nothing to the guest (a log line): the booking goes on. Never throws.
 */
import { normalisedCode, type BuyerChoice } from "~/domain/einvoice/buyer";
import { rememberedBuyer } from "~/backend/einvoice/invoices.server";
import { einvoiceProvider, hotelInvoicing, requestEinvoiceDeps } from "~/backend/einvoice/registry.server";
import type { BackendContext } from "~/backend/route";

/** How long a booking waits at most for the provider's answer (run beside the order's pricing). */
export const REMOTE_CHECK_DEADLINE_MS = 1_500;

/** The code of a choice the provider can check: a mobile barcode, or a donation code. */
export interface CheckableCode {
  kind: "mobile_barcode" | "love_code";
  code: string;
}

/** The advice: the provider does not know this code (the order payload's field it was typed in). */
export interface BuyerAdvice extends CheckableCode {
  field: "invoice.carrier_code" | "invoice.love_code";
}

/** The code of a choice the provider's remote checks can be asked about, or null (citizen certificate, member carrier, company). */
export function checkableCode(choice: BuyerChoice): CheckableCode | null {
  if (choice.kind === "carrier" && choice.carrier === "mobile") return { kind: "mobile_barcode", code: choice.code };
  if (choice.kind === "donation") return { kind: "love_code", code: choice.loveCode };
  return null;
}

type Outcome = "exists" | "unknown" | "deadline" | "failed";

/**
 * The advice to give before writing the order, or null: the booking goes on. `advisedCode` is the
 * code the guest was already advised of (the payload's `invoice.advised_code`): that one is never
 * asked again. A member's remembered choice with the same code is not asked either: it was placed
 * before, told or not. Only a hotel whose invoices Portico issues is asked.
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
  const what = checkable.kind === "mobile_barcode" ? "mobile barcode" : "donation code";
  try {
    const [config, remembered] = await Promise.all([
      hotelInvoicing(ctx.db, hotelId),
      memberId === null ? Promise.resolve(null) : rememberedBuyer(ctx.db, memberId),
    ]);
    if (!config || (config.issuer !== "portico_at_payment" && config.issuer !== "portico_at_checkout")) return null;
    const before = remembered ? checkableCode(remembered) : null;
    if (before?.kind === checkable.kind && before.code === checkable.code) return null;
    const provider = einvoiceProvider(config, requestEinvoiceDeps(ctx));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"deadline">((resolve) => {
      timer = setTimeout(() => resolve("deadline"), deadlineMs);
    });
    const asked = checkable.kind === "mobile_barcode" ? provider.checkBarcode(checkable.code) : provider.checkLoveCode(checkable.code);
    const answer = await Promise.race([asked, deadline]).finally(() => clearTimeout(timer));
    const outcome: Outcome = answer === "deadline" ? "deadline" : !answer.ok ? "failed" : answer.value.exists ? "exists" : "unknown";
    if (outcome === "unknown") {
      ctx.log.info(`e-invoice check: the ${config.provider} provider does not know this ${what}: the guest is advised`);
      return { ...checkable, field: checkable.kind === "mobile_barcode" ? "invoice.carrier_code" : "invoice.love_code" };
    }
    if (outcome === "deadline") ctx.log.warn(`e-invoice check of a ${what}: no answer within ${deadlineMs} ms: the booking goes on`);
    else if (answer !== "deadline" && !answer.ok)
      ctx.log.warn(`e-invoice check of a ${what}: ${answer.kind} (${answer.code}): the booking goes on`, answer.message);
    return null;
  } catch (error) {
    // A configuration error, a sandbox refused on a live host, a D1 error: never the booking's failure.
    ctx.log.warn(`e-invoice check of a ${what} left out: it could not be asked`, error);
    return null;
  }
}
