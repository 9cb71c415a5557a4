import * as XLSX from "xlsx";
import { encodeText, type TextEncodingName } from "./detect_encoding.ts";
import { escapeFormula } from "./formula_escape.ts";
import { numberText } from "./xlsx_reader.ts";

/** A value to write into a cell. Dates are written as calendar dates (their UTC day). */
export type CellValue = string | number | boolean | Date | null | undefined;

/** Formats the writers produce. */
export type WriteFormat = "csv" | "xlsx" | "xls";

/** Options for {@link writeTable}. */
export interface WriteOptions {
  /** CSV only: the delimiter, default ",". */
  delimiter?: string;
  /** CSV only: default UTF-8. Falls back to UTF-8 when Windows-1252 cannot hold a character. */
  encoding?: TextEncodingName;
  /** CSV only: write a byte order mark, default true (Excel then reads UTF-8 correctly). */
  bom?: boolean;
  /** CSV only: default "\r\n". */
  newline?: string;
  /** Workbooks only: sheet name, default "Sheet1". */
  sheetName?: string;
}

const DATE_FORMAT = "yyyy-mm-dd";
const UNIX_EPOCH_SERIAL = 25569;

/** ISO `YYYY-MM-DD` of a date's UTC day. */
function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The text a CSV cell gets for a value, escaped against formula injection. */
export function cellToText(value: CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return escapeFormula(value);
  if (typeof value === "number") return Number.isFinite(value) ? numberText(value) : "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return isoDay(value);
}

const NEEDS_QUOTES = /[",;\t|\r\n]|^\s|\s$/;

/** Quotes a CSV field when it holds a quote, a line break, or any delimiter a reader may guess. */
function csvField(text: string): string {
  if (!NEEDS_QUOTES.test(text)) return text;
  return '"' + text.replaceAll('"', '""') + '"';
}

/**
 * Serialises rows as delimited text (no encoding). Fields holding any of the recognised
 * delimiters are quoted, so reading the file back cannot guess a different delimiter.
 */
export function toCsvText(
  rows: readonly (readonly CellValue[])[],
  delimiter = ",",
  newline = "\r\n",
): string {
  const lines = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    lines[r] = rows[r].map((v) => csvField(cellToText(v))).join(delimiter);
  }
  return lines.join(newline) + (rows.length > 0 ? newline : "");
}

/** Encodes CSV text, using UTF-8 with a BOM when Windows-1252 cannot represent it. */
export function encodeCsv(
  text: string,
  encoding: TextEncodingName = "utf-8",
  bom = true,
): Uint8Array {
  return encodeText(text, encoding, bom) ?? (encodeText(text, "utf-8", true) as Uint8Array);
}

/** A SheetJS cell for a value; strings stay text cells, so "00123" keeps its zeros. */
export function toSheetCell(value: CellValue): XLSX.CellObject | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  if (typeof value === "string") return { t: "s", v: escapeFormula(value) };
  if (typeof value === "number") return Number.isFinite(value) ? { t: "n", v: value } : undefined;
  if (typeof value === "boolean") return { t: "b", v: value };
  const day = Math.floor(value.getTime() / 86_400_000);
  return { t: "n", v: day + UNIX_EPOCH_SERIAL, z: DATE_FORMAT };
}

/** Builds a dense worksheet from rows of values. */
export function rowsToSheet(rows: readonly (readonly CellValue[])[]): XLSX.WorkSheet {
  const data: XLSX.CellObject[][] = [];
  let width = 0;
  for (let r = 0; r < rows.length; r++) {
    const out: XLSX.CellObject[] = [];
    const row = rows[r];
    for (let c = 0; c < row.length; c++) {
      const cell = toSheetCell(row[c]);
      if (cell) out[c] = cell;
    }
    if (row.length > width) width = row.length;
    data[r] = out;
  }
  const ws: XLSX.WorkSheet = { "!data": data } as unknown as XLSX.WorkSheet;
  ws["!ref"] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(rows.length - 1, 0), c: Math.max(width - 1, 0) },
  });
  return ws;
}

/** Serialises a workbook as XLSX or XLS (BIFF8) bytes. */
export function workbookBytes(wb: XLSX.WorkBook, format: "xlsx" | "xls"): Uint8Array {
  const out = XLSX.write(wb, {
    type: "array",
    bookType: format === "xls" ? "biff8" : "xlsx",
    compression: true,
  });
  return new Uint8Array(out as ArrayBuffer);
}

/**
 * Writes a table (header row first when `headers` is not empty) as CSV, XLSX or XLS bytes.
 * Text cells starting with `= + - @`, tab or CR are escaped against formula injection.
 *
 * @example
 * ```ts
 * const bytes = writeTable(["Item", "Status"], [["00123", "Active"]], "xlsx");
 * ```
 */
export function writeTable(
  headers: readonly string[],
  rows: readonly (readonly CellValue[])[],
  format: WriteFormat,
  options: WriteOptions = {},
): Uint8Array {
  const all = headers.length > 0 ? [headers, ...rows] : rows;
  if (format === "csv") {
    const text = toCsvText(all, options.delimiter ?? ",", options.newline ?? "\r\n");
    return encodeCsv(text, options.encoding ?? "utf-8", options.bom ?? true);
  }
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, rowsToSheet(all), options.sheetName ?? "Sheet1");
  return workbookBytes(wb, format);
}
