import Papa from "papaparse";
import { FileRefusedError, type RowError } from "./errors.ts";
import type { FileLimits } from "./limits.ts";
import { decodeText } from "./detect_encoding.ts";
import { detectDelimiter } from "./detect_delimiter.ts";
import type { Grid } from "./table.ts";
import { isBlankRow, tooManyCells, tooManyColumns, tooManyRows } from "./grid_rows.ts";

const DECIMAL_COMMA = /^\s*[+-]?\d{1,3}(?:[. ]\d{3})*,\d+\s*$|^\s*[+-]?\d+,\d+\s*$/;
const DECIMAL_DOT = /^\s*[+-]?\d+\.\d+\s*$/;

/**
 * Decides whether numbers in the file use a decimal comma: only possible when the comma is
 * not the delimiter, and only when cells like "2,5" outnumber cells like "2.5".
 */
function usesDecimalComma(rows: string[][], delimiter: string): boolean {
  if (delimiter === ",") return false;
  let commas = 0, dots = 0;
  for (let r = 0; r < rows.length && r < 500; r++) {
    for (const cell of rows[r]) {
      if (cell.length > 30) continue;
      if (DECIMAL_COMMA.test(cell)) commas++;
      else if (DECIMAL_DOT.test(cell)) dots++;
    }
  }
  return commas > dots;
}

const STRAY_QUOTE = "a quote inside a field is not doubled; the field was read as written";

/**
 * The refusal of a file that ends inside a quoted field. papaparse reports `MissingQuotes`
 * only when the end of the text comes before the closing quote, so everything from that field
 * on is one cell: the file was cut off in transfer (or a quote opens and never closes, which
 * loses the same rows). Read on, the rows after the cut would be missing, and a feed would
 * take their items for gone; so the file is refused as a whole, not reported as a row error.
 */
function endsInQuotes(row: number): FileRefusedError {
  return new FileRefusedError(
    "malformed_csv",
    `The file ends inside a quoted field that opens in row ${row}: it was cut off (or a quote ` +
      "is not closed), so rows are missing; nothing was read. Send the whole file again.",
  );
}

/**
 * Reads CSV or delimited TXT bytes into a grid: decodes the text, detects the delimiter,
 * parses with papaparse (quoted fields with newlines and doubled quotes), drops blank rows
 * and reports stray quotes as row errors.
 *
 * @throws {FileRefusedError} `malformed_csv` when the text ends inside a quoted field (a file
 *   cut off), or when a row, column or cell cap is passed
 */
export function readCsvGrid(bytes: Uint8Array, format: "csv" | "txt", limits: FileLimits): Grid {
  const { text, encoding, bom } = decodeText(bytes);
  const delimiter = detectDelimiter(text);
  const parsed = Papa.parse<string[]>(text, {
    delimiter,
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: false,
    // One row past the cap (plus the empty "row" after a final newline) is enough to know.
    preview: limits.maxRows + 2,
  });
  const data = parsed.data;
  const last = data[data.length - 1];
  if (last && last.length === 1 && last[0] === "") data.pop();
  if (data.length > limits.maxRows) throw tooManyRows(limits);

  const errors: RowError[] = [];
  for (const e of parsed.errors) {
    if (e.code === "MissingQuotes") throw endsInQuotes((e.row ?? data.length - 1) + 1);
    if (e.type === "Quotes" && typeof e.row === "number") {
      errors.push({ row: e.row + 1, message: STRAY_QUOTE });
    }
  }
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  let cells = 0;
  for (let i = 0; i < data.length; i++) {
    const row = data[i];
    if (row.length > limits.maxColumns) throw tooManyColumns(i + 1, row.length, limits);
    if ((row.length === 1 && row[0] === "") || isBlankRow(row)) continue;
    cells += row.length;
    if (cells > limits.maxCells) throw tooManyCells(limits);
    rows.push(row);
    rowNumbers.push(i + 1);
  }
  return {
    format,
    encoding,
    bom,
    delimiter,
    sheet: null,
    sheets: [],
    decimalComma: usesDecimalComma(rows, delimiter),
    date1904: false,
    rows,
    rowNumbers,
    errors,
  };
}
