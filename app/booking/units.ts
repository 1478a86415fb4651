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
