import { FileRefusedError } from "./errors.ts";
import type { FileLimits } from "./limits.ts";
import { columnLetter } from "./columns.ts";

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

/**
 * Refuses a grid holding a cell longer than `limits.maxCellChars` (the whole file: a file over a
 * limit is not half-processed), naming the first such cell by row number and column letter.
 */
export function checkCellLengths(
  rows: readonly (readonly string[])[],
  rowNumbers: readonly number[],
  limits: FileLimits,
): void {
  for (let r = 0; r < rows.length; r++) {
    const refusal = longCell(rows[r], rowNumbers[r] ?? r + 1, limits);
    if (refusal) throw refusal;
  }
}

/** The refusal for the first cell of a row longer than `limits.maxCellChars`, or null. */
export function longCell(
  row: readonly string[],
  rowNumber: number,
  limits: FileLimits,
): FileRefusedError | null {
  const max = limits.maxCellChars;
  for (let c = 0; c < row.length; c++) {
    if (row[c].length > max) {
      return new FileRefusedError(
        "cell_too_long",
        `Row ${rowNumber}, column ${columnLetter(c)} has ${
          row[c].length.toLocaleString("en-US")
        } characters, more than the ${max.toLocaleString("en-US")} a cell may hold.`,
      );
    }
  }
  return null;
}
