/** Helpers for the inventory engine's tests: a configured source and sample files. */
import type { InventorySource } from "../contract/inventory.ts";
import { encodeBase64 } from "../base64.ts";
import { writeTable } from "../files/mod.ts";
import { NEW_INVENTORY_SOURCE } from "./source.ts";

/** A sample file with the header "Item,Status,Date" in the given format. */
export function sampleFile(format: "csv" | "xlsx" | "xls"): { name: string; bytes: Uint8Array } {
  return {
    name: `seller_feed.${format}`,
    bytes: writeTable(["Item", "Status", "Date"], [["X1", "Active", "2024-01-01"]], format),
  };
}

/** A configured source: item "Item Number", quantity "Qty", output Item/Status/Date in a CSV. */
export function testSource(
  overrides: Partial<InventorySource> = {},
  fileData: Partial<InventorySource["fileData"]> = {},
): InventorySource {
  const sample = sampleFile("csv");
  return {
    ...NEW_INVENTORY_SOURCE,
    id: 1,
    sourceName: "Acme stock",
    fileType: "csv",
    itemNumberColumnName: "Item Number",
    qtyColumnName: "Qty",
    ...overrides,
    fileData: {
      ...NEW_INVENTORY_SOURCE.fileData,
      userActivatedItemNumbers: "",
      inventoryFileName: sample.name,
      inventoryFileData: encodeBase64(sample.bytes),
      itemNumberColumnName: "Item",
      itemStatusColumnName: "Status",
      itemStatusDateColumnName: "Date",
      ...fileData,
    },
  };
}

/** A supplier CSV from rows (first row the header). */
export function csvFile(rows: string[][], name = "stock.csv"): { name: string; bytes: Uint8Array } {
  return { name, bytes: writeTable([], rows, "csv") };
}

export const NOW = new Date("2026-03-10T08:00:00Z");
