/**
 * Which file column feeds which order field, from a source's column normalisation and
 * columnsToIgnore and the file's headers (docs/design.md section 6, "Order tracking").
 */
import { findColumn } from "../files/mod.ts";
import { ORDER_FIELDS, type OrderField } from "../contract/order_tracking.ts";

/** The parts of a source the mapping depends on. */
export interface MappingConfig {
  /** Field → the column named in the source's normalisation (header, 1-based index or letter). */
  normalization: Partial<Record<OrderField, string | null>>;
  /** Comma-separated header names that are never read. */
  columnsToIgnore: string | null;
  /** The field whose value identifies an order within the source. */
  uniqueField: OrderField;
}

/** The outcome: field → 0-based column, plus what the run's log should say about it. */
export interface ColumnMapping {
  columns: Partial<Record<OrderField, number>>;
  log: string[];
  /** Set when the file cannot be imported at all (no unique column). */
  fatal: string | null;
}

/** A header reduced to letters and digits, for matching it to a field name. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Other header spellings, squashed, that feed a field when its normalisation is empty. */
const SYNONYMS: Partial<Record<OrderField, string[]>> = {
  customerPoNumber: ["ponumber", "customerpo"],
  trackingNumbers: ["trackingnumber", "tracking"],
  qty: ["quantity"],
  qtyFulfilled: ["quantityfulfilled"],
};

/** Header spellings, squashed, that feed a field when its normalisation is empty, best first. */
function defaultNames(field: OrderField): string[] {
  return [field.toLowerCase(), ...SYNONYMS[field] ?? []];
}

/**
 * Maps the file's columns to order fields. A field with a normalisation value reads that column
 * (by header name, else index or letter, else the one header that differs from it only in spacing
 * and punctuation); a field without one reads the header spelled like the field ("Customer PO
 * Number" feeds customerPoNumber), else one of a few other spellings (SYNONYMS). Ignored columns
 * feed nothing. A configured column missing from the file is logged and its field left as it is;
 * a missing unique column is fatal.
 *
 * @example
 * ```ts
 * mapColumns(["PO", "Item Number"], { normalization: { customerPoNumber: "PO" },
 *   columnsToIgnore: null, uniqueField: "customerPoNumber" }).columns
 * // { customerPoNumber: 0, itemNumber: 1 }
 * ```
 */
export function mapColumns(headers: readonly string[], config: MappingConfig): ColumnMapping {
  const ignored = new Set(
    (config.columnsToIgnore ?? "").split(",").map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const isIgnored = (index: number) => ignored.has((headers[index] ?? "").toLowerCase());
  const columns: Partial<Record<OrderField, number>> = {};
  const log: string[] = [];
  const taken = new Set<number>();
  const squashed = headers.map(squash);
  // Configured columns first, so that an automatic match never steals one.
  for (const field of ORDER_FIELDS) {
    const configured = config.normalization[field]?.trim();
    if (!configured) continue;
    let index: number;
    try {
      index = findColumn(headers, configured);
    } catch {
      // "Ship-To Name" configured, "Ship To Name" in the file: the same header but for spacing
      // and punctuation, when exactly one header is.
      const wanted = squash(configured);
      const alike = squashed.flatMap((header, i) => header === wanted ? [i] : []);
      if (alike.length !== 1 || wanted === "") {
        log.push(`Column "${configured}" for ${field} is not in the file; ${field} was not read.`);
        continue;
      }
      index = alike[0];
    }
    if (isIgnored(index)) {
      log.push(`Column "${configured}" for ${field} is in columnsToIgnore; ${field} was not read.`);
      continue;
    }
    columns[field] = index;
    taken.add(index);
  }
  for (const field of ORDER_FIELDS) {
    if (columns[field] !== undefined || config.normalization[field]?.trim()) continue;
    let index = -1;
    for (const name of defaultNames(field)) {
      index = squashed.findIndex((header, i) => header === name && !taken.has(i) && !isIgnored(i));
      if (index >= 0) break;
    }
    if (index < 0) continue;
    columns[field] = index;
    taken.add(index);
  }
  const mapped = ORDER_FIELDS.filter((field) => columns[field] !== undefined)
    .map((field) => `${field} ← "${headers[columns[field]!] || `column ${columns[field]! + 1}`}"`);
  log.push(`Columns read: ${mapped.length ? mapped.join(", ") : "none"}.`);
  let fatal: string | null = null;
  if (columns[config.uniqueField] === undefined) {
    const configured = config.normalization[config.uniqueField]?.trim();
    const shown = headers.filter(Boolean).map((h) => `"${h}"`).join(", ") || "none";
    fatal = `The file has no column for the unique field ${config.uniqueField}${
      configured ? ` (configured as "${configured}")` : ""
    }. Headers found: ${shown}.`;
  }
  return { columns, log, fatal };
}
