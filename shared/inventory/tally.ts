/**
 * The supplier file's rows summed per catalogue item as they are read (processInventory's
 * step 4): quantities, row counts, status verdicts. The rows themselves are not kept, so a
 * 10 MB file of 100,000 rows × 17 columns never sits in memory whole (docs/benchmarks.md,
 * "Inventory": peak memory ≤ 10 × the file size).
 */
import {
  type FileLimits,
  findColumn,
  parseNumber,
  readTableRows,
  resolveLimits,
  type RowError,
  type RowsRead,
} from "../files/mod.ts";
import type { InventorySource } from "../contract/inventory.ts";
import type { InventoryFile } from "./inventory_file.ts";
import { statusLists, statusVerdict } from "./rules.ts";

/** 0-based columns of the supplier file the engine reads. */
export interface SupplierColumns {
  item: number;
  qty: number;
  /** Only with Status Supersedes Quantity. */
  status: number | null;
}

/** Per-item totals, indexed by catalogue position, and the counts of the rows left out. */
export interface SupplierTally {
  qtySum: Float64Array;
  /** Rows whose quantity was read. */
  qtyRows: Uint32Array;
  /** Rows of the item, quantity read or not. */
  rowsSeen: Uint32Array;
  /** 0 no verdict, 1 available, 2 out of stock (available wins). */
  verdicts: Uint8Array;
  /** File row of the item's last row. */
  lastRow: Int32Array;
  rowsWithoutItem: number;
  rowsNotInCatalogue: number;
  /** Rows of catalogue items whose quantity was empty or not a number (in quantityErrors). */
  skippedForQuantity: number;
  quantityErrors: RowError[];
  /** With `keepRows`: each item's last row, bounded by {@link keptRow}; else empty. */
  rows: (string[] | undefined)[];
}

/** Cells and characters per cell kept of an item's last row (the item view's raw row). */
export const KEPT_ROW_CELLS = 40;
export const KEPT_CELL_CHARS = 200;

/** A row as the item view keeps it: at most 40 cells of at most 200 characters. */
export function keptRow(row: readonly string[]): string[] {
  const out = row.slice(0, KEPT_ROW_CELLS);
  for (let c = 0; c < out.length; c++) {
    const cell = out[c] ?? "";
    out[c] = cell.length > KEPT_CELL_CHARS ? cell.slice(0, KEPT_CELL_CHARS) : cell;
  }
  return out;
}

/**
 * The item, quantity and (with Status Supersedes Quantity) status columns among `headers`, in
 * that order of refusal.
 *
 * @throws {FileRefusedError} `column_not_found`
 */
export function supplierColumns(
  source: InventorySource,
  headers: readonly string[],
  width: number,
): SupplierColumns {
  return {
    item: findColumn(headers, source.itemNumberColumnName, width),
    qty: findColumn(headers, source.qtyColumnName, width),
    status: source.statusSupersedesQuantity
      ? findColumn(headers, source.itemStatusColumnName, width)
      : null,
  };
}

function emptyTally(size: number): SupplierTally {
  return {
    qtySum: new Float64Array(size),
    qtyRows: new Uint32Array(size),
    rowsSeen: new Uint32Array(size),
    verdicts: new Uint8Array(size),
    lastRow: new Int32Array(size),
    rowsWithoutItem: 0,
    rowsNotInCatalogue: 0,
    skippedForQuantity: 0,
    quantityErrors: [],
    rows: [],
  };
}

/**
 * Reads the supplier file with the source's settings and sums its rows per catalogue item
 * (`indexOf`: item key → catalogue position). Same refusals as reading the whole table and then
 * finding the columns: the file's first, then a missing column.
 *
 * @throws {FileRefusedError} when the file is refused or a column is missing
 */
export async function tallySupplierFile(
  source: InventorySource,
  file: InventoryFile,
  limits: Partial<FileLimits> | undefined,
  indexOf: ReadonlyMap<string, number>,
  key: (itemNumber: string) => string,
  keepRows = false,
): Promise<{ read: RowsRead; columns: SupplierColumns; tally: SupplierTally }> {
  const size = indexOf.size;
  const lists = statusLists(source.statusAvailableList, source.statusOutOfStockList);
  let tally = emptyTally(size);
  const read = await readTableRows(
    file.bytes,
    { name: file.name, hasHeaders: source.fileHasHeader, limits },
    (head) => {
      // Called again from the first row when the reader starts over.
      tally = emptyTally(size);
      const t = tally;
      let columns: SupplierColumns;
      try {
        // The widest row is known only at the end: any column a row can reach is taken now,
        // and checked against the real width below.
        columns = supplierColumns(source, head.headers, resolveLimits(limits).maxColumns);
      } catch {
        return () => {}; // refused below, once the file is read
      }
      const { item: itemCol, qty: qtyCol, status: statusCol } = columns;
      const qtyName = head.headers[qtyCol] || `${qtyCol + 1}`;
      const decimalComma = head.decimalComma;
      return (row, rowNumber) => {
        const k = key(row[itemCol] ?? "");
        if (k === "") {
          t.rowsWithoutItem++;
          return;
        }
        const i = indexOf.get(k);
        if (i === undefined) {
          t.rowsNotInCatalogue++;
          return;
        }
        t.rowsSeen[i]++;
        t.lastRow[i] = rowNumber;
        // Copied: the reader may reuse its row array.
        if (keepRows) t.rows[i] = keptRow(row);
        if (statusCol !== null) {
          const v = statusVerdict(row[statusCol] ?? "", lists);
          if (v === "available") t.verdicts[i] = 1;
          else if (v === "out_of_stock" && t.verdicts[i] === 0) t.verdicts[i] = 2;
        }
        const parsed = parseNumber(row[qtyCol] ?? "", { decimalComma });
        if (parsed.ok) {
          t.qtySum[i] += parsed.value;
          t.qtyRows[i]++;
        } else {
          t.skippedForQuantity++;
          const text = (row[qtyCol] ?? "").trim();
          t.quantityErrors.push({
            row: rowNumber,
            column: qtyName,
            message: parsed.reason === "empty"
              ? `The quantity of item ${row[itemCol].trim()} is empty; the row was skipped`
              : `"${text}" is not a number (item ${row[itemCol].trim()}); the row was skipped`,
          });
        }
      };
    },
  );
  const columns = supplierColumns(source, read.headers, read.width);
  return { read, columns, tally };
}
