import * as XLSX from "xlsx";
import { FileRefusedError } from "./errors.ts";
import { type FileFormat } from "./detect_format.ts";
import { resolveLimits } from "./limits.ts";
import { gridToTable, readGrid, type ReadOptions } from "./read_table.ts";
import { type ColumnRef, findColumn } from "./columns.ts";
import { checkZipBomb } from "./zip_guard.ts";
import { type CellValue, encodeCsv, toCsvText, toSheetCell, workbookBytes } from "./write_table.ts";

/** Options for {@link fillTemplate}. */
export interface FillOptions {
  /** Template file name (its extension declares the format) or declared type. */
  name?: string;
  type?: FileFormat;
  /** Default true. Without headers the output holds only the data rows, addressed by index or letter. */
  hasHeaders?: boolean;
  /** 1-based row of the template's header; detected when omitted. */
  headerRow?: number;
  /** Sheet to fill in a workbook template; the first by default. */
  sheet?: string | number;
  /** Rows to write, keyed by column: header name, 1-based index or column letter. */
  rows: readonly Readonly<Record<string, CellValue>>[];
}

/** The filled file and the format it was written in (the template's own). */
export interface FilledFile {
  bytes: Uint8Array;
  format: FileFormat;
}

/** Maps each distinct key of the rows to a 0-based column of the template. */
function resolveKeys(
  rows: FillOptions["rows"],
  headers: string[],
  width: number,
): Map<string, number> {
  const keys = new Map<string, number>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (keys.has(key)) continue;
      const ref: ColumnRef = /^\d+$/.test(key) ? Number(key) : key;
      // A template without headers may still be filled in any column the user names.
      keys.set(key, findColumn(headers, ref, Math.max(width, 16_384)));
    }
  }
  return keys;
}

function placeRow(
  row: Readonly<Record<string, CellValue>>,
  keys: Map<string, number>,
): CellValue[] {
  const out: CellValue[] = [];
  for (const [key, value] of Object.entries(row)) {
    const c = keys.get(key)!;
    while (out.length < c) out.push(null);
    out[c] = value;
  }
  return out;
}

/**
 * Fills a stored sample file: keeps everything above the header row and the header itself,
 * drops the sample's data rows, and writes `rows` into the named columns. The output has the
 * template's format; a CSV keeps its delimiter, encoding, BOM and line endings, a workbook
 * keeps its other sheets. Text is escaped against formula injection.
 *
 * @example
 * ```ts ignore
 * const { bytes } = await fillTemplate(sample, {
 *   name: "sample.xlsx", headerRow: 3,
 *   rows: [{ "Item Number": "00123", Status: "Active", Date: new Date() }],
 * });
 * ```
 * @throws {FileRefusedError} when the template cannot be read or a column is not in it
 */
export async function fillTemplate(
  template: Uint8Array,
  options: FillOptions,
): Promise<FilledFile> {
  const readOptions: ReadOptions = {
    name: options.name,
    type: options.type,
    hasHeaders: options.hasHeaders,
    headerRow: options.headerRow,
    sheet: options.sheet,
    // Templates come from configuration screens, which take the feeds' larger files too.
    limits: { maxBytes: 50 * 1024 * 1024 },
  };
  const grid = await readGrid(template, readOptions);
  const hasHeaders = options.hasHeaders !== false;
  if (grid.rows.length === 0 && hasHeaders) {
    throw new FileRefusedError(
      "template_invalid",
      "The template is empty; it needs at least a header row.",
    );
  }
  const table = grid.rows.length > 0
    ? gridToTable(grid, readOptions)
    : { headers: [], rows: [], headerRow: null };
  const width = Math.max(table.headers.length, ...table.rows.map((r) => r.length), 0);
  const keys = resolveKeys(options.rows, table.headers, width);
  const dataRows = options.rows.map((r) => placeRow(r, keys));
  const keepUntil = hasHeaders ? table.headerRow! : 0;

  if (grid.format === "csv" || grid.format === "txt") {
    const kept: string[][] = [];
    for (let i = 0; i < grid.rows.length && grid.rowNumbers[i] <= keepUntil; i++) {
      while (kept.length < grid.rowNumbers[i] - 1) kept.push([]);
      kept.push(grid.rows[i]);
    }
    const text = new TextDecoder("latin1").decode(template.subarray(0, 64 * 1024));
    const newline = text.includes("\r\n") ? "\r\n" : text.includes("\n") ? "\n" : "\r\n";
    // Rows kept from the template are written back as they were, without formula escaping.
    const head = kept.map((r) =>
      r.map((c) => /[",;\t|\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c).join(
        grid.delimiter!,
      )
    );
    const body = toCsvText(dataRows, grid.delimiter ?? ",", newline);
    const csv = (head.length > 0 ? head.join(newline) + newline : "") + body;
    return { bytes: encodeCsv(csv, grid.encoding ?? "utf-8", grid.bom), format: grid.format };
  }

  if (grid.format === "xlsx") await checkZipBomb(template, resolveLimits(readOptions.limits));
  const wb = XLSX.read(template, {
    type: "array",
    dense: true,
    cellNF: true,
    cellStyles: true,
    cellDates: false,
  });
  const ws = wb.Sheets[grid.sheet!];
  const data = (ws["!data"] ?? []) as XLSX.CellObject[][];
  data.length = Math.min(data.length, keepUntil);
  if (ws["!merges"]) ws["!merges"] = ws["!merges"].filter((m) => m.e.r < keepUntil);
  let lastCol = 0;
  for (const row of data) if (row && row.length > lastCol) lastCol = row.length;
  for (let r = 0; r < dataRows.length; r++) {
    const out: XLSX.CellObject[] = [];
    dataRows[r].forEach((v, c) => {
      const cell = toSheetCell(v);
      if (cell) out[c] = cell;
    });
    if (out.length > lastCol) lastCol = out.length;
    data[keepUntil + r] = out;
  }
  // The writers expect a row array for every row in the range, even blank ones.
  for (let r = 0; r < data.length; r++) if (!data[r]) data[r] = [];
  ws["!data"] = data;
  ws["!ref"] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(keepUntil + dataRows.length - 1, 0), c: Math.max(lastCol - 1, 0) },
  });
  delete ws["!autofilter"];
  return { bytes: workbookBytes(wb, grid.format), format: grid.format };
}
