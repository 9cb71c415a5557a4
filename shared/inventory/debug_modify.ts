/**
 * The debug modification (spec sections 2, 4 and 8): quantities in an uploaded supplier file are
 * replaced by test values so a person can check how the source's rules treat them; the modified
 * file comes back in the upload's own format with the list of changes.
 */
import {
  type CellValue,
  type FileLimits,
  FileRefusedError,
  fillTemplate,
  parseNumber,
} from "../files/mod.ts";
import { encodeBase64 } from "../base64.ts";
import {
  DEBUG_SUCCESS_TEXT,
  failedResult,
  type InventorySource,
  type ManualProcessResult,
  type Modification,
} from "../contract/inventory.ts";
import { itemKey, parseItemList } from "./items.ts";
import { isActiveByQuantity } from "./rules.ts";
import { extensionOf, type InventoryFile, readSupplierFile } from "./process.ts";

/** The debug result and the modified file. */
export interface DebugOutcome {
  result: ManualProcessResult;
  output: { fileName: string; bytes: Uint8Array } | null;
}

/**
 * The test quantities, cycled over the modified rows: out of stock, just under the minimum,
 * exactly at it, comfortably above it; without a minimum 0, 1 and 10.
 *
 * @example testQuantities(5) // [0, 4, 5, 15]
 * @example testQuantities(null) // [0, 1, 10]
 */
export function testQuantities(minItemsToBeActive: number | null): number[] {
  if (minItemsToBeActive === null) return [0, 1, 10];
  const min = minItemsToBeActive;
  return [...new Set([0, Math.max(min - 1, 0), min, min + 10])];
}

/**
 * The debug success rate: modified rows over total rows, in percent, rounded (spec section 9).
 *
 * @example successRate(1, 3) // 33
 */
export function successRate(modified: number, totalRows: number): number {
  return totalRows > 0 ? Math.round((modified / totalRows) * 100) : 0;
}

const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** A cell read back as text, written as a number when it is a plain number (no leading zero). */
function cellValue(text: string): CellValue {
  return PLAIN_NUMBER.test(text) ? Number(text) : text;
}

/** The debug file's name: the upload's with "_debug" before the extension. */
function debugName(name: string): string {
  const ext = extensionOf(name);
  return ext ? `${name.slice(0, -(ext.length + 1))}_debug.${ext}` : `${name}_debug`;
}

/**
 * Replaces the quantities of the rows whose item is user-activated (every row with an item when
 * the catalogue is empty) with {@link testQuantities}, cycling, and returns the modified file in
 * the upload's format with `isDebugResult` and the modifications. Nothing is stored.
 */
export async function debugModifyInventoryFile(input: {
  source: InventorySource;
  supplierFile: InventoryFile;
  limits?: Partial<FileLimits>;
}): Promise<DebugOutcome> {
  const { source, supplierFile } = input;
  const fail = (message: string): DebugOutcome => {
    const result = failedResult(message);
    result.isDebugResult = true;
    return { result, output: null };
  };
  let read;
  try {
    read = await readSupplierFile(source, supplierFile, input.limits);
  } catch (e) {
    if (e instanceof FileRefusedError) return fail(e.message);
    throw e;
  }
  const { table, item, qty, width } = read;
  const strip = source.stripLeadingZeroes;
  const catalogue = new Set(
    parseItemList(source.fileData.userActivatedItemNumbers, strip).map((i) => itemKey(i, strip)),
  );
  const values = testQuantities(source.minItemsToBeActive);
  const modifications: Modification[] = [];
  const debugLogs: string[] = [];
  let withItem = 0, active = 0, inactive = 0;
  const rows: Record<string, CellValue>[] = [];
  for (let r = 0; r < table.rows.length; r++) {
    const row = table.rows[r];
    const out: Record<string, CellValue> = {};
    for (let c = 0; c < Math.max(row.length, width); c++) {
      out[String(c + 1)] = cellValue(row[c] ?? "");
    }
    const k = itemKey(row[item] ?? "", strip);
    if (k !== "") withItem++;
    if (k !== "" && (catalogue.size === 0 || catalogue.has(k))) {
      const newQuantity = values[modifications.length % values.length];
      const original = parseNumber(row[qty] ?? "", { decimalComma: table.decimalComma });
      out[String(qty + 1)] = newQuantity;
      const nowActive = isActiveByQuantity(newQuantity, source.minItemsToBeActive);
      if (nowActive) active++;
      else inactive++;
      modifications.push({
        rowIndex: table.rowNumbers[r],
        itemNumber: row[item].trim(),
        originalQuantity: original.ok ? original.value : null,
        newQuantity,
        reason: `Test quantity ${newQuantity} (${
          nowActive ? "Active" : "Inactive"
        } by the quantity rule${
          source.minItemsToBeActive === null
            ? ", above 0"
            : `, minimum ${source.minItemsToBeActive}`
        })`,
      });
      if (debugLogs.length < 100) {
        debugLogs.push(
          `Row ${table.rowNumbers[r]}: item ${row[item].trim()} quantity ${
            original.ok ? original.value : `"${(row[qty] ?? "").trim()}"`
          } → ${newQuantity}`,
        );
      }
    }
    rows.push(out);
  }
  let filled;
  try {
    filled = await fillTemplate(supplierFile.bytes, {
      name: supplierFile.name,
      hasHeaders: source.fileHasHeader,
      headerRow: table.headerRow ?? undefined,
      rows,
    });
  } catch (e) {
    if (e instanceof FileRefusedError) return fail(e.message);
    throw e;
  }
  const total = table.rows.length;
  const rate = successRate(modifications.length, total);
  debugLogs.push(
    `Modified ${modifications.length} of ${total} rows (${rate} %): quantities cycle through ${
      values.join(", ")
    }.`,
  );
  const fileName = debugName(supplierFile.name);
  const result: ManualProcessResult = {
    success: true,
    message: DEBUG_SUCCESS_TEXT,
    errors: [],
    processedCount: modifications.length,
    activeCount: active,
    inactiveCount: inactive,
    processingLogs: [],
    fileName,
    fileData: encodeBase64(filled.bytes),
    isDebugResult: true,
    debugLogs,
    modificationsCount: modifications.length,
    columnInfo: {
      expectedItemColumn: source.itemNumberColumnName,
      itemColumnIndex: item + 1,
      expectedQtyColumn: source.qtyColumnName,
      qtyColumnIndex: qty + 1,
      hasHeaders: source.fileHasHeader,
      foundHeaders: table.headers,
    },
    processingSummary: {
      totalRows: total,
      processedRows: withItem,
      skippedRows: total - withItem,
      activeItemsFound: active,
      itemsModified: modifications.length,
      modifications,
    },
  };
  return { result, output: { fileName, bytes: filled.bytes } };
}
