import type { RowError } from "./errors.ts";
import type { Table } from "./table.ts";
import { columnLabel } from "./columns.ts";
import {
  describeProblem,
  parseDate,
  type ParsedValue,
  parseItemNumber,
  parseNumber,
} from "./values.ts";

/**
 * The cell at a data row (0-based into `table.rows`) and column (0-based, from findColumn)
 * read as a number, honouring the file's decimal-comma dialect.
 *
 * @example
 * ```ts ignore
 * numberAt(table, 0, findColumn(table.headers, "Qty"))
 * ```
 */
export function numberAt(table: Table, row: number, column: number): ParsedValue<number> {
  return parseNumber(table.rows[row][column] ?? "", { decimalComma: table.decimalComma });
}

/** The cell read as an ISO date (`YYYY-MM-DD`, with a time only when it has one). */
export function dateAt(table: Table, row: number, column: number): ParsedValue<string> {
  return parseDate(table.rows[row][column] ?? "", table.date1904);
}

/** The cell read as an item number: trimmed text, leading zeros stripped only when asked. */
export function itemAt(
  table: Table,
  row: number,
  column: number,
  stripLeadingZeros = false,
): ParsedValue<string> {
  return parseItemNumber(table.rows[row][column] ?? "", stripLeadingZeros);
}

/**
 * A row error for a cell that did not read as expected, with the file row number and the
 * column's header (or letter).
 *
 * @example
 * ```ts ignore
 * const qty = numberAt(table, i, col);
 * if (!qty.ok) errors.push(cellError(table, i, col, qty, "quantity"));
 * ```
 */
export function cellError(
  table: Table,
  row: number,
  column: number,
  parsed: ParsedValue<unknown>,
  expected: string,
): RowError {
  return {
    row: table.rowNumbers[row],
    column: columnLabel(table.headers, column),
    message: describeProblem(parsed, expected),
  };
}
