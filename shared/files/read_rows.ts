/**
 * Reading a table row by row: the same table {@link readTable} gives, handed to a callback one
 * data row at a time instead of held whole. A caller that needs a few columns of a large sheet
 * (the inventory engine, docs/benchmarks.md "Inventory") then holds the rows it keeps, not
 * 100,000 rows of 17 cells.
 */
import { FileRefusedError, type RowError } from "./errors.ts";
import type { FileLimits } from "./limits.ts";
import { readCsvGrid } from "./csv_reader.ts";
import { readWorkbookGrid } from "./xlsx_reader.ts";
import { detectHeaderIndex, HEADER_SAMPLE_ROWS } from "./header_row.ts";
import { checkCellLengths, longCell } from "./grid_rows.ts";
import { checkFile, fitRow, gridToTable, headerNames, type ReadOptions } from "./read_table.ts";
import type { Grid, Table } from "./table.ts";

/** What the row callback's maker learns before the first data row. */
export interface RowsHead {
  /** Trimmed header texts; empty when the file has no headers. */
  headers: string[];
  /** 1-based file row of the header, null when the file has no headers. */
  headerRow: number | null;
  /** The file writes decimals with a comma (see parseNumber). */
  decimalComma: boolean;
}

/** Receives one data row (at least as wide as the headers) and its 1-based file row. */
export type RowVisitor = (row: readonly string[], rowNumber: number) => void;

/** The table without its rows, once every row has been handed over. */
export interface RowsRead extends Omit<Table, "rows" | "rowNumbers"> {
  /** Data rows handed over. */
  rowCount: number;
  /** Cells in the widest data row, at least the header count (findColumn's `width`). */
  width: number;
}

/**
 * Reads a file as {@link readTable} does, handing each data row to the visitor that `start`
 * returns instead of keeping it. The refusals are readTable's, in the same order: a refusal of
 * the file wins over anything the visitor throws, which is rethrown once the file is read.
 *
 * An XLSX with a detected header row is streamed: only the first 50 rows are held (the header
 * is looked for among them). Other files (CSV, XLS, a given header row, no headers, leading
 * zeros stripped) are read whole first. `start` may be called a second time, from the first row
 * again, when the streaming reader gives an XLSX up part-way; the visitor must start over then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findColumn } from "./columns.ts";
 * const bytes = new TextEncoder().encode("Item,Qty\nA-1,4\nB-2,5\n");
 * let total = 0;
 * const read = await readTableRows(bytes, { name: "stock.csv" }, (head) => {
 *   total = 0;
 *   const qty = findColumn(head.headers, "Qty");
 *   return (row) => total += Number(row[qty]);
 * });
 * assert.equal(total, 9);
 * assert.equal(read.rowCount, 2);
 * ```
 */
export async function readTableRows(
  bytes: Uint8Array,
  options: ReadOptions,
  start: (head: RowsHead) => RowVisitor,
): Promise<RowsRead> {
  const { format, limits } = checkFile(bytes, options);
  const streams = format === "xlsx" && options.hasHeaders !== false &&
    options.headerRow === undefined && !options.stripLeadingZeros;
  if (!streams) {
    const grid = format === "csv" || format === "txt"
      ? readCsvGrid(bytes, format, limits)
      : await readWorkbookGrid(bytes, format, limits, options.sheet);
    return visitGrid(grid, options, limits, start);
  }
  const rows = new StreamedRows(limits, start);
  const grid = await readWorkbookGrid(
    bytes,
    format,
    limits,
    options.sheet,
    (row, n) => rows.push(row, n),
  );
  // Rows in the grid: the streaming reader gave up and SheetJS read the sheet; start over.
  if (grid.rows.length > 0) return visitGrid(grid, options, limits, start);
  return rows.finish(grid);
}

/** A grid read whole: checked and tabled as readTable does, then handed over row by row. */
function visitGrid(
  grid: Grid,
  options: ReadOptions,
  limits: FileLimits,
  start: (head: RowsHead) => RowVisitor,
): RowsRead {
  checkCellLengths(grid.rows, grid.rowNumbers, limits);
  const { rows, rowNumbers, ...meta } = gridToTable(grid, options);
  const visit = start({
    headers: meta.headers,
    headerRow: meta.headerRow,
    decimalComma: meta.decimalComma,
  });
  let width = meta.headers.length;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row.length > width) width = row.length;
    visit(row, rowNumbers[i]);
  }
  return { ...meta, rowCount: rows.length, width };
}

/**
 * The rows of a streamed sheet: the first {@link HEADER_SAMPLE_ROWS} are held until the header
 * is found among them (as gridToTable finds it), the rest go straight to the visitor. Nothing
 * here throws while the sheet is read (a throw would make the streaming reader give up): the
 * first problem is kept and thrown by `finish`.
 */
class StreamedRows {
  private held: string[][] = [];
  private heldNumbers: number[] = [];
  private head: RowsHead | null = null;
  private visit: RowVisitor | null = null;
  private visitorError: { error: unknown } | null = null;
  private tooLong: FileRefusedError | null = null;
  private errors: RowError[] = [];
  private rowCount = 0;
  private width = 0;

  constructor(
    private readonly limits: FileLimits,
    private readonly start: (head: RowsHead) => RowVisitor,
  ) {}

  push(row: string[], rowNumber: number): void {
    // readGrid checks every row, those above the header too, in file order.
    this.tooLong ??= longCell(row, rowNumber, this.limits);
    if (this.head !== null) return this.emit(row, rowNumber);
    this.held.push(row);
    this.heldNumbers.push(rowNumber);
    if (this.held.length === HEADER_SAMPLE_ROWS) this.begin();
  }

  /** Picks the header among the held rows and hands over the rows below it. */
  private begin(): void {
    const h = detectHeaderIndex(this.held);
    const headers = headerNames(this.held[h]);
    this.head = { headers, headerRow: this.heldNumbers[h], decimalComma: false };
    this.width = headers.length;
    try {
      this.visit = this.start(this.head);
    } catch (error) {
      this.visitorError = { error };
    }
    const held = this.held, numbers = this.heldNumbers;
    this.held = [];
    this.heldNumbers = [];
    for (let i = h + 1; i < held.length; i++) this.emit(held[i], numbers[i]);
  }

  private emit(row: string[], rowNumber: number): void {
    const headers = this.head!.headers;
    fitRow(row, rowNumber, headers.length, headers, this.errors);
    if (row.length > this.width) this.width = row.length;
    this.rowCount++;
    if (this.visit === null) return;
    try {
      this.visit(row, rowNumber);
    } catch (error) {
      this.visitorError = { error };
      this.visit = null;
    }
  }

  /** The table once the sheet is read; throws what readTable would, then the visitor's error. */
  finish(grid: Grid): RowsRead {
    if (this.tooLong) throw this.tooLong;
    if (this.head === null) {
      if (this.held.length === 0) {
        throw new FileRefusedError("empty", "The file contains no data: every row is blank.");
      }
      this.begin();
    }
    if (this.visitorError) throw this.visitorError.error;
    const { rows: _rows, rowNumbers: _numbers, errors, ...meta } = grid;
    return {
      ...meta,
      headerRow: this.head!.headerRow,
      headers: this.head!.headers,
      errors: [...errors, ...this.errors].sort((a, b) => a.row - b.row),
      rowCount: this.rowCount,
      width: this.width,
    };
  }
}
