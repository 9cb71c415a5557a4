import { z } from "zod";
import {
  type InventoryFileData,
  inventoryFileDataSchema,
  type InventorySource,
  inventorySourceSchema,
} from "../contract/inventory.ts";

/** A new source's values (spec section 9: headers on, active on). */
export const NEW_INVENTORY_SOURCE: InventorySource = {
  id: 0,
  emailSourceId: null,
  sourceName: "",
  fileType: "",
  fromEmail: "",
  daysUntilNoUpdateNotification: null,
  expectedAttachmentCount: null,
  subjectValue: "",
  containsNotExact: false,
  attachmentName: "",
  itemNumberColumnName: "",
  qtyColumnName: "",
  statusSupersedesQuantity: false,
  statusAvailableList: "",
  statusOutOfStockList: "",
  itemStatusColumnName: "",
  minItemsToBeActive: null,
  fileHasHeader: true,
  stripLeadingZeroes: false,
  usesPredictiveAlgorithm: false,
  lookbackDays: null,
  minDataPoints: null,
  safetyMultiplier: null,
  safetyPadding: null,
  largeDropThreshold: null,
  largeDropMultiplier: null,
  sftpServerAddress: "",
  sftpPort: null,
  sftpUsername: "",
  sftpPassword: "",
  sftpInboxFolder: "",
  guardThreshold: null,
  activeStatus: true,
  fileData: {
    userActivatedItemNumbers: "",
    inventoryFileName: null,
    inventoryFileData: null,
    activeStatus: true,
    headerRowIndex: null,
    fileHasHeader: true,
    itemNumberColumnName: "",
    itemStatusColumnName: "",
    itemStatusDateColumnName: "",
  },
};

/** Re-keys an object by a list of canonical keys, matching case-insensitively. */
function canonicalKeys(value: unknown, keys: readonly string[]): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  const byLower = new Map(keys.map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const canonical = byLower.get(k.toLowerCase());
    if (canonical && v !== undefined) out[canonical] = v;
  }
  return out;
}

/**
 * Reads a source as `GET /api/inventory-sources/inventory/{id}` answers it (keys in any case,
 * absent fields take a new source's values). Numbers sent as text are accepted.
 *
 * @throws {z.ZodError} when a field has the wrong type
 */
export function parseInventorySource(json: unknown): InventorySource {
  const top = canonicalKeys(json, Object.keys(inventorySourceSchema.shape));
  const fileData = canonicalKeys(top.fileData, Object.keys(inventoryFileDataSchema.shape));
  const merged: Record<string, unknown> = { ...NEW_INVENTORY_SOURCE, ...top };
  merged.fileData = { ...NEW_INVENTORY_SOURCE.fileData, ...fileData } as InventoryFileData;
  for (const [k, v] of Object.entries(merged)) {
    if (
      v === null && k in NEW_INVENTORY_SOURCE &&
      typeof NEW_INVENTORY_SOURCE[k as keyof InventorySource] === "string"
    ) {
      merged[k] = "";
    }
    if (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) {
      const shape = inventorySourceSchema.shape[k as keyof typeof inventorySourceSchema.shape];
      if (shape && !(shape instanceof z.ZodString)) merged[k] = Number(v);
    }
  }
  return inventorySourceSchema.parse(merged);
}
