import * as XLSX from "xlsx";
import * as cptable from "xlsx/dist/cpexcel.full.mjs";
import { FileRefusedError, type RowError } from "./errors.ts";
import type { FileLimits } from "./limits.ts";
import type { Grid, SheetRef } from "./table.ts";

export type { SheetRef };
import { excelSerialToIso } from "./values.ts";
import {
  checkInflatedSizes,
  checkPartsClosed,
  checkZipDirectory,
  type ZipEntry,
} from "./zip_guard.ts";
import { isDateFormat, numberText, ZERO_PAD } from "./xlsx_cells.ts";
import { readXlsxStreaming } from "./xlsx_stream.ts";

export { numberText };
import { isBlankRow, tooManyCells, tooManyColumns, tooManyRows } from "./grid_rows.ts";

// Old XLS files (BIFF5 and earlier) store text in a Windows code page.
XLSX.set_cptable(cptable);

/** The text a feed receives for one cell, whatever its display format. */
function cellText(cell: XLSX.CellObject, date1904: boolean): string {
  const v = cell.v;
  switch (cell.t as string) {
    case "s":
    case "str":
      return v == null ? "" : String(v);
    case "n": {
      const z = cell.z;
      if (typeof z === "string" && z !== "General") {
        if (isDateFormat(z)) return excelSerialToIso(v as number, date1904);
        if (ZERO_PAD.test(z) && cell.w) return cell.w;
      }
      return numberText(v as number);
    }
    case "b":
      return v ? "TRUE" : "FALSE";
    case "e":
      return cell.w ?? "#N/A";
    case "d": {
      const d = v instanceof Date ? v : new Date(String(v));
      return d.toISOString().slice(0, 10);
    }
    default:
      return "";
  }
}

function readOptions(limits: FileLimits, sheets?: string | number): XLSX.ParsingOptions {
  return {
    type: "array",
    dense: true,
    cellNF: true,
    cellDates: false,
    cellHTML: false,
    cellFormula: false,
    cellStyles: false,
    // The real range comes from the cells, so a declared A1:XFD1048576 costs nothing.
    nodim: true,
    sheetRows: limits.maxRows + 1,
    sheets,
  };
}

function parseWorkbook(bytes: Uint8Array, options: XLSX.ParsingOptions): XLSX.WorkBook {
  try {
    return XLSX.read(bytes, options);
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    if (/password|encrypt/i.test(text)) {
      throw new FileRefusedError(
        "encrypted",
        "The workbook is password-protected; remove the password and send it again.",
      );
    }
    throw new FileRefusedError("corrupt", `The workbook is damaged and cannot be read (${text}).`);
  }
}

/**
 * Reads one sheet of an XLSX or XLS workbook into a grid of text cells. XLSX containers are
 * checked for zip bombs (as they are read), and read by streaming the sheet's XML (xlsx_stream.ts); XLS
 * and whatever the streaming reader is unsure about go to SheetJS, which parses only the
 * chosen sheet.
 *
 * With `onRow`, the rows the streaming reader reads go to it one by one instead of into the
 * grid (see readXlsxStreaming); a grid that comes back with rows is SheetJS's answer, and the
 * rows handed to `onRow` before the streaming reader gave up are then to be discarded.
 *
 * @throws {FileRefusedError} `truncated_file`, `sheet_not_found` (listing the sheets), `corrupt`,
 *   `encrypted`, caps
 */
export async function readWorkbookGrid(
  bytes: Uint8Array,
  format: "xlsx" | "xls",
  limits: FileLimits,
  sheet?: SheetRef,
  onRow?: (row: string[], rowNumber: number) => void,
): Promise<Grid> {
  if (format === "xlsx") {
    // Zip bombs: the declared sizes are checked before anything inflates; the streaming
    // reader counts what it inflates and stops at an entry's declared size; then every entry
    // it did not read to the end is inflated and counted. Only then is its grid returned, or
    // SheetJS (which inflates everything) let in: the same refusals as one checking pass
    // first, without inflating the sheet twice.
    // A workbook cut off (no zip directory, a part past the end, a sheet whose XML does not
    // close) is refused here too, before either reader's rows are used.
    const entries = checkZipDirectory(bytes, limits);
    const sizes = new Map<ZipEntry, number>();
    const tails = new Map<ZipEntry, Uint8Array>();
    const streamed = await readXlsxStreaming(bytes, limits, sheet, entries, sizes, onRow, tails);
    await checkInflatedSizes(bytes, entries, limits, sizes, tails);
    checkPartsClosed(entries, tails);
    if (streamed) return streamed;
  }
  return readWithSheetJs(bytes, format, limits, sheet);
}

/**
 * The SheetJS path of {@link readWorkbookGrid}: every XLS, and the XLSX files the streaming
 * reader leaves to it. The caller has checked an XLSX container for zip bombs.
 *
 * @throws {FileRefusedError} `sheet_not_found` (listing the sheets), `corrupt`, `encrypted`, caps
 */
export function readWithSheetJs(
  bytes: Uint8Array,
  format: "xlsx" | "xls",
  limits: FileLimits,
  sheet?: SheetRef,
): Grid {
  const wanted = typeof sheet === "number" ? sheet - 1 : sheet ?? 0;
  let wb = parseWorkbook(bytes, readOptions(limits, wanted));
  let name: string | undefined = typeof wanted === "number" ? wb.SheetNames[wanted] : wanted;
  if (typeof wanted === "string" && !wb.Sheets[wanted]) {
    const lower = wanted.trim().toLowerCase();
    name = wb.SheetNames.find((n) => n.trim().toLowerCase() === lower);
    if (name !== undefined) wb = parseWorkbook(bytes, readOptions(limits, name));
  }
  const ws = name === undefined ? undefined : wb.Sheets[name];
  if (name === undefined || !ws) {
    const what = typeof sheet === "number" ? `Sheet ${sheet}` : `Sheet "${sheet}"`;
    throw new FileRefusedError(
      "sheet_not_found",
      wb.SheetNames.length === 0
        ? "The workbook has no sheets."
        : `${what} was not found. Sheets in the workbook: ${
          wb.SheetNames.map((n) => `"${n}"`).join(", ")
        }.`,
    );
  }
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  const data = (ws["!data"] ?? []) as (XLSX.CellObject | undefined)[][];
  if (data.length > limits.maxRows) throw tooManyRows(limits);

  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const errors: RowError[] = [];
  let cells = 0;
  for (let r = 0; r < data.length; r++) {
    const src = data[r];
    if (!src || src.length === 0) continue;
    if (src.length > limits.maxColumns) throw tooManyColumns(r + 1, src.length, limits);
    const row = new Array<string>(src.length);
    for (let c = 0; c < src.length; c++) {
      const cell = src[c];
      row[c] = cell ? cellText(cell, date1904) : "";
    }
    if (isBlankRow(row)) continue;
    cells += row.length;
    if (cells > limits.maxCells) throw tooManyCells(limits);
    rows.push(row);
    rowNumbers.push(r + 1);
  }
  return {
    format,
    encoding: null,
    bom: false,
    delimiter: null,
    sheet: name,
    sheets: wb.SheetNames,
    decimalComma: false,
    date1904,
    rows,
    rowNumbers,
    errors,
  };
}
