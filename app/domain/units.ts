/**
 * What a hotel sells one of, by its kind (spec §3): a campsite sells sites, a country villa or a
 * cabin site sells whole units, everyone else rooms. Words that count what a guest books ("18 rooms
 * left", "per room") follow it (docs/decisions/020-from-prices-and-wording.md).
 */
export type LodgingUnit = "room" | "site" | "unit";

const UNIT_BY_KIND: Readonly<Record<number, LodgingUnit>> = {
  2: "site", // campsite
  9: "unit", // country villa
  17: "unit", // cabin
};

export function lodgingUnit(kind: number | undefined): LodgingUnit {
  return (kind !== undefined && UNIT_BY_KIND[kind]) || "room";
}

/** The translation key of a counting word for this unit: rooms use the key itself, others `<key>.<unit>`. */
export function unitKey(key: string, unit: LodgingUnit): string {
  return unit === "room" ? key : `${key}.${unit}`;
}

/**
 * A language's messages in a hotel's words (issue 25 item 8; decision 085): each `<key>.<unit>`
 * (and `<key>.<unit>_one`…) stands in for `<key>`, so every text the page translator gives — the
 * booking page's and checkout's, the receipt's, the pay and order pages' — names what the hotel
 * sells, without each call choosing. `unitKey` stays for loaders, which translate with i18next.
 */
export function withUnitWords<T extends Record<string, Record<string, string>>>(messages: T, unit: LodgingUnit): T {
  if (unit === "room") return messages;
  const marker = `.${unit}`;
  const out: Record<string, Record<string, string>> = {};
  for (const [ns, table] of Object.entries(messages)) {
    const words: Record<string, string> = { ...table };
    for (const [key, text] of Object.entries(table)) {
      const at = key.lastIndexOf(marker);
      if (at <= 0) continue;
      const rest = key.slice(at + marker.length);
      if (rest === "" || /^_(zero|one|two|few|many|other)$/.test(rest)) words[key.slice(0, at) + rest] = text;
    }
    out[ns] = words;
  }
  return out as T;
}
