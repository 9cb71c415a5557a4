/**
 * The inventory engine's entry point: one supplier file in, the seller's generated file out,
 * with the manual-process result, the flips against the last delivered run, the guard's verdict
 * and the snapshots to store. Pure: the server (manual processing, mail and SFTP runs) and the
 * CLI call it the same way; storage and delivery are theirs.
 */
import {
  type CellValue,
  type FileFormat,
  type FileLimits,
  FileRefusedError,
  fillTemplate,
  findColumn,
  gridToTable,
  readGrid,
  readTable,
  resolveLimits,
  type RowError,
  sniffContent,
  type Table,
} from "../files/mod.ts";
import { encodeBase64 } from "../base64.ts";
import {
  type ColumnInfo,
  DEFAULT_GUARD_THRESHOLD,
  failedResult,
  type InventorySource,
  type ManualProcessResult,
  type Modification,
  STATUS_ACTIVE,
  STATUS_INACTIVE,
} from "../contract/inventory.ts";
import { itemKey, parseCatalogue } from "./items.ts";
import { isActiveByQuantity } from "./rules.ts";
import {
  DAY_MS,
  gatherHistory,
  gatherRuns,
  medianGapDays,
  predictionReason,
  predictionSettings,
  predictStock,
  type QuantitySnapshot,
  type SnapshotHistory,
  type SnapshotRun,
  type TimeLike,
  timeMs,
} from "./prediction.ts";
import {
  type Flip,
  guardByIndex,
  type GuardVerdict,
  type ItemStatusEntry,
  previousByIndex,
} from "./guard.ts";
import { decodeBase64 } from "../base64.ts";
import { appendRowsToXlsx } from "./xlsx_append.ts";
import { explainItem } from "./explain.ts";
import { keptRow, supplierColumns, tallySupplierFile } from "./tally.ts";
import type { InventoryFile } from "./inventory_file.ts";
import type { ItemOutcome } from "./item_outcome.ts";
import { countText } from "../count_text.ts";

export type { InventoryFile, ItemOutcome };

/** Everything a run needs; only `source`, `supplierFile` and `now` are required. */
export interface ProcessInventoryInput {
  /** The source as `GET inventory/{id}` answers it (see parseInventorySource). */
  source: InventorySource;
  /** The stored sample file; by default `source.fileData.inventoryFileName`/`inventoryFileData`. */
  sampleFile?: InventoryFile | null;
  /** The supplier's file. */
  supplierFile: InventoryFile;
  /** Stored per-item quantities of earlier runs (only read with the predictive algorithm). */
  snapshots?: Iterable<QuantitySnapshot>;
  /** The same in the columnar form, one record per run (instead of `snapshots`, not with it). */
  snapshotRuns?: Iterable<SnapshotRun>;
  /** Times of the source's recent runs, for the typical update interval (else the snapshots' times). */
  runTimes?: readonly TimeLike[];
  /** The typical update interval in days, when the caller knows it (overrides runTimes). */
  updateIntervalDays?: number;
  /** Statuses of the last delivered run, for the flips and the guard. */
  previousStatuses?: readonly ItemStatusEntry[] | null;
  /** Overrides the source's guard threshold (share 0–1). */
  guardThreshold?: number;
  /** The run's time: the date column and the snapshots' takenAt. */
  now: Date;
  /** File caps; UPLOAD_LIMITS (10 MB) by default, FEED_LIMITS for mail and SFTP files. */
  limits?: Partial<FileLimits>;
  /** Checks the supplier file's extension against the source's file type (default true). */
  checkFileType?: boolean;
  /**
   * Keeps each catalogue item's last supplier row (bounded: tally.ts `keptRow`) in
   * `items[].row`, and the file's headers in `supplierHeaders`, for the item view. Off by
   * default: 100,000 rows are memory the manual process and the preview do not need.
   */
  keepRows?: boolean;
  /** Called at each step (for a progress display). */
  onProgress?: (step: string) => void;
}

/** Counts of a run, for logs, import runs and the CLI. */
export interface InventoryCounts {
  /** Data rows of the supplier file. */
  totalRows: number;
  /** Catalogue items written, active, inactive. */
  items: number;
  active: number;
  inactive: number;
  /** Catalogue items absent from the supplier file (written Inactive). */
  missing: number;
  decidedByStatus: number;
  predictedInactive: number;
  /** Catalogue items found on more than one row (quantities summed). */
  duplicateItems: number;
  /** Rows whose item is not in the catalogue, rows without an item number. */
  rowsNotInCatalogue: number;
  rowsWithoutItem: number;
  rowErrors: number;
}

/** The outcome of a run. A refused file gives `refused` and a failed `result`, never a throw. */
export interface InventoryOutcome {
  result: ManualProcessResult;
  /** The generated file (also in result.fileData as base64); null when refused. */
  output: { fileName: string; bytes: Uint8Array; format: FileFormat } | null;
  items: ItemOutcome[];
  flips: Flip[];
  guard: GuardVerdict;
  /** True when the guard holds the run: do not deliver until someone releases it. */
  held: boolean;
  /**
   * This run's quantities, to store for the next runs' prediction (catalogue order, items with
   * a quantity). Built on first read: a manual run never reads them.
   */
  snapshots: QuantitySnapshot[];
  /** The same as one columnar run (catalogue order, NaN where there is no quantity). */
  snapshotRun: SnapshotRun | null;
  rowErrors: RowError[];
  counts: InventoryCounts;
  /** With `keepRows`: the supplier file's headers (bounded like the rows). */
  supplierHeaders?: string[];
  /** Why the file or the configuration was refused (`code` from FileRefusedError or "config"). */
  refused: { code: string; message: string } | null;
}

/** A configuration problem that stops a run (like a refused file). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

const MAX_LOGGED_ITEMS = 100;
const MAX_ERROR_TEXTS = 1000;

const EMPTY_COUNTS: InventoryCounts = {
  totalRows: 0,
  items: 0,
  active: 0,
  inactive: 0,
  missing: 0,
  decidedByStatus: 0,
  predictedInactive: 0,
  duplicateItems: 0,
  rowsNotInCatalogue: 0,
  rowsWithoutItem: 0,
  rowErrors: 0,
};

const n = (value: number) => value.toLocaleString("en-US");

/** The extension of a file name, lower-cased, without the dot ("" when none). */
export function extensionOf(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1].toLowerCase() : "";
}

/**
 * The spec's upload check (section 5): the lowercased extension must be the source's file type.
 * Returns the message, or null when it matches or the source has no type.
 */
export function fileTypeProblem(fileType: string, fileName: string): string | null {
  const wanted = fileType.trim().replace(/^\./, "").toLowerCase();
  if (wanted === "") return null;
  const ext = extensionOf(fileName);
  if (ext === wanted) return null;
  return `Invalid file type. Expected .${wanted} but got ${ext ? "." + ext : "no extension"}`;
}

/** The sample file stored with the source, or the one given. */
function sampleOf(input: ProcessInventoryInput): InventoryFile {
  if (input.sampleFile) return input.sampleFile;
  const fd = input.source.fileData;
  if (!fd.inventoryFileData) {
    throw new ConfigError("The source has no sample inventory file to write the output into.");
  }
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(fd.inventoryFileData);
  } catch {
    throw new ConfigError("The source's sample inventory file is not valid base64.");
  }
  return { name: fd.inventoryFileName || "inventory.csv", bytes };
}

/** Checks the source's configuration; throws ConfigError naming what is missing. */
function checkConfig(source: InventorySource): void {
  const missing: string[] = [];
  if (!source.itemNumberColumnName.trim()) missing.push("the item number column");
  if (!source.qtyColumnName.trim()) missing.push("the quantity column");
  if (source.statusSupersedesQuantity && !source.itemStatusColumnName.trim()) {
    missing.push("the status column (Status Supersedes Quantity is on)");
  }
  const fd = source.fileData;
  if (!fd.itemNumberColumnName.trim()) missing.push("the generated file's item number column");
  if (!fd.itemStatusColumnName.trim()) missing.push("the generated file's item status column");
  if (!fd.itemStatusDateColumnName.trim()) {
    missing.push("the generated file's item status date column");
  }
  if (missing.length > 0) {
    throw new ConfigError(`The source is not configured: set ${missing.join(", ")}.`);
  }
  const outputColumns = [
    fd.itemNumberColumnName,
    fd.itemStatusColumnName,
    fd.itemStatusDateColumnName,
  ]
    .map((c) => c.trim().toLowerCase());
  if (new Set(outputColumns).size < 3) {
    throw new ConfigError(
      "The generated file's item number, status and date columns must be three different columns.",
    );
  }
}

/** The run date written into the date column: the UTC day of `now`. */
export function runDate(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function refusedOutcome(code: string, message: string, logs: string[]): InventoryOutcome {
  const result = failedResult(message);
  result.processingLogs = [...logs, `Refused: ${message}`];
  return {
    result,
    output: null,
    items: [],
    flips: [],
    guard: {
      flips: [],
      previouslyActive: 0,
      turnedInactive: 0,
      turnedActive: 0,
      share: 0,
      threshold: DEFAULT_GUARD_THRESHOLD,
      held: false,
      compared: false,
    },
    held: false,
    snapshots: [],
    snapshotRun: null,
    rowErrors: [],
    counts: { ...EMPTY_COUNTS },
    refused: { code, message },
  };
}

/** Rows above which an XLSX output is appended without SheetJS (see xlsx_append.ts). */
const FAST_XLSX_ROWS = 1000;

/**
 * Writes the items into the sample: fillTemplate does it (and checks the columns); for a large
 * XLSX it writes the first row only and the rest is appended to its sheet XML directly.
 */
async function writeOutput(
  sample: InventoryFile,
  fd: InventorySource["fileData"],
  items: readonly ItemOutcome[],
  date: Date,
): Promise<{ bytes: Uint8Array; format: FileFormat }> {
  const itemKeyName = fd.itemNumberColumnName.trim();
  const statusKey = fd.itemStatusColumnName.trim();
  const dateKey = fd.itemStatusDateColumnName.trim();
  const toRow = (it: ItemOutcome) => ({
    [itemKeyName]: it.itemNumber,
    [statusKey]: it.status,
    [dateKey]: date,
  });
  const options = {
    name: sample.name,
    hasHeaders: fd.fileHasHeader,
    headerRow: fd.fileHasHeader && fd.headerRowIndex ? fd.headerRowIndex : undefined,
  };
  if (items.length <= FAST_XLSX_ROWS || sniffContent(sample.bytes) !== "xlsx") {
    return await fillTemplate(sample.bytes, { ...options, rows: items.map(toRow) });
  }
  const first = await fillTemplate(sample.bytes, { ...options, rows: [toRow(items[0])] });
  if (first.format !== "xlsx") {
    return await fillTemplate(sample.bytes, { ...options, rows: items.map(toRow) });
  }
  // The columns and header row as fillTemplate resolved them in the sample.
  const grid = await readGrid(sample.bytes, { ...options, limits: { maxBytes: 50 * 2 ** 20 } });
  const table = grid.rows.length > 0
    ? gridToTable(grid, options)
    : { headers: [] as string[], headerRow: null };
  const width = Math.max(16_384, table.headers.length);
  const ref = (key: string) => /^\d+$/.test(key) ? Number(key) : key;
  const columns = [itemKeyName, statusKey, dateKey].map((k) =>
    findColumn(table.headers, ref(k), width)
  );
  const firstDataRow = (fd.fileHasHeader ? table.headerRow! : 0) + 1;
  // One reused row array: 100,000 row arrays would only feed the collector.
  const row: CellValue[] = [];
  const rows = {
    length: items.length - 1,
    width: Math.max(...columns) + 1,
    at(i: number): readonly CellValue[] {
      row[columns[0]] = items[i + 1].itemNumber;
      row[columns[1]] = items[i + 1].status;
      row[columns[2]] = date;
      return row;
    },
  };
  const bytes = await appendRowsToXlsx(first.bytes, rows, firstDataRow + 1, columns[2]);
  return { bytes, format: "xlsx" };
}

/** The quantities of a run as one snapshot per item that has one (catalogue order). */
function snapshotsOf(
  items: readonly ItemOutcome[],
  keys: readonly string[],
  takenAt: string,
): QuantitySnapshot[] {
  const out: QuantitySnapshot[] = [];
  for (let i = 0; i < items.length; i++) {
    const quantity = items[i].quantity;
    if (quantity !== null) out.push({ itemNumber: keys[i], quantity, takenAt });
  }
  return out;
}

/** A row error as one line of text. */
export function rowErrorText(e: RowError): string {
  return `Row ${e.row}${e.column ? `, ${e.column}` : ""}: ${e.message}`;
}

/** The columns found in the supplier file, for the result's columnInfo. */
function columnInfo(
  source: InventorySource,
  table: { headers: string[] } | null,
  item: number | null,
  qty: number | null,
): ColumnInfo {
  return {
    expectedItemColumn: source.itemNumberColumnName,
    itemColumnIndex: item === null ? null : item + 1,
    expectedQtyColumn: source.qtyColumnName,
    qtyColumnIndex: qty === null ? null : qty + 1,
    hasHeaders: source.fileHasHeader,
    foundHeaders: table?.headers ?? [],
  };
}

/**
 * Reads the supplier file with the source's settings and finds its item and quantity (and
 * status) columns. Shared with the debug modification.
 *
 * @throws {FileRefusedError} when the file is refused or a column is missing
 */
export async function readSupplierFile(
  source: InventorySource,
  file: InventoryFile,
  limits?: Partial<FileLimits>,
): Promise<{ table: Table; width: number; item: number; qty: number; status: number | null }> {
  const table = await readTable(file.bytes, {
    name: file.name,
    hasHeaders: source.fileHasHeader,
    limits,
  });
  let width = table.headers.length;
  for (const row of table.rows) if (row.length > width) width = row.length;
  const { item, qty, status } = supplierColumns(source, table.headers, width);
  return { table, width, item, qty, status };
}

/**
 * Processes one supplier file for an inventory source (DESIGN.md section 6, "Inventory"):
 * reads the item and quantity (and status) columns, applies the active rule, Status Supersedes
 * Quantity and the predictive rule, lists every user-activated item (missing ones Inactive),
 * compares with the last delivered statuses (flips, guard), and writes the generated file into
 * the stored sample's format. Refusals (file, columns, configuration) come back as a failed
 * result with `refused` set; only programming errors throw.
 *
 * @example
 * const outcome = await processInventory({ source, supplierFile: { name, bytes }, now: new Date() });
 * if (outcome.refused) console.error(outcome.result.message);
 * else if (!outcome.held) deliver(outcome.output!);
 */
export async function processInventory(input: ProcessInventoryInput): Promise<InventoryOutcome> {
  const { source, supplierFile, now } = input;
  const progress = input.onProgress ?? (() => {});
  const logs: string[] = [];
  const nowMs = now.getTime();
  let sample: InventoryFile;
  try {
    checkConfig(source);
    sample = sampleOf(input);
  } catch (e) {
    if (e instanceof ConfigError) return refusedOutcome("config", e.message, logs);
    throw e;
  }
  if (input.checkFileType !== false) {
    const problem = fileTypeProblem(source.fileType, supplierFile.name);
    if (problem) return refusedOutcome("wrong_type", problem, logs);
  }

  // 1. The catalogue: every user-activated item is written.
  const strip = source.stripLeadingZeroes;
  const key = (s: string) => itemKey(s, strip);
  const {
    items: catalogue,
    keys: catalogueKeys,
    indexOf,
  } = parseCatalogue(source.fileData.userActivatedItemNumbers, strip);
  const size = catalogue.length;

  // 2. Prediction history, gathered before the file is read: the snapshots' garbage is then
  // collected while the heap is small, and the read's rows are not kept waiting.
  const predictive = source.usesPredictiveAlgorithm;
  const settings = predictionSettings(source);
  let history: SnapshotHistory | null = null;
  let intervalDays = 1;
  const predictionIntro: string[] = [];
  const limits = resolveLimits(input.limits);
  const hopeless = supplierFile.bytes.length === 0 || supplierFile.bytes.length > limits.maxBytes;
  if (predictive && !hopeless) {
    progress("predicting");
    if (input.snapshots && input.snapshotRuns) {
      throw new TypeError("Give snapshots or snapshotRuns, not both");
    }
    const from = nowMs - settings.lookbackDays * DAY_MS;
    history = input.snapshotRuns
      ? gatherRuns(input.snapshotRuns, indexOf, key, from, nowMs, size)
      : gatherHistory(input.snapshots ?? [], indexOf, key, from, nowMs, size);
    intervalDays = input.updateIntervalDays !== undefined
      ? Math.max(1, input.updateIntervalDays)
      : input.runTimes
      ? medianGapDays([...input.runTimes.map(timeMs), nowMs])
      : medianGapDays([...history.runTimes, nowMs]);
    predictionIntro.push(
      `Prediction on: ${settings.lookbackDays}-day lookback, at least ${settings.minDataPoints} data points, typical update interval ${
        Number.isInteger(intervalDays) ? intervalDays : intervalDays.toFixed(2)
      } day${intervalDays === 1 ? "" : "s"} (median gap between recent runs), ${
        countText(history.runTimes.size, "earlier run")
      } in the window.`,
    );
  }

  const previous = previousByIndex(input.previousStatuses, indexOf, key);

  // 3 and 4. Read the supplier file, summing quantities per catalogue item and noting status
  // verdicts row by row (the rows are not kept: tally.ts).
  progress("reading");
  let tallied: Awaited<ReturnType<typeof tallySupplierFile>>;
  try {
    tallied = await tallySupplierFile(
      source,
      supplierFile,
      input.limits,
      indexOf,
      key,
      input.keepRows === true,
    );
  } catch (e) {
    if (e instanceof FileRefusedError) return refusedOutcome(e.code, e.message, logs);
    throw e;
  }
  const { read: table, columns, tally } = tallied;
  const { item: itemCol, qty: qtyCol, status: statusCol } = columns;
  const { qtySum, qtyRows, rowsSeen, verdicts, lastRow } = tally;
  const totalRows = table.rowCount;
  const label = (c: number) => table.headers[c] ? `"${table.headers[c]}"` : `${c + 1}`;
  logs.push(
    `Read "${supplierFile.name}": ${table.format.toUpperCase()}${
      table.sheet ? `, sheet "${table.sheet}"` : ""
    }, ${countText(totalRows, "data row")}${
      table.headerRow ? `, header in row ${table.headerRow}` : ", no header row"
    }.`,
  );
  logs.push(
    `Columns: item ${label(itemCol)}, quantity ${label(qtyCol)}${
      statusCol !== null ? `, status ${label(statusCol)}` : ""
    }${source.stripLeadingZeroes ? "; leading zeros stripped from item numbers" : ""}.`,
  );
  logs.push(...predictionIntro);
  progress("applying rules");
  // The file's own row errors, then the quantities', in row order (a stable sort).
  const rowErrors: RowError[] = [...table.errors, ...tally.quantityErrors];
  rowErrors.sort((a, b) => a.row - b.row);
  const counts: InventoryCounts = {
    ...EMPTY_COUNTS,
    totalRows,
    rowsWithoutItem: tally.rowsWithoutItem,
    rowsNotInCatalogue: tally.rowsNotInCatalogue,
  };
  const skippedForQuantity = tally.skippedForQuantity;

  // 5. Decide every catalogue item.
  const items: ItemOutcome[] = new Array(size);
  const modifications: Modification[] = [];
  const takenAt = now.toISOString();
  const missingLogged: string[] = [];
  const predictionLogged: string[] = [];
  for (let i = 0; i < size; i++) {
    const itemNumber = catalogue[i];
    if (rowsSeen[i] > 1) counts.duplicateItems++;
    if (rowsSeen[i] === 0) {
      counts.missing++;
      if (missingLogged.length < MAX_LOGGED_ITEMS) missingLogged.push(itemNumber);
      items[i] = {
        itemNumber,
        status: STATUS_INACTIVE,
        quantity: null,
        found: false,
        decidedBy: "missing",
      };
      continue;
    }
    const quantity = qtyRows[i] > 0 ? qtySum[i] : null;
    if (verdicts[i] !== 0) {
      counts.decidedByStatus++;
      const status = verdicts[i] === 1 ? STATUS_ACTIVE : STATUS_INACTIVE;
      items[i] = { itemNumber, status, quantity, found: true, decidedBy: "status" };
      continue;
    }
    if (quantity === null) {
      items[i] = {
        itemNumber,
        status: STATUS_INACTIVE,
        quantity,
        found: true,
        decidedBy: "no quantity",
      };
      continue;
    }
    let active = isActiveByQuantity(quantity, source.minItemsToBeActive);
    let decidedBy: ItemOutcome["decidedBy"] = "quantity";
    if (active && history) {
      // The sentence only for the few made inactive: 100,000 of them would be garbage.
      const p = predictStock(history, i, quantity, nowMs, intervalDays, settings);
      if (p.belowRequired) {
        active = false;
        decidedBy = "prediction";
        counts.predictedInactive++;
        const reason = `${predictionReason(p, quantity, intervalDays, settings)}: made Inactive`;
        modifications.push({
          rowIndex: lastRow[i],
          itemNumber,
          originalQuantity: quantity,
          newQuantity: 0,
          reason,
        });
        if (predictionLogged.length < MAX_LOGGED_ITEMS) {
          predictionLogged.push(`Item ${itemNumber}: ${reason}.`);
        }
      }
    }
    items[i] = {
      itemNumber,
      status: active ? STATUS_ACTIVE : STATUS_INACTIVE,
      quantity,
      found: true,
      decidedBy,
    };
  }
  for (const it of items) {
    if (it.status === STATUS_ACTIVE) counts.active++;
    else counts.inactive++;
  }
  if (input.keepRows) {
    const predicted = new Map(modifications.map((m) => [m.itemNumber, m.reason]));
    for (let i = 0; i < size; i++) {
      const row = tally.rows[i];
      if (row) {
        items[i].row = row;
        items[i].rowNumber = lastRow[i];
      }
      const it = items[i];
      const cell = statusCol !== null ? row?.[statusCol] : undefined;
      it.reason = explainItem(it, source, cell, predicted.get(it.itemNumber));
    }
  }
  counts.items = size;
  counts.rowErrors = rowErrors.length;

  logs.push(
    `Catalogue: ${countText(size, "user-activated item")}; ${
      n(size - counts.missing)
    } found in the file, ${n(counts.missing)} missing (written Inactive).`,
  );
  if (counts.missing > 0) {
    logs.push(
      `Missing from the file: ${missingLogged.join(", ")}${
        counts.missing > missingLogged.length
          ? `, and ${n(counts.missing - missingLogged.length)} more`
          : ""
      }.`,
    );
  }
  if (counts.rowsNotInCatalogue > 0) {
    logs.push(
      `${countText(counts.rowsNotInCatalogue, "row")} for items not in the catalogue ignored.`,
    );
  }
  if (counts.rowsWithoutItem > 0) {
    logs.push(`${countText(counts.rowsWithoutItem, "row")} without an item number skipped.`);
  }
  if (counts.duplicateItems > 0) {
    logs.push(
      `${
        countText(counts.duplicateItems, "item")
      } on more than one row: their quantities were summed.`,
    );
  }
  if (rowErrors.length > 0) {
    logs.push(
      `${
        countText(rowErrors.length, "row error")
      } (listed in errors); the other rows were processed.`,
    );
  }
  if (statusCol !== null) {
    logs.push(
      `Status supersedes quantity: ${countText(counts.decidedByStatus, "item")} decided by status.`,
    );
  }
  if (history) {
    logs.push(`Prediction made ${countText(counts.predictedInactive, "item")} Inactive.`);
    logs.push(...predictionLogged);
    if (counts.predictedInactive > predictionLogged.length) {
      logs.push(
        `… and ${n(counts.predictedInactive - predictionLogged.length)} more (see modifications).`,
      );
    }
  }
  logs.push(
    `Result: ${countText(size, "item")}, ${n(counts.active)} Active, ${
      n(counts.inactive)
    } Inactive.`,
  );

  // 6. The guard against the last delivered run.
  const threshold = input.guardThreshold ?? source.guardThreshold ?? DEFAULT_GUARD_THRESHOLD;
  const verdict = guardByIndex(items, previous, threshold);
  if (verdict.compared) {
    const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
    logs.push(
      `Against the last delivered run: ${countText(verdict.flips.length, "item")} change status (${
        n(verdict.turnedInactive)
      } to Inactive, ${n(verdict.turnedActive)} to Active); ${n(verdict.turnedInactive)} of ${
        n(verdict.previouslyActive)
      } previously active items turn inactive (${pct(verdict.share)}, threshold ${
        pct(threshold)
      }).`,
    );
    if (verdict.held) {
      logs.push(
        "Held: more than the threshold of the previously active items would turn inactive; the file is not delivered until someone releases the run.",
      );
    }
  } else {
    logs.push("No earlier delivered run to compare with: nothing is held.");
  }

  // 7. The generated file, in the sample's format.
  progress("writing");
  const fd = source.fileData;
  const date = runDate(now);
  let filled;
  try {
    filled = await writeOutput(sample, fd, items, date);
  } catch (e) {
    if (e instanceof FileRefusedError) {
      return refusedOutcome(e.code, `The sample inventory file cannot be used: ${e.message}`, logs);
    }
    throw e;
  }
  const rowsWritten = items.length;
  const fileName = sample.name || `inventory.${filled.format}`;
  logs.push(
    `Wrote "${fileName}" (${filled.format.toUpperCase()}, ${countText(rowsWritten, "row")}${
      fd.fileHasHeader
        ? `, header row ${fd.headerRowIndex || "as in the sample"}`
        : ", no header row"
    }, date ${date.toISOString().slice(0, 10)}).`,
  );
  progress("done");

  const errorTexts = rowErrors.slice(0, MAX_ERROR_TEXTS).map(rowErrorText);
  if (rowErrors.length > MAX_ERROR_TEXTS) {
    errorTexts.push(`… and ${n(rowErrors.length - MAX_ERROR_TEXTS)} more row errors`);
  }
  const processedRows = totalRows - counts.rowsWithoutItem - skippedForQuantity;
  const result: ManualProcessResult = {
    success: true,
    message: `Processed ${countText(size, "item")}: ${n(counts.active)} Active, ${
      n(counts.inactive)
    } Inactive${counts.missing ? ` (${n(counts.missing)} missing from the file)` : ""}${
      verdict.held ? ". Held by the guard: not delivered until released" : ""
    }.`,
    errors: errorTexts,
    processedCount: size,
    activeCount: counts.active,
    inactiveCount: counts.inactive,
    processingLogs: logs,
    fileName,
    fileData: encodeBase64(filled.bytes),
    isDebugResult: false,
    debugLogs: [],
    modificationsCount: modifications.length,
    columnInfo: columnInfo(source, table, itemCol, qtyCol),
    processingSummary: {
      totalRows,
      processedRows,
      skippedRows: totalRows - processedRows,
      activeItemsFound: counts.active,
      itemsModified: modifications.length,
      modifications,
    },
  };
  let snapshots: QuantitySnapshot[] | undefined;
  return {
    result,
    output: { fileName, bytes: filled.bytes, format: filled.format },
    items,
    flips: verdict.flips,
    guard: verdict,
    held: verdict.held,
    // 100,000 objects (about 6 MB) that the manual process never reads: made when asked for.
    get snapshots() {
      return snapshots ??= snapshotsOf(items, catalogueKeys, takenAt);
    },
    snapshotRun: {
      takenAt,
      itemNumbers: catalogueKeys,
      quantities: Float64Array.from(items, (it) => it.quantity ?? NaN),
    },
    rowErrors,
    counts,
    supplierHeaders: input.keepRows ? keptRow(table.headers) : undefined,
    refused: null,
  };
}
