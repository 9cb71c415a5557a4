import { FileRefusedError } from "./errors.ts";
import type { FileLimits } from "./limits.ts";

/** A row counts as blank when every cell is empty or only spaces. */
export function isBlankRow(row: readonly string[]): boolean {
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (c !== "" && c.trim() !== "") return false;
  }
  return true;
}

/** Shared refusals for the row, column and cell caps, so every reader words them alike. */
export function tooManyRows(limits: FileLimits): FileRefusedError {
  return new FileRefusedError(
    "too_many_rows",
    `The file has more than ${limits.maxRows.toLocaleString("en-US")} rows, over the limit.`,
  );
}

export function tooManyColumns(row: number, count: number, limits: FileLimits): FileRefusedError {
  return new FileRefusedError(
    "too_many_columns",
    `Row ${row} has ${count.toLocaleString("en-US")} cells, more than the ${
      limits.maxColumns.toLocaleString("en-US")
    } allowed.`,
  );
}

export function tooManyCells(limits: FileLimits): FileRefusedError {
  return new FileRefusedError(
    "too_many_cells",
    `The file has more than ${limits.maxCells.toLocaleString("en-US")} cells, over the limit.`,
  );
}
