/**
 * Turning a file's rows into order records: text trimmed, dates and numbers parsed, tracking
 * numbers split, one record per unique key, row errors for what could not be read.
 */
import {
  looksLikeDate,
  NOT_AVAILABLE_TOKENS,
  parseDate,
  parseNumber,
  type RowError,
  type Table,
} from "../files/mod.ts";
import { DATE_FIELDS, NUMBER_FIELDS, type OrderField } from "../contract/order_tracking.ts";

const dateFields = new Set<string>(DATE_FIELDS);
const numberFields = new Set<string>(NUMBER_FIELDS);
const notAvailable = new Set(NOT_AVAILABLE_TOKENS);

/** One order as read from the file; fields absent from `values` were not in the file. */
export interface OrderRecord {
  /** 1-based file row (the last row, when the key repeats). */
  row: number;
  uniqueKey: string;
  values: Partial<Record<Exclude<OrderField, "trackingNumbers">, string | number | null>>;
  /** Present when the file has a tracking number column. */
  trackingNumbers?: string[];
  /** Fields whose cell could not be read: the order keeps its stored value. */
  keep: string[];
}

/** What the rows produced. */
export interface RecordsResult {
  records: OrderRecord[];
  errors: RowError[];
  /** Rows whose unique key had already appeared: merged into the earlier record. */
  duplicates: number;
  /** Rows not imported: a missing or too long unique value, or a date that cannot exist. */
  skipped: number;
}

/**
 * The longest unique value an order may have, in characters. The key is in a btree (the
 * source's unique constraint), whose entries hold at most 2,704 bytes: 500 characters of at
 * most 4 bytes each always fit. A longer value is a row error and the row is skipped.
 */
export const UNIQUE_KEY_MAX = 500;

/** Years an order date may have; outside them a date is a typo, not an order's date. */
export const DATE_YEARS = { min: 1900, max: 2200 } as const;

/**
 * Whether a date cell holds a date that cannot exist: written as a date, but its day is not in
 * its month (2/30/2024), its month is not 1–12, or its year is outside {@link DATE_YEARS}.
 * Read as "no date" the row would be stored without it (a new order with an empty date), so
 * the row is not imported; text that is no date at all ("soon") only leaves the field as it was.
 */
function impossibleDate(cell: string, parsed: ReturnType<typeof parseDate>): boolean {
  if (parsed.ok) {
    const year = Number(parsed.value.slice(0, 4));
    return year < DATE_YEARS.min || year > DATE_YEARS.max;
  }
  return parsed.reason === "invalid" && looksLikeDate(cell);
}

/**
 * Splits a tracking number cell on the source's secondary delimiter, trimmed, without blanks,
 * "N/A"-like tokens or repeats (compared ignoring case).
 *
 * @example
 * ```ts
 * splitTrackingNumbers(" 1Z9; 1z9 ;;940 ", ";") // ["1Z9", "940"]
 * ```
 */
export function splitTrackingNumbers(cell: string, delimiter: string | null): string[] {
  if (cell === "") return [];
  const parts = delimiter ? cell.split(delimiter) : [cell];
  const out: string[] = [];
  for (const part of parts) {
    // Newlines separate numbers in the search column, so they cannot be part of one.
    const pieces = part.includes("\n") || part.includes("\r") ? part.split(/[\r\n]+/) : [part];
    for (const piece of pieces) {
      const number = piece.trim();
      if (!number) continue;
      // Every N/A-like token is short; real tracking numbers are not.
      if (number.length <= 16 && notAvailable.has(number.toLowerCase())) continue;
      if (out.length > 0 && isRepeat(out, number)) continue;
      out.push(number);
    }
  }
  return out;
}

/** True when `number` is already in `numbers`, ignoring case (a cell holds a handful). */
function isRepeat(numbers: string[], number: string): boolean {
  const key = number.toLowerCase();
  return numbers.some((n) => n.length === number.length && n.toLowerCase() === key);
}

/** The number of code points in `text`. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The key text of a unique value: numbers without trailing zeros, dates as ISO. */
function keyText(value: string | number | null): string | null {
  if (value === null) return null;
  return typeof value === "number" ? String(value) : value;
}

/**
 * Reads every data row of `table` through `columns`. A row without a unique value, with one
 * longer than UNIQUE_KEY_MAX characters, or with a date that cannot exist (see impossibleDate),
 * is skipped with a row error; other unreadable dates and numbers are row errors and leave that
 * field as stored.
 * When a key repeats, the later row's fields win and the tracking numbers are combined.
 */
export function readRecords(
  table: Table,
  columns: Partial<Record<OrderField, number>>,
  uniqueField: OrderField,
  secondaryDelimiter: string | null,
): RecordsResult {
  const entries = Object.entries(columns) as [OrderField, number][];
  // Per column, decided once: 0 text, 1 date, 2 number, 3 tracking numbers.
  const kinds = entries.map(([field]) =>
    field === "trackingNumbers" ? 3 : dateFields.has(field) ? 1 : numberFields.has(field) ? 2 : 0
  );
  const label = (index: number) => table.headers[index] || `column ${index + 1}`;
  const errors: RowError[] = [];
  const byKey = new Map<string, OrderRecord>();
  const numberOptions = { decimalComma: table.decimalComma };
  let duplicates = 0, skipped = 0;
  for (let i = 0; i < table.rows.length; i++) {
    const cells = table.rows[i];
    const row = table.rowNumbers[i];
    const record: OrderRecord = { row, uniqueKey: "", values: {}, keep: [] };
    const values = record.values as Record<string, string | number | null>;
    let uniqueValue: string | number | null = null;
    let impossible = false;
    for (let c = 0; c < entries.length; c++) {
      const [field, index] = entries[c];
      const cell = cells[index] ?? "";
      const kind = kinds[c];
      if (kind === 3) {
        record.trackingNumbers = splitTrackingNumbers(cell, secondaryDelimiter);
        continue;
      }
      let value: string | number | null = null;
      if (kind === 0) {
        value = cell.trim() || null;
      } else {
        const date = kind === 1 ? parseDate(cell, table.date1904) : null;
        const parsed = date ?? parseNumber(cell, numberOptions);
        if (date && impossibleDate(cell, date)) {
          errors.push({
            row,
            column: label(index),
            message: `"${cell.trim()}" is not a date that exists (the day must be in its month, ` +
              `the month 1–12, the year ${DATE_YEARS.min}–${DATE_YEARS.max}); the row was not ` +
              "imported.",
          });
          impossible = true;
          break;
        }
        if (parsed.ok) value = parsed.value;
        else if (parsed.reason === "invalid") {
          record.keep.push(field);
          // An unreadable unique value is reported once, below, as a skipped row.
          if (field !== uniqueField) {
            errors.push({
              row,
              column: label(index),
              message: `"${cell.trim()}" is not ${kind === 1 ? "a date" : "a number"}; ${field} ` +
                "was left as it was.",
            });
          }
        }
      }
      values[field] = value;
      if (field === uniqueField) uniqueValue = value;
    }
    if (impossible) {
      skipped++;
      continue;
    }
    const key = keyText(uniqueValue);
    if (key === null) {
      const index = columns[uniqueField]!;
      const why = record.keep.includes(uniqueField) ? "cannot be read" : "is empty";
      errors.push({
        row,
        column: label(index),
        message: `The unique column (${uniqueField}) ${why}; the row was not imported.`,
      });
      skipped++;
      continue;
    }
    // Characters as PostgreSQL counts them (code points): a surrogate pair is one.
    if (key.length > UNIQUE_KEY_MAX && codePoints(key) > UNIQUE_KEY_MAX) {
      errors.push({
        row,
        column: label(columns[uniqueField]!),
        message: `The unique column (${uniqueField}) is longer than ${UNIQUE_KEY_MAX} ` +
          "characters; the row was not imported.",
      });
      skipped++;
      continue;
    }
    record.uniqueKey = key;
    const earlier = byKey.get(key);
    if (!earlier) {
      byKey.set(key, record);
      continue;
    }
    duplicates++;
    earlier.row = row;
    for (const [field, value] of Object.entries(record.values)) {
      if (record.keep.includes(field)) continue;
      earlier.values[field as keyof OrderRecord["values"]] = value;
      earlier.keep = earlier.keep.filter((kept) => kept !== field);
    }
    if (record.trackingNumbers) {
      earlier.trackingNumbers = splitTrackingNumbers(
        [...earlier.trackingNumbers ?? [], ...record.trackingNumbers].join("\n"),
        null,
      );
    }
  }
  return { records: [...byKey.values()], errors, duplicates, skipped };
}
