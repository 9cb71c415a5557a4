/**
 * Filling a vendor's spreadsheet template with its order rows (DESIGN.md section 6): the
 * template's rows down to its header row (`submitFileHeaderRowIndex`, 1-based) are kept, the
 * sample rows below are dropped, and each order row is written through the vendor's field
 * mapping. The decisions are in docs/order_submission.md.
 */
import * as XLSX from "xlsx";
import {
  type CellValue,
  FEED_LIMITS,
  FileRefusedError,
  findColumn,
  gridToTable,
  parseNumber,
  readGrid,
} from "../files/mod.ts";
import { toSheetCell, workbookBytes } from "../files/write_table.ts";
import { checkZipBomb } from "../files/zip_guard.ts";
import { resolveLimits } from "../files/limits.ts";
import {
  MAP_FIELDS,
  type MapField,
  mappedColumns,
  STATIC_FIELDS,
} from "../contract/order_submission.ts";
import { type OrderRow, SubmissionError } from "./vendor_split.ts";
import { alignAllLeft } from "./align_left.ts";
import { trimItemDescription } from "./description_trim.ts";

type StaticKey = `staticFileData${typeof STATIC_FIELDS[number]}`;
type StaticMapKey = `mapStaticFileData${typeof STATIC_FIELDS[number]}`;

/** What filling needs of a vendor (the contract's vendor has every field). */
export type VendorTemplateSettings =
  & {
    submitFileHeaderRowIndex: number;
    vendorWantsTrimmedItemDescription: boolean;
    vendorRegexForItemDescription: string;
    vendorWantsAllAlignedLeft: boolean;
    vendorWantsAllData: boolean;
    vendorProvidedAccountNumber?: string | null;
  }
  & Partial<Record<MapField | StaticKey | StaticMapKey, string | null>>;

/** Per-run facts the template needs beyond the vendor. */
export interface FillContext {
  /** The order submission source's `ordersAreAllQuantityOne`. */
  ordersAreAllQuantityOne: boolean;
  /** Written into `mapBatch` columns when the file has no batch column (e.g. "2026-11-23"). */
  batch?: string;
  /** The incoming file's headers, appended when the vendor wants all data. */
  incomingHeaders: readonly string[];
}

/** The filled file, and the table it holds (header + rows) for the PDF and the run page. */
export interface FilledVendorFile {
  bytes: Uint8Array;
  format: "xlsx" | "xls";
  headers: string[];
  rows: CellValue[][];
}

/** Fields written as numbers when their text is a number. */
const NUMERIC_FIELDS: ReadonlySet<MapField> = new Set(["mapQty", "mapUnitPrice", "mapTotal"]);

function numberOrText(text: string): CellValue {
  if (text === "") return null;
  const n = parseNumber(text);
  return n.ok ? n.value : text;
}

/**
 * The value of every mapped field for one order row: the file's value, with the vendor's and
 * the source's rules applied (quantity one, trimmed description, account number, batch, total).
 */
export function fieldValues(
  row: OrderRow,
  vendor: VendorTemplateSettings,
  context: Pick<FillContext, "ordersAreAllQuantityOne" | "batch">,
  accountNumber = "",
): Record<MapField, CellValue> {
  const out = {} as Record<MapField, CellValue>;
  for (const field of MAP_FIELDS) {
    const text = row.fields[field] ?? "";
    out[field] = NUMERIC_FIELDS.has(field) ? numberOrText(text) : text === "" ? null : text;
  }
  if (context.ordersAreAllQuantityOne) out.mapQty = 1;
  if (vendor.vendorWantsTrimmedItemDescription && typeof out.mapItemDescription === "string") {
    out.mapItemDescription = trimItemDescription(
      out.mapItemDescription,
      vendor.vendorRegexForItemDescription ?? "",
    );
  }
  const account = accountNumber.trim() || (vendor.vendorProvidedAccountNumber ?? "").trim();
  if (account !== "") out.mapProvidedAccountNumber = account;
  if (out.mapBatch === null && context.batch) out.mapBatch = context.batch;
  if (
    out.mapTotal === null && typeof out.mapQty === "number" && typeof out.mapUnitPrice === "number"
  ) {
    out.mapTotal = Math.round(out.mapQty * out.mapUnitPrice * 10_000) / 10_000;
  }
  return out;
}

/** A template read down to its header row. */
interface TemplateHead {
  format: "xlsx" | "xls";
  headers: string[];
  /** 1-based header row. */
  headerRow: number;
}

async function readTemplateHead(
  bytes: Uint8Array,
  fileName: string,
  headerRow: number,
): Promise<TemplateHead> {
  let grid;
  try {
    grid = await readGrid(bytes, { name: fileName, limits: FEED_LIMITS });
  } catch (error) {
    if (error instanceof FileRefusedError) {
      throw new SubmissionError(
        "template_not_spreadsheet",
        `The template "${fileName}" is not a readable spreadsheet (.xls or .xlsx): ${error.message}`,
      );
    }
    throw error;
  }
  if (grid.format !== "xlsx" && grid.format !== "xls") {
    throw new SubmissionError(
      "template_not_spreadsheet",
      `The template "${fileName}" is not a spreadsheet (.xls or .xlsx); it reads as ${grid.format.toUpperCase()}.`,
    );
  }
  const last = grid.rowNumbers.length > 0 ? grid.rowNumbers[grid.rowNumbers.length - 1] : 0;
  if (!Number.isInteger(headerRow) || headerRow < 1 || headerRow > last) {
    throw new SubmissionError(
      "header_row_out_of_range",
      `The header row index ${headerRow} is past the template's rows: its last non-blank row is ${last}.`,
    );
  }
  try {
    const table = gridToTable(grid, { headerRow });
    return { format: grid.format, headers: table.headers, headerRow };
  } catch (error) {
    if (error instanceof FileRefusedError) {
      throw new SubmissionError(
        "header_row_empty",
        `Row ${headerRow} of the template is empty; the header row index must point at the column names.`,
      );
    }
    throw error;
  }
}

/** Where each mapped field and static value goes: 0-based template columns. */
interface ColumnPlan {
  fields: [MapField, number[]][];
  statics: [string, number[]][];
}

function planColumns(headers: readonly string[], vendor: VendorTemplateSettings): ColumnPlan {
  const missing: string[] = [];
  const locate = (setting: string, mapping: string | null | undefined): number[] => {
    const out: number[] = [];
    for (const name of mappedColumns(mapping)) {
      try {
        out.push(findColumn(headers, name, Math.max(headers.length, 1)));
      } catch {
        missing.push(`"${name}" (${setting})`);
      }
    }
    return out;
  };
  const fields: [MapField, number[]][] = [];
  for (const field of MAP_FIELDS) {
    const columns = locate(field, vendor[field]);
    if (columns.length > 0) fields.push([field, columns]);
  }
  const statics: [string, number[]][] = [];
  for (const n of STATIC_FIELDS) {
    const columns = locate(`mapStaticFileData${n}`, vendor[`mapStaticFileData${n}`]);
    const value = (vendor[`staticFileData${n}`] ?? "").trim();
    if (columns.length > 0) statics.push([value, columns]);
  }
  if (missing.length > 0) {
    const found = headers.filter((h) => h !== "").map((h) => `"${h}"`).join(", ") || "none";
    throw new SubmissionError(
      "mapping_column_missing",
      `The field mapping names ${
        missing.length === 1 ? "a column" : "columns"
      } the template lacks: ${missing.join(", ")}. Template columns: ${found}.`,
    );
  }
  return { fields, statics };
}

/**
 * Checks a vendor's template and mapping for the save: the template is an XLS/XLSX workbook,
 * the header row index is within its rows and not blank, and every column the mapping names is
 * in the header row (by name, or by column letter or 1-based number). Returns the template's
 * header names.
 *
 * @throws {SubmissionError} `template_not_spreadsheet`, `header_row_out_of_range`,
 *   `header_row_empty` or `mapping_column_missing`, with a message for the screen
 */
export async function validateVendorTemplate(
  template: Uint8Array,
  fileName: string,
  vendor: VendorTemplateSettings,
): Promise<string[]> {
  const head = await readTemplateHead(template, fileName, vendor.submitFileHeaderRowIndex);
  planColumns(head.headers, vendor);
  return head.headers;
}

/**
 * Fills the vendor's template with its rows: mapped fields (a field mapped to several columns
 * fills each), static values, quantity one, trimmed descriptions; every incoming column appended
 * after the template's columns (with its header) when the vendor wants all data; every cell left
 * aligned when asked. Text that looks like a formula is escaped. The output keeps the
 * template's format, sheets, rows above the header and column widths.
 *
 * @throws {SubmissionError} as {@link validateVendorTemplate}
 */
export async function fillVendorTemplate(
  template: Uint8Array,
  fileName: string,
  vendor: VendorTemplateSettings,
  rows: readonly OrderRow[],
  context: FillContext,
  accountNumbers: readonly string[] = [],
): Promise<FilledVendorFile> {
  const head = await readTemplateHead(template, fileName, vendor.submitFileHeaderRowIndex);
  const plan = planColumns(head.headers, vendor);
  let width = head.headers.length;
  for (const [, cs] of [...plan.fields, ...plan.statics]) {
    for (const c of cs) width = Math.max(width, c + 1);
  }
  const appended = vendor.vendorWantsAllData ? [...context.incomingHeaders] : [];
  const headers = [...head.headers];
  while (headers.length < width) headers.push("");
  headers.push(...appended);

  const table: CellValue[][] = rows.map((row, i) => {
    const values = fieldValues(row, vendor, context, accountNumbers[i] ?? "");
    const out: CellValue[] = new Array(width + appended.length).fill(null);
    for (const [field, cs] of plan.fields) for (const c of cs) out[c] = values[field];
    for (const [value, cs] of plan.statics) {
      for (const c of cs) {
        out[c] = value === "" ? null : value;
      }
    }
    appended.forEach((_, k) => {
      const cell = row.cells[k] ?? "";
      out[width + k] = cell === "" ? null : cell;
    });
    return out;
  });

  if (head.format === "xlsx") await checkZipBomb(template, resolveLimits(FEED_LIMITS));
  const wb = XLSX.read(template, {
    type: "array",
    dense: true,
    cellNF: true,
    cellStyles: true,
    cellDates: false,
  });
  const ws = wb.Sheets[wb.SheetNames[0]];
  const data = (ws["!data"] ?? []) as XLSX.CellObject[][];
  const keep = head.headerRow;
  data.length = Math.min(data.length, keep);
  for (let r = 0; r < keep; r++) if (!data[r]) data[r] = [];
  if (ws["!merges"]) ws["!merges"] = ws["!merges"].filter((m) => m.e.r < keep);
  const headerCells = data[keep - 1];
  appended.forEach((name, k) => {
    const cell = toSheetCell(name);
    if (cell) headerCells[width + k] = cell;
  });
  let lastCol = 0;
  for (const row of data) if (row.length > lastCol) lastCol = row.length;
  table.forEach((values, r) => {
    const out: XLSX.CellObject[] = [];
    values.forEach((v, c) => {
      const cell = toSheetCell(v);
      if (cell) out[c] = cell;
    });
    if (out.length > lastCol) lastCol = out.length;
    data[keep + r] = out;
  });
  for (let r = 0; r < data.length; r++) if (!data[r]) data[r] = [];
  ws["!data"] = data;
  ws["!ref"] = XLSX.utils.encode_range({
    s: { r: 0, c: 0 },
    e: { r: Math.max(data.length - 1, 0), c: Math.max(lastCol - 1, 0) },
  });
  delete ws["!autofilter"];
  let bytes = workbookBytes(wb, head.format);
  if (vendor.vendorWantsAllAlignedLeft) bytes = alignAllLeft(bytes, head.format);
  return { bytes, format: head.format, headers, rows: table };
}
