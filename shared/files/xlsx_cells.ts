/** Cell-text rules both XLSX readers share (the streaming one and the SheetJS one). */
import * as XLSX from "xlsx";

const dateFormatCache = new Map<string, boolean>();

/** Whether a number format shows a date or time (SheetJS's classification, cached). */
export function isDateFormat(format: string): boolean {
  let known = dateFormatCache.get(format);
  if (known === undefined) {
    known = XLSX.SSF.is_date(format) as boolean;
    dateFormatCache.set(format, known);
  }
  return known;
}

/** A number format that only pads with zeros ("00000") marks an identifier such as an item number. */
export const ZERO_PAD = /^0+$/;

/**
 * Plain text of a number as the feeds receive it: at most 15 significant digits, as Excel
 * itself keeps, so 0.1+0.2 stored as 0.30000000000000004 reads "0.3".
 */
export function numberText(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  return String(Number(v.toPrecision(15)));
}
