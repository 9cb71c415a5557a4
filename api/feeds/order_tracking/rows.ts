/**
 * Turning a file's rows into order records: text trimmed, dates and numbers parsed, tracking
 * numbers split, one record per unique key, row errors for what could not be read.
 */
import {
  NOT_AVAILABLE_TOKENS,
  parseDate,
  parseNumber,
  type Table,
} from "../../../shared/files/mod.ts";
import type { RowError } from "../../ingest/feeds.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  type OrderField,
} from "../../../shared/contract/order_tracking.ts";

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
  /** Rows skipped for a missing unique value. */
  skipped: number;
}

/**
 * Splits a tracking number cell on the source's secondary delimiter, trimmed, without blanks,
 * "N/A"-like tokens or repeats (compared ignoring case).
 *
 * @example splitTrackingNumbers(" 1Z9; 1z9 ;;940 ", ";") // ["1Z9", "940"]
 */
export function splitTrackingNumbers(cell: string, delimiter: string | null): string[] {
  const parts = delimiter ? cell.split(delimiter) : [cell];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    // Newlines separate numbers in the search column, so they cannot be part of one.
    for (const piece of part.split(/[\r\n]+/)) {
      const number = piece.trim();
      if (!number || notAvailable.has(number.toLowerCase())) continue;
      const key = number.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(number);
    }
  }
  return out;
}

/** The key text of a unique value: numbers without trailing zeros, dates as ISO. */
function keyText(value: string | number | null): string | null {
  if (value === null) return null;
  return typeof value === "number" ? String(value) : value;
}

/**
 * Reads every data row of `table` through `columns`. A row without a unique value is skipped
 * with a row error; an unreadable date or number is a row error and leaves that field as stored.
 * When a key repeats, the later row's fields win and the tracking numbers are combined.
 */
export function readRecords(
  table: Table,
  columns: Partial<Record<OrderField, number>>,
  uniqueField: OrderField,
  secondaryDelimiter: string | null,
): RecordsResult {
  const entries = Object.entries(columns) as [OrderField, number][];
  const label = (index: number) => table.headers[index] || `column ${index + 1}`;
  const errors: RowError[] = [];
  const byKey = new Map<string, OrderRecord>();
  let duplicates = 0, skipped = 0;
  for (let i = 0; i < table.rows.length; i++) {
    const cells = table.rows[i];
    const row = table.rowNumbers[i];
    const record: OrderRecord = { row, uniqueKey: "", values: {}, keep: [] };
    let uniqueValue: string | number | null = null;
    const unreadable = (field: OrderField, index: number, cell: string, what: string) => {
      record.keep.push(field);
      // An unreadable unique value is reported once, below, as a skipped row.
      if (field === uniqueField) return;
      errors.push({
        row,
        column: label(index),
        message: `"${cell.trim()}" is not ${what}; ${field} was left as it was.`,
      });
    };
    for (const [field, index] of entries) {
      const cell = cells[index] ?? "";
      if (field === "trackingNumbers") {
        record.trackingNumbers = splitTrackingNumbers(cell, secondaryDelimiter);
        continue;
      }
      let value: string | number | null;
      if (dateFields.has(field)) {
        const parsed = parseDate(cell, table.date1904);
        if (parsed.ok) value = parsed.value;
        else if (parsed.reason === "invalid") {
          unreadable(field, index, cell, "a date");
          value = null;
        } else value = null;
      } else if (numberFields.has(field)) {
        const parsed = parseNumber(cell, { decimalComma: table.decimalComma });
        if (parsed.ok) value = parsed.value;
        else if (parsed.reason === "invalid") {
          unreadable(field, index, cell, "a number");
          value = null;
        } else value = null;
      } else {
        value = cell.trim() || null;
      }
      record.values[field as Exclude<OrderField, "trackingNumbers">] = value;
      if (field === uniqueField) uniqueValue = value;
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
