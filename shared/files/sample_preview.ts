/**
 * The preview of a sample or template file that the column pickers show (issue 24): its header
 * names and its first rows. The same rules as reading the file for real (header row given or
 * detected, size and shape caps); a CSV or TXT sample is read in the browser with this module,
 * a workbook by the server (POST /api/sample-files/preview), which hands back the same shape.
 */
import { readCsvGrid } from "./csv_reader.ts";
import { checkCellLengths } from "./grid_rows.ts";
import { checkFile, gridToTable } from "./grid_table.ts";
import type { FileLimits } from "./limits.ts";
import type { Table } from "./table.ts";

/** Rows of the file shown under its headers. */
export const SAMPLE_PREVIEW_ROWS = 5;

/** A sample file's headers and first data rows. */
export interface SamplePreview {
  fileName: string;
  /** 1-based file row of the header. */
  headerRow: number | null;
  /** Trimmed header names, in file order (blank ones kept as "" so positions hold). */
  headers: string[];
  /** The first {@link SAMPLE_PREVIEW_ROWS} data rows, cut to the headers' width. */
  rows: string[][];
  /** Data rows in the file. */
  rowCount: number;
}

/** How to read the sample: its name (format), and its header row when the form sets one. */
export interface SampleOptions {
  name: string;
  /** 1-based file row of the header; detected when null or undefined. */
  headerRow?: number | null;
  limits?: Partial<FileLimits>;
}

/**
 * The preview of a table already read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCsvSample } from "./sample_preview.ts";
 * const bytes = new TextEncoder().encode("Item,Qty\nA-1,4\nB-2,5\n");
 * const preview = readCsvSample(bytes, { name: "stock.csv" });
 * assert.deepEqual(preview.headers, ["Item", "Qty"]);
 * assert.deepEqual(preview.rows, [["A-1", "4"], ["B-2", "5"]]);
 * ```
 */
export function tablePreview(table: Table, fileName: string): SamplePreview {
  const width = table.headers.length;
  return {
    fileName,
    headerRow: table.headerRow,
    headers: table.headers,
    rows: table.rows.slice(0, SAMPLE_PREVIEW_ROWS).map((row) => row.slice(0, width)),
    rowCount: table.rows.length,
  };
}

/** Whether the browser reads this sample itself (CSV and TXT); workbooks go to the server. */
export function readsAsText(name: string): boolean {
  return /\.(csv|txt)$/i.test(name.trim());
}

/**
 * Reads a CSV or TXT sample as readTable would (encoding, delimiter, header row, caps) and
 * returns its preview. Pulls in no workbook reader, so the web app can bundle it.
 *
 * @throws {FileRefusedError} when the file is refused (too large, empty, not CSV or TXT content,
 * header row outside the file)
 */
export function readCsvSample(bytes: Uint8Array, options: SampleOptions): SamplePreview {
  const readOptions = {
    name: options.name,
    headerRow: options.headerRow ?? undefined,
    limits: options.limits,
  };
  const { format, limits } = checkFile(bytes, readOptions);
  if (format !== "csv" && format !== "txt") {
    throw new TypeError(`readCsvSample reads CSV and TXT files, not ${format}.`);
  }
  const grid = readCsvGrid(bytes, format, limits);
  checkCellLengths(grid.rows, grid.rowNumbers, limits);
  return tablePreview(gridToTable(grid, readOptions), options.name);
}
