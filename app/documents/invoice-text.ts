/**
 * An order's e-invoice in words (decision 159): its numbers with their random numbers, or when it
 * will be issued, and how the guest receives it — one text for the order page, the emails and the
 * confirmation PDF. Pure, for the site and the back end alike.
 */
import type { Language } from "~/i18n/languages";
import { formatDate, formatPrice } from "~/i18n/format";
import { docText } from "~/documents/labels";

/** The order's `invoice` as the API answers it (docs/api.md "The order object"). */
export interface InvoiceFacts {
  status: "issued" | "voided" | "being_issued" | "after_payment" | "at_checkout" | "hotel_system";
  invoices: readonly { number: string; random_number: string; amount: number; issued_on: string }[];
  buyer: { kind: string; carrier?: string; carrier_code?: string; love_code?: string } | null;
  /** The latest allowance, when asked by the guest's emailed consent (decision 167). */
  allowance?: { status: "awaiting" | "issued" | "refused" | "expired"; amount: number };
}

/** How the guest receives it, in words; "" when the buyer is unknown. */
function buyerText(lang: Language, buyer: InvoiceFacts["buyer"], company: { company_reg_number?: string; company_name?: string }) {
  if (!buyer) return "";
  const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params);
  switch (buyer.kind) {
    case "donation":
      return t("invoice.buyer.donation", { code: buyer.love_code ?? "" });
    case "company":
      return t("invoice.buyer.company", { tax_id: company.company_reg_number ?? "", name: company.company_name ?? "" });
    case "carrier":
      if (buyer.carrier === "mobile") return t("invoice.buyer.mobile", { code: buyer.carrier_code ?? "" });
      if (buyer.carrier === "citizen") return t("invoice.buyer.citizen", { code: buyer.carrier_code ?? "" });
      return t("invoice.buyer.member");
    default:
      return "";
  }
}

/**
 * The invoice's lines, [label, value], each invoice on a line of its own ("AB12345678 · random
 * number 1234 · NT$2,000 · 10 Jun 2025"), then how it is received. None when Portico issues none.
 */
export function invoiceTextLines(
  lang: Language,
  invoice: InvoiceFacts | null | undefined,
  company: { company_reg_number?: string; company_name?: string } = {},
): [string, string][] {
  if (!invoice) return [];
  const t = (key: Parameters<typeof docText>[1], params?: Record<string, string | number>) => docText(lang, key, params);
  const label = t("invoice.heading");
  const lines: [string, string][] =
    invoice.invoices.length > 0
      ? invoice.invoices.map((entry): [string, string] => [
          t("invoice.number"),
          [
            entry.number,
            entry.random_number ? t("invoice.random_number", { random: entry.random_number }) : "",
            formatPrice(entry.amount, lang),
            entry.issued_on ? formatDate(entry.issued_on, lang) : "",
            invoice.status === "voided" ? t("invoice.status.voided") : "",
          ]
            .filter(Boolean)
            .join(" · "),
        ])
      : [[label, t(`invoice.status.${invoice.status}`)]];
  // An allowance asked by the guest's consent: where it stands, in one short line.
  if (invoice.allowance)
    lines.push([
      t("invoice.allowance"),
      t(`invoice.allowance.${invoice.allowance.status}`, { amount: formatPrice(invoice.allowance.amount, lang) }),
    ]);
  const received = buyerText(lang, invoice.buyer, company);
  if (received && invoice.status !== "hotel_system") lines.push([t("invoice.received_as"), received]);
  return lines;
}
