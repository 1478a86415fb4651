/**
 * CSV as spreadsheets open it (decision 152): UTF-8 with a byte order mark (Excel reads Chinese,
 * Japanese and Korean names right only with it), CRLF line ends, and fields quoted per RFC 4180.
 * A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return
 * before one) is prefixed with an apostrophe, so a guest's name like "=HYPERLINK(…)" stays text.
 */

export const CSV_BOM = "\uFEFF";

/** One cell: numbers as they are; text neutralized against formulas, and quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
