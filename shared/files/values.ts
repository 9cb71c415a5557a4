/**
 * Turning cell text into numbers, dates and item numbers. Cells stay text in a table; these
 * run only when a consumer asks for a typed value, which keeps reading fast.
 */

/** The outcome of reading one cell as a typed value. Blank and N/A-like cells are reported, not guessed. */
export type ParsedValue<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "empty" | "not_available" | "invalid"; text: string };

/**
 * Cell texts that mean "no value" (compared trimmed, case-insensitively), including the
 * error values spreadsheets show in a cell.
 */
export const NOT_AVAILABLE_TOKENS: readonly string[] = [
  "n/a",
  "na",
  "#n/a",
  "n.a.",
  "null",
  "none",
  "nil",
  "-",
  "--",
  "—",
  "?",
  "#value!",
  "#ref!",
  "#div/0!",
  "#name?",
  "#num!",
  "#null!",
  "#getting_data",
];

const NA = new Set(NOT_AVAILABLE_TOKENS);

function missing(text: string): ParsedValue<never> | null {
  const t = text.trim();
  if (t === "") return { ok: false, reason: "empty", text };
  if (NA.has(t.toLowerCase())) return { ok: false, reason: "not_available", text };
  return null;
}

function invalid(text: string): ParsedValue<never> {
  return { ok: false, reason: "invalid", text };
}

const PLAIN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const DOT_THOUSANDS = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/;
const COMMA_DECIMAL = /^[+-]?\d+,\d*$/;
const COMMA_THOUSANDS = /^[+-]?\d{1,3}([. ]\d{3})+(,\d*)?$/;

/** Options for {@link parseNumber}. */
export interface NumberOptions {
  /** The file writes decimals with a comma ("1.234,5"), as semicolon-delimited files often do. */
  decimalComma?: boolean;
}

/**
 * Reads a number from cell text: surrounding spaces, thousands separators, a leading
 * currency sign, a trailing % (kept as the number shown, 5% → 5) and accounting negatives
 * "(5)" are accepted. "1,234" is one thousand two hundred thirty-four unless the file uses
 * decimal commas, where it is 1.234.
 *
 * @example
 * ```ts
 * parseNumber(" 1,234 ") // { ok: true, value: 1234 }
 * ```
 * @example
 * ```ts
 * parseNumber("1.234,5", { decimalComma: true }) // { ok: true, value: 1234.5 }
 * ```
 */
export function parseNumber(text: string, options: NumberOptions = {}): ParsedValue<number> {
  const none = missing(text);
  if (none) return none;
  let t = text.trim().replace(/\u00a0/g, " ");
  let negative = false;
  if (t.startsWith("(") && t.endsWith(")")) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  t = t.replace(/^([+-]?)\s*[$€£]\s*/, "$1");
  if (t.endsWith("%")) t = t.slice(0, -1).trimEnd();
  let normal: string | null = null;
  if (options.decimalComma) {
    if (PLAIN.test(t) && !t.includes(".")) normal = t;
    else if (COMMA_DECIMAL.test(t)) normal = t.replace(",", ".");
    else if (COMMA_THOUSANDS.test(t)) normal = t.replace(/[. ]/g, "").replace(",", ".");
  } else {
    if (PLAIN.test(t)) normal = t;
    else if (DOT_THOUSANDS.test(t)) normal = t.replace(/,/g, "");
  }
  if (normal === null) return invalid(text);
  const value = Number(normal);
  if (!Number.isFinite(value)) return invalid(text);
  return { ok: true, value: negative ? -value : value };
}

const DAY_MS = 86_400_000;
/** Excel's day 0 in the 1900 system is 1899-12-31, but it counts a 29 Feb 1900 that never was. */
const EXCEL_1900_EPOCH = Date.UTC(1899, 11, 30);
const EXCEL_1904_EPOCH = Date.UTC(1904, 0, 1);
const MAX_SERIAL = 2_958_465; // 9999-12-31

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/**
 * Converts an Excel date serial to ISO text: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` when the
 * serial carries a time of day. Serials 1–60 follow Excel's fictitious 1900-02-29.
 *
 * @example
 * ```ts
 * excelSerialToIso(45356) // "2024-03-05"
 * ```
 */
export function excelSerialToIso(serial: number, date1904 = false): string {
  let ms: number;
  if (date1904) ms = EXCEL_1904_EPOCH + serial * DAY_MS;
  else if (serial < 60) ms = EXCEL_1900_EPOCH + (serial + 1) * DAY_MS;
  else if (serial < 61) return `1900-02-29${timePart(serial)}`;
  else ms = EXCEL_1900_EPOCH + serial * DAY_MS;
  const d = new Date(Math.round(ms / 1000) * 1000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return date + timePart(serial);
}

function timePart(serial: number): string {
  const seconds = Math.round((serial - Math.floor(serial)) * 86400) % 86400;
  if (seconds === 0) return "";
  return `T${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${
    pad(seconds % 60)
  }`;
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || y < 1 || y > 9999) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

const ISO_DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** A time of day after a date: hour, minute, second, am/pm (groups 4 to 7 of the forms below). */
const TIME = String.raw`(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]m)?)?`;
const US_DATE = new RegExp(String.raw`^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})${TIME}$`, "i");
const YMD_SLASH = new RegExp(String.raw`^(\d{4})[/.](\d{1,2})[/.](\d{1,2})${TIME}$`, "i");
/** 5-Mar-2024, 05 Mar 24, 5 March 2024 (as Excel and many reports write dates). */
const DAY_MONTH_NAME = new RegExp(
  String.raw`^(\d{1,2})[-\s]([a-z]{3,9})\.?[-\s]\s*(\d{2}|\d{4})${TIME}$`,
  "i",
);
/** Mar 5, 2024, March 5th 2024, Tue, Mar 5, 2024. */
const MONTH_NAME_DAY = new RegExp(
  String
    .raw`^(?:[a-z]{3,9}\.?,?\s+)?([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}$`,
  "i",
);
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const SERIAL = /^\d+(\.\d+)?$/;
const MONTH_NAMES = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** 1–12 for a month name or its abbreviation of at least three letters ("Sept" too), else 0. */
function monthNumber(name: string): number {
  const word = name.toLowerCase();
  return MONTH_NAMES.findIndex((month) => month.startsWith(word)) + 1;
}

/** Two-digit years: below 70 are 20xx. */
function fullYear(text: string): number {
  const year = +text;
  return text.length === 2 ? year + (year < 70 ? 2000 : 1900) : year;
}

function isoFrom(
  y: number,
  m: number,
  d: number,
  h?: string,
  min?: string,
  s?: string,
  ampm?: string,
): string | null {
  if (!validDate(y, m, d)) return null;
  const date = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  if (h === undefined) return date;
  let hour = Number(h);
  if (ampm) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (ampm.toLowerCase() === "pm" ? 12 : 0);
  }
  const minute = Number(min), second = Number(s ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (hour === 0 && minute === 0 && second === 0) return date;
  return `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/**
 * Reads a date from cell text: ISO (`2024-03-05`, with an optional time), `2024/03/05`, US
 * `M/D/YYYY` or `M/D/YY` (years below 70 are 20xx), month names (`5-Mar-2024`, `Mar 5, 2024`),
 * `YYYYMMDD`, or an Excel serial number. Returns ISO text, with a time only when the cell has
 * one. Impossible dates (2/30/2024) are invalid, not rolled over.
 *
 * @example
 * ```ts
 * parseDate("3/5/2024") // { ok: true, value: "2024-03-05" }
 * ```
 * @example
 * ```ts
 * parseDate("45356") // { ok: true, value: "2024-03-05" }
 * ```
 */
export function parseDate(text: string, date1904 = false): ParsedValue<string> {
  const none = missing(text);
  if (none) return none;
  const t = text.trim();
  const found = (iso: string | null) => iso ? { ok: true as const, value: iso } : invalid(text);
  let m = ISO_DATE.exec(t) ?? YMD_SLASH.exec(t);
  if (m) return found(isoFrom(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7]));
  m = US_DATE.exec(t);
  if (m) return found(isoFrom(fullYear(m[3]), +m[1], +m[2], m[4], m[5], m[6], m[7]));
  m = DAY_MONTH_NAME.exec(t);
  if (m && monthNumber(m[2])) {
    return found(isoFrom(fullYear(m[3]), monthNumber(m[2]), +m[1], m[4], m[5], m[6], m[7]));
  }
  m = MONTH_NAME_DAY.exec(t);
  if (m && monthNumber(m[1])) {
    return found(isoFrom(+m[3], monthNumber(m[1]), +m[2], m[4], m[5], m[6], m[7]));
  }
  // Eight digits are a date written without separators; serials stop at 2958465 (9999-12-31).
  m = COMPACT_DATE.exec(t);
  if (m) return found(isoFrom(+m[1], +m[2], +m[3]));
  if (SERIAL.test(t)) {
    const serial = Number(t);
    if (serial >= 1 && serial <= MAX_SERIAL) {
      return { ok: true, value: excelSerialToIso(serial, date1904) };
    }
  }
  return invalid(text);
}

/**
 * Whether the text is written in one of {@link parseDate}'s date forms (not a serial), whether
 * or not that day exists: `2/30/2024` and `2024-13-01` are, `soon` and `45356` are not. Tells a
 * date that cannot exist from text that is no date at all.
 *
 * @example
 * ```ts
 * looksLikeDate("2/30/2024") // true
 * ```
 */
export function looksLikeDate(text: string): boolean {
  const t = text.trim();
  if (ISO_DATE.test(t) || YMD_SLASH.test(t) || US_DATE.test(t) || COMPACT_DATE.test(t)) {
    return true;
  }
  const d = DAY_MONTH_NAME.exec(t);
  if (d && monthNumber(d[2])) return true;
  const m = MONTH_NAME_DAY.exec(t);
  return m !== null && monthNumber(m[1]) > 0;
}

/**
 * Reads an item number: always text, trimmed, leading zeros kept unless `stripLeadingZeros`
 * (an all-zero item keeps one "0").
 *
 * @example
 * ```ts
 * parseItemNumber(" 00123 ", true) // { ok: true, value: "123" }
 * ```
 */
export function parseItemNumber(text: string, stripLeadingZeros = false): ParsedValue<string> {
  const none = missing(text);
  if (none) return none;
  const t = text.trim();
  return { ok: true, value: stripLeadingZeros ? stripZeros(t) : t };
}

/** Removes leading zeros, keeping one when nothing else is left ("000" → "0"). */
export function stripZeros(text: string): string {
  let i = 0;
  while (i < text.length - 1 && text.charCodeAt(i) === 48) i++;
  return i === 0 ? text : text.slice(i);
}

/** A short phrase for a failed {@link ParsedValue}, for row error messages. */
export function describeProblem(parsed: ParsedValue<unknown>, expected: string): string {
  if (parsed.ok) return "";
  if (parsed.reason === "empty") return `${expected} is empty`;
  if (parsed.reason === "not_available") return `${expected} is "${parsed.text.trim()}" (no value)`;
  return `"${parsed.text}" is not a valid ${expected}`;
}
