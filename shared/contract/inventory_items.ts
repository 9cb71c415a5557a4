/**
 * The item view of an inventory source (issue 23, docs/inventory.md "Items"): the catalogue's
 * items with the rule that decided each, one item's history, and what a run changed.
 */
import { z } from "zod";
import { boundedString, MAX_LENGTH } from "./fields.ts";

/** The list's sort keys. */
export const ITEM_SORTS = ["itemNumber", "quantity", "status", "changedAt", "position"] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

/** Page sizes of the list. */
export const ITEM_PAGE_SIZES = [25, 50, 100, 200] as const;

const flag = z.enum(["true", "false"]).optional().transform((v) => v === "true");

/** GET /api/inventory-sources/inventory/{id}/items: search, filters, sort and page. */
export const itemListQuery = z.object({
  /** Part of the item number, case-insensitive. */
  q: boundedString(MAX_LENGTH.name).trim().optional(),
  /** Inactive in the last delivered feed (or the last run's, when none was delivered). */
  inactive: flag,
  /** Turned Active or Inactive by the last run. */
  changed: flag,
  /** Missing from the last supplier file. */
  missing: flag,
  sort: z.enum(ITEM_SORTS).default("itemNumber"),
  dir: z.enum(["asc", "desc"]).default("asc"),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ItemListQuery = z.input<typeof itemListQuery>;
/** The list's query as the server reads it (defaults applied). */
export type ItemListFilters = z.output<typeof itemListQuery>;

/** The item path parameter: one catalogue item number. */
export const itemParam = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  item: boundedString(MAX_LENGTH.text),
});

/** GET runs/{runId}/items: the page of the run's changes. */
export const runChangesQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(100),
});

const status = z.enum(["Active", "Inactive"]);
const decidedBy = z.enum(["quantity", "status", "missing", "no quantity", "prediction"]);

/** One catalogue item as the last processed run left it. */
export const inventoryItem = z.object({
  itemNumber: z.string(),
  /** Summed quantity in the last supplier file; null when missing or unreadable. */
  quantity: z.number().nullable(),
  /** Status in the last delivered feed; null before the first delivery. */
  deliveredStatus: status.nullable(),
  /** Status the last run decided (differs from deliveredStatus while that run is held). */
  runStatus: status,
  decidedBy,
  /** The rule in words, with the prediction's figures when it decided. */
  reason: z.string(),
  /** True when the last run is held by the guard and would change this item. */
  heldChange: z.boolean(),
  /** When the status last turned, and by which run; null when it never did. */
  changedAt: z.string().nullable(),
  changedRunId: z.number().nullable(),
  /** Turned by the last run. */
  changedInLastRun: z.boolean(),
});
export type InventoryItem = z.infer<typeof inventoryItem>;

/** The last processed run of a source. */
export const lastItemRun = z.object({
  runId: z.number(),
  receivedAt: z.string(),
  status: z.string(),
  deliveryStatus: z.string().nullable(),
  held: z.boolean(),
});
export type LastItemRun = z.infer<typeof lastItemRun>;

/** One page of a source's items. */
export const itemListPage = z.object({
  sourceId: z.number(),
  sourceName: z.string(),
  items: z.array(inventoryItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** Null before the source's first processed run. */
  lastRun: lastItemRun.nullable(),
});
export type ItemListPage = z.infer<typeof itemListPage>;

/** An item turned Active or Inactive by a run. */
export const itemChange = z.object({
  runId: z.number(),
  receivedAt: z.string(),
  itemNumber: z.string(),
  from: status,
  to: status,
  /** Null for runs processed before the item view existed (only the flip is known). */
  decidedBy: z.string().nullable(),
  reason: z.string().nullable(),
  quantity: z.number().nullable(),
});
export type ItemChange = z.infer<typeof itemChange>;

/** The prediction's figures for the item at the last run (predictItem). */
export const itemPrediction = z.object({
  dataPoints: z.number(),
  dailyRate: z.number().nullable(),
  expectedSales: z.number().nullable(),
  requiredStock: z.number().nullable(),
  largeDrop: z.boolean(),
  belowRequired: z.boolean(),
  intervalDays: z.number(),
  reason: z.string(),
});
export type ItemPredictionFigures = z.infer<typeof itemPrediction>;

/** GET inventory/{id}/items/{item}: one item with its history. */
export const itemDetail = z.object({
  sourceId: z.number(),
  sourceName: z.string(),
  item: inventoryItem,
  lastRun: lastItemRun,
  /** Quantities of the stored runs, oldest first (at most the last 400). */
  history: z.array(z.object({ takenAt: z.string(), quantity: z.number(), runId: z.number() })),
  /** Runs that turned the item, newest first (at most 100). */
  changes: z.array(itemChange),
  /** The item's last row of the last supplier file (40 cells of 200 characters at most). */
  rawRow: z.object({
    rowNumber: z.number().nullable(),
    cells: z.array(z.object({ header: z.string(), value: z.string() })),
  }).nullable(),
  /** Null when the source does not predict or the item had no quantity. */
  prediction: itemPrediction.nullable(),
});
export type ItemDetail = z.infer<typeof itemDetail>;

/** GET runs/{runId}/items: what a run changed. */
export const runItemChanges = z.object({
  runId: z.number(),
  sourceId: z.number(),
  status: z.string(),
  deliveryStatus: z.string().nullable(),
  turnedActive: z.number(),
  turnedInactive: z.number(),
  changes: z.array(itemChange),
  page: z.number(),
  pageSize: z.number(),
});
export type RunItemChangesPage = z.infer<typeof runItemChanges>;
