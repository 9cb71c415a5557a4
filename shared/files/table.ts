import type { RowError } from "./errors.ts";
import type { FileFormat } from "./detect_format.ts";
import type { TextEncodingName } from "./detect_encoding.ts";
import type { Delimiter } from "./detect_delimiter.ts";

/**
 * The rows of a file as text, before a header is chosen. Blank rows are left out;
 * `rowNumbers[i]` is the 1-based file row of `rows[i]`.
 */
export interface Grid {
  format: FileFormat;
  encoding: TextEncodingName | null;
  bom: boolean;
  delimiter: Delimiter | null;
  /** Sheet read, and every sheet in the workbook (workbooks only). */
  sheet: string | null;
  sheets: string[];
  /** The file writes decimals with a comma (semicolon-style CSV); see parseNumber. */
  decimalComma: boolean;
  /** 1900 or 1904 date system, for Excel serials found in text cells. */
  date1904: boolean;
  rows: string[][];
  rowNumbers: number[];
  errors: RowError[];
}

/**
 * A file read as a table: each cell is the text the feeds receive (dates as `YYYY-MM-DD`,
 * numbers as their plain value), typed values come from the accessors in `cells.ts`.
 */
export interface Table extends Omit<Grid, "rows" | "rowNumbers"> {
  /** 1-based file row of the header, null when the file has no headers. */
  headerRow: number | null;
  /** Trimmed header texts; empty when the file has no headers. */
  headers: string[];
  /** Data rows, each at least as wide as `headers`. */
  rows: string[][];
  /** 1-based file row of each data row. */
  rowNumbers: number[];
}

/** Which sheet to read: a name (exact, else case-insensitive) or a 1-based position. */
export type SheetRef = string | number;
