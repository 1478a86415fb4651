/**
 * An order's add-ons (issue 27) as the confirmation PDF and the emails list them: each item's name,
 * count and amount, in the words of the order page ("Breakfast × 2", "NT$1,600"), in the order's
 * language. Pure, for the site and the back end alike.
 */
import { PricedAddonSchema } from "~/contract/addons";
import type { Language } from "~/i18n/languages";
import { formatPrice } from "~/i18n/format";
import * as v from "valibot";
import { docText } from "~/documents/labels";

/** One add-on: its name and count, and its amount ("" for an item another back end sent without one). */
export interface AddonLine {
  item: string;
  amount: string;
}

/** The order's `attachment_list` as lines; an item with neither price nor name is left out (as the order page shows it: by name only). */
export function addonLines(lang: Language, list: readonly unknown[] | undefined): AddonLine[] {
  return (list ?? []).flatMap((raw): AddonLine[] => {
    const priced = v.safeParse(PricedAddonSchema, raw);
    if (priced.success) {
      const { name, quantity, child_quantity, amount } = priced.output;
      return [{ item: docText(lang, "pdf.addon_item", { name, count: quantity + child_quantity }), amount: formatPrice(amount, lang) }];
    }
    const name = typeof raw === "object" && raw !== null && "name" in raw ? (raw as { name: unknown }).name : null;
    return typeof name === "string" && name.trim() ? [{ item: name.trim(), amount: "" }] : [];
  });
}
