/**
 * An order file turned into order records: the file read, its columns mapped by the source's
 * settings, its rows read into one record per unique key. Pure work on bytes: the server runs it
 * in its file workers (api/ingest/file_worker.ts), the CLI and unit tests in their own thread.
 */
import { type ReadOptions, readTable, type RowError } from "../files/mod.ts";
import type { OrderField } from "../contract/order_tracking.ts";
import { mapColumns, type MappingConfig } from "./mapping.ts";
import { type OrderRecord, readRecords } from "./rows.ts";

/** What of an order tracking source reading its files depends on. */
export interface OrderFileSettings extends MappingConfig {
  /** Splits a tracking number cell into several (null: one number per cell). */
  secondaryDelimiter: string | null;
}

/** An order file read and turned into records, before anything is written. */
export interface OrderFileRecords {
  /** Data rows in the file. */
  rows: number;
  records: OrderRecord[];
  /** The order fields the file has a column for. */
  fields: OrderField[];
  rowErrors: RowError[];
  /** What the run's log says about reading the file and its columns. */
  log: string[];
  skipped: number;
  duplicates: number;
}

/**
 * Reads an order file with `settings`. A file that cannot be read at all, or has no column for
 * the unique field, throws; bad rows become row errors.
 *
 * @example
 * ```ts ignore
 * const read = await readOrderFile(bytes, { name: "orders.csv", limits: FEED_LIMITS }, settings);
 * read.records.length; // one per unique key
 * ```
 */
export async function readOrderFile(
  bytes: Uint8Array,
  options: ReadOptions & { name: string },
  settings: OrderFileSettings,
): Promise<OrderFileRecords> {
  const table = await readTable(bytes, options);
  const log = [
    `Read "${options.name}"${table.sheet ? ` (sheet "${table.sheet}")` : ""}: ` +
    `${table.rows.length} data rows` +
    `${table.headerRow ? `, headers on row ${table.headerRow}` : ""}.`,
  ];
  const mapping = mapColumns(table.headers, settings);
  log.push(...mapping.log);
  if (mapping.fatal) throw new Error(mapping.fatal);
  const result = readRecords(
    table,
    mapping.columns,
    settings.uniqueField,
    settings.secondaryDelimiter,
  );
  return {
    rows: table.rows.length,
    records: result.records,
    fields: Object.keys(mapping.columns) as OrderField[],
    rowErrors: [...table.errors, ...result.errors].sort((a, b) => a.row - b.row),
    log,
    skipped: result.skipped,
    duplicates: result.duplicates,
  };
}
