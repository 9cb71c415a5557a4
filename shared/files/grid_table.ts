/**
 * A grid to a table, without reading any file format: the checks before reading, the header row
 * and the padding of rows. Apart from read_table.ts (which reads workbooks through SheetJS) so
 * that the web app can read a CSV sample with the same rules without bundling SheetJS
 * (sample_preview.ts, docs/web_decisions.md "Column pickers").
 */
import { FileRefusedError, type RowError } from "./errors.ts";
import { type FileLimits, formatBytes, resolveLimits } from "./limits.ts";
import { type FileFormat, formatFromName, resolveFormat } from "./detect_format.ts";
import type { SheetRef } from "./xlsx_reader.ts";
import { detectHeaderIndex } from "./header_row.ts";
import { columnLetter, type ColumnRef, findColumn } from "./columns.ts";
import { stripZeros } from "./values.ts";
import type { Grid, Table } from "./table.ts";

/** How to read a file. Everything is optional; the defaults suit a manual upload. */
export interface ReadOptions {
  /** File name; its extension declares the format (content must agree). */
  name?: string;
  /** Declared format, when there is no name or it should be overridden. */
  type?: FileFormat;
  /** Default true. Without headers, columns are addressed by index or letter. */
  hasHeaders?: boolean;
  /** 1-based file row of the header; detected when omitted. */
  headerRow?: number;
  /** Sheet name or 1-based position in a workbook; the first sheet by default. */
  sheet?: SheetRef;
  /** Remove leading zeros from item numbers: in `itemColumns`, or else in all-digit cells. */
  stripLeadingZeros?: boolean;
  itemColumns?: ColumnRef[];
  /** Caps; unset ones come from UPLOAD_LIMITS (use FEED_LIMITS for mailbox and SFTP files). */
  limits?: Partial<FileLimits>;
}

/**
 * The checks before any reading: size, emptiness and the content's format against the declared
 * one. Returns the format to read and the resolved caps.
 *
 * @throws {FileRefusedError} `too_large`, `empty` or a format refusal
 */
export function checkFile(
  bytes: Uint8Array,
  options: ReadOptions,
): { format: FileFormat; limits: FileLimits } {
  const limits = resolveLimits(options.limits);
  const label = options.name ? `"${options.name}"` : "The file";
  if (bytes.length > limits.maxBytes) {
    throw new FileRefusedError(
      "too_large",
      `${label} is ${formatBytes(bytes.length)} (${
        bytes.length.toLocaleString("en-US")
      } bytes); files must be at most ${formatBytes(limits.maxBytes)} (${
        limits.maxBytes.toLocaleString("en-US")
      } bytes).`,
    );
  }
  if (bytes.length === 0) throw new FileRefusedError("empty", `${label} is empty.`);
  const declared = options.type ?? (options.name ? formatFromName(options.name) : null);
  return { format: resolveFormat(bytes, declared, label), limits };
}

/** Index into `grid.rows` of the header row, given or detected. */
function headerIndex(grid: Grid, headerRow: number | undefined): number {
  if (headerRow === undefined) return detectHeaderIndex(grid.rows);
  const i = grid.rowNumbers.indexOf(headerRow);
  if (i >= 0) return i;
  const last = grid.rowNumbers[grid.rowNumbers.length - 1] ?? 0;
  if (!Number.isInteger(headerRow) || headerRow < 1 || headerRow > last) {
    throw new FileRefusedError(
      "header_row_out_of_range",
      `Header row ${headerRow} is outside the file, whose last non-blank row is ${last}.`,
    );
  }
  throw new FileRefusedError("header_row_empty", `Header row ${headerRow} is empty.`);
}

function stripItems(table: Table, columns: ColumnRef[] | undefined) {
  const rows = table.rows;
  if (columns && columns.length > 0) {
    const width = rows.reduce((w, r) => Math.max(w, r.length), table.headers.length);
    const indexes = columns.map((c) => findColumn(table.headers, c, width));
    for (const row of rows) for (const i of indexes) if (row[i]) row[i] = stripZeros(row[i].trim());
    return;
  }
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (c.charCodeAt(0) === 48 && /^0+\d+$/.test(c)) row[i] = stripZeros(c);
    }
  }
}

/** The header names of a header row: trimmed, trailing blank ones dropped. */
export function headerNames(row: readonly string[]): string[] {
  const headers = row.map((c) => c.trim());
  while (headers.length > 0 && headers[headers.length - 1] === "") headers.pop();
  return headers;
}

/**
 * Pads a data row to the table's width, or, when it holds a value beyond the last header, adds
 * the row error saying so (the value is kept).
 */
export function fitRow(
  row: string[],
  rowNumber: number,
  width: number,
  headers: readonly string[],
  errors: RowError[],
): void {
  if (row.length < width) {
    while (row.length < width) row.push("");
  } else if (row.length > width && headers.length > 0) {
    let last = row.length - 1;
    while (last >= width && row[last].trim() === "") last--;
    if (last >= width) {
      errors.push({
        row: rowNumber,
        column: columnLetter(last),
        message: `Row has a value in column ${
          columnLetter(last)
        }, beyond the ${width} headed columns; it was kept but no column name refers to it.`,
      });
    }
  }
}

/**
 * Turns a grid into a table: picks the header row, trims header names (trailing blank
 * headers dropped), pads short rows, and reports rows holding values beyond the last header
 * (those values are kept, not dropped).
 */
export function gridToTable(grid: Grid, options: ReadOptions = {}): Table {
  const { rows: allRows, rowNumbers: allNumbers, ...meta } = grid;
  const errors: RowError[] = [...grid.errors];
  if (allRows.length === 0) {
    throw new FileRefusedError("empty", "The file contains no data: every row is blank.");
  }
  let headers: string[] = [];
  let headerRow: number | null = null;
  let rows = allRows, rowNumbers = allNumbers;
  let width = 0;
  if (options.hasHeaders === false) {
    for (const r of rows) if (r.length > width) width = r.length;
  } else {
    const h = headerIndex(grid, options.headerRow);
    headerRow = allNumbers[h];
    headers = headerNames(allRows[h]);
    width = headers.length;
    rows = allRows.slice(h + 1);
    rowNumbers = allNumbers.slice(h + 1);
  }
  for (let i = 0; i < rows.length; i++) fitRow(rows[i], rowNumbers[i], width, headers, errors);
  errors.sort((a, b) => a.row - b.row);
  const table: Table = { ...meta, headerRow, headers, rows, rowNumbers, errors };
  if (options.stripLeadingZeros) stripItems(table, options.itemColumns);
  return table;
}
