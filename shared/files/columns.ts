import { FileRefusedError } from "./errors.ts";

/** A column as configured by a user: header name, 1-based index, or column letter. */
export type ColumnRef = string | number;

/**
 * Column letter for a 0-based index (0 → "A", 26 → "AA").
 *
 * @example
 * ```ts
 * columnLetter(27) // "AB"
 * ```
 */
export function columnLetter(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
}

/** 0-based index for a column letter ("A" → 0), or -1 when it is not one. */
export function letterIndex(letters: string): number {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return -1;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n - 1;
}

/** The header name, or the column letter where the header is missing or blank. */
export function columnLabel(headers: readonly string[], index: number): string {
  return headers[index] || columnLetter(index);
}

function describeHeaders(headers: readonly string[]): string {
  const named = headers.filter((h) => h !== "");
  if (named.length === 0) return "The file has no headers.";
  const shown = named.slice(0, 30).map((h) => `"${h}"`).join(", ");
  return `Headers found: ${shown}${named.length > 30 ? `, and ${named.length - 30} more` : ""}.`;
}

/**
 * Finds a column: by header name (trimmed, case-insensitive; the first of duplicate names),
 * else by a 1-based index ("3" or 3) or a column letter ("C"). A header name wins over a
 * letter, so a column headed "A" is found by its name. Returns the 0-based index.
 *
 * @throws {FileRefusedError} `column_not_found`, naming the column and listing the headers
 * @example
 * ```ts
 * findColumn(["Item", "Qty"], " qty ") // 1
 * ```
 * @example
 * ```ts
 * findColumn(["Item", "Qty"], "B") // 1
 * ```
 */
export function findColumn(
  headers: readonly string[],
  ref: ColumnRef,
  width = headers.length,
): number {
  const text = String(ref).trim();
  if (typeof ref === "string" && text !== "") {
    const wanted = text.toLowerCase();
    const i = headers.findIndex((h) => h.toLowerCase() === wanted);
    if (i >= 0) return i;
  }
  let index = -1;
  if (/^\d+$/.test(text)) index = Number(text) - 1;
  else index = letterIndex(text);
  if (index >= 0 && index < width) return index;
  const what = typeof ref === "number" || /^\d+$/.test(text)
    ? `Column ${text} is beyond the ${width} columns of the file.`
    : letterIndex(text) >= 0 && headers.length === 0
    ? `Column ${text.toUpperCase()} is beyond the ${width} columns of the file.`
    : `Column "${text}" was not found.`;
  throw new FileRefusedError("column_not_found", `${what} ${describeHeaders(headers)}`);
}
