import { readCsvGrid } from "./csv_reader.ts";
import { readWorkbookGrid } from "./xlsx_reader.ts";
import type { Grid, Table } from "./table.ts";
import { checkCellLengths } from "./grid_rows.ts";
import { checkFile, gridToTable, type ReadOptions } from "./grid_table.ts";

export { checkFile, fitRow, gridToTable, headerNames, type ReadOptions } from "./grid_table.ts";

/**
 * Reads the bytes of a CSV, delimited TXT, XLS or XLSX file as a grid of text cells, after the
 * size check and content sniffing. Use {@link readTable} unless you need the rows above the
 * header as well.
 *
 * @throws {FileRefusedError} when the file is refused as a whole
 */
export async function readGrid(bytes: Uint8Array, options: ReadOptions = {}): Promise<Grid> {
  const { format, limits } = checkFile(bytes, options);
  const grid = format === "csv" || format === "txt"
    ? readCsvGrid(bytes, format, limits)
    : await readWorkbookGrid(bytes, format, limits, options.sheet);
  checkCellLengths(grid.rows, grid.rowNumbers, limits);
  return grid;
}

/**
 * Reads CSV, delimited TXT, XLS or XLSX bytes into a table of text cells. Never throws for a
 * bad row (those land in `errors`); throws {@link FileRefusedError} when the file as a whole
 * is refused (too large, wrong content, zip bomb, missing sheet or header row, caps).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findColumn } from "./columns.ts";
 * const bytes = new TextEncoder().encode("Item,Quantity\nA-1,4\n");
 * const table = await readTable(bytes, { name: "stock.csv" });
 * const qty = findColumn(table.headers, "Quantity");
 * assert.equal(table.rows[0][qty], "4");
 * ```
 */
export async function readTable(bytes: Uint8Array, options: ReadOptions = {}): Promise<Table> {
  return gridToTable(await readGrid(bytes, options), options);
}
