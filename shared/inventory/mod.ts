/**
 * The inventory engine (DESIGN.md section 6, "Inventory"): pure code shared by the server and
 * the CLI. Entry points: {@link processInventory} and {@link debugModifyInventoryFile}.
 *
 * @module
 */
export {
  ConfigError,
  extensionOf,
  fileTypeProblem,
  type InventoryCounts,
  type InventoryFile,
  type InventoryOutcome,
  type ItemOutcome,
  processInventory,
  type ProcessInventoryInput,
  readSupplierFile,
  rowErrorText,
  runDate,
} from "./process.ts";
export {
  debugModifyInventoryFile,
  type DebugOutcome,
  successRate,
  testQuantities,
} from "./debug_modify.ts";
export { type Flip, guard, type GuardVerdict, type ItemStatusEntry } from "./guard.ts";
export { itemKey, parseItemList, parseStatusList } from "./items.ts";
export { isActiveByQuantity, statusLists, statusVerdict } from "./rules.ts";
export {
  DAY_MS,
  DEFAULT_PREDICTION,
  gatherHistory,
  gatherRuns,
  medianGapDays,
  type PredictionSettings,
  predictionSettings,
  predictItem,
  type QuantitySnapshot,
  SnapshotHistory,
  type SnapshotRun,
  type TimeLike,
  timeMs,
} from "./prediction.ts";
export { explainItem, type ExplainSource } from "./explain.ts";
export { KEPT_CELL_CHARS, KEPT_ROW_CELLS, keptRow } from "./tally.ts";
export { NEW_INVENTORY_SOURCE, parseInventorySource } from "./source.ts";
