/**
 * Whether the company name a guest typed is the one the invoice platform registers their 統一編號 to
 * (GetCompanyNameByTaxID, decision 168), compared leniently: only a name that is plainly another is
 * advised. Pure.
 */

/**
 * The common short forms of a company's legal form, as their long forms: 「(股)公司」 is how a
 * 股份有限公司 writes itself on a receipt, 「(有)公司」 a 有限公司.
 */
const SHORT_FORMS: [RegExp, string][] = [
  [/\(股\)/g, "股份有限"],
  [/\(有\)/g, "有限"],
];

/**
 * A company name as compared: NFKC (full-width letters and digits half-width, compatibility forms
 * folded), the short legal forms written out, 台 as 臺 (both are the official 臺's everyday form),
 * Latin letters in lowercase, without spaces, punctuation or symbols.
 */
export function companyNameKey(name: string): string {
  let key = name.normalize("NFKC");
  for (const [short, long] of SHORT_FORMS) key = key.replace(short, long);
  return key
    .replace(/台/g, "臺")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, "");
}

/**
 * Whether two names are the same company's: equal once compared as `companyNameKey`, or one
 * containing the other (「範例旅行社」 for 「範例旅行社股份有限公司」, the legal form left out). A name
 * with nothing left to compare (only punctuation) is not told apart from any.
 */
export function sameCompanyName(typed: string, registered: string): boolean {
  const a = companyNameKey(typed);
  const b = companyNameKey(registered);
  if (a === "" || b === "") return true;
  return a.includes(b) || b.includes(a);
}
