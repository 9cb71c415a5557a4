/**
 * The item view (issue 23, docs/inventory.md "Items"): every catalogue item as the last
 * processed run left it (inventory_items), what each run changed (inventory_item_changes), and
 * one item's history. The engine decides and words the rules (shared/inventory); this stores
 * and reads its outcome.
 */
import type { Db } from "../db/client.ts";
import { conditions } from "../db/conditions.ts";
import { notFound } from "../db/errors.ts";
import {
  DAY_MS,
  gatherHistory,
  type InventoryOutcome,
  medianGapDays,
  predictionSettings,
  predictItem,
  timeMs,
} from "../../shared/inventory/mod.ts";
import type { InventorySource } from "../../shared/contract/inventory.ts";
import type {
  InventoryItem,
  ItemChange,
  ItemDetail,
  ItemListFilters,
  ItemListPage,
  LastItemRun,
  RunItemChangesPage,
} from "../../shared/contract/inventory_items.ts";

const MAX_ITEM_CHARS = 4000;
/** Points of the item page's chart (the latest). */
const HISTORY_POINTS = 400;

/** Items written per transaction: a short turn on PGlite's one connection. */
const ITEM_BATCH = 1000;

/**
 * Stores a processed run's items and changes after the run has committed: every catalogue
 * item's quantity, rule, reason and raw row, the run's flips with their reasons, and the
 * supplier file's headers; items that left the catalogue are removed. Each batch of
 * `ITEM_BATCH` items is its own background transaction, so other users' statements go between
 * them (docs/inventory.md, "Cost of storing a run's items"); the last one writes the changes.
 */
export async function storeRunItems(
  db: Db,
  sourceId: number,
  runId: number,
  receivedAt: Date,
  outcome: Pick<InventoryOutcome, "items" | "flips" | "snapshotRun" | "supplierHeaders">,
): Promise<void> {
  const keys = outcome.snapshotRun?.itemNumbers ?? [];
  const items = outcome.items;
  const flipped = new Set(outcome.flips.map((f) => f.itemNumber));
  const all: number[] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i].itemNumber.length <= MAX_ITEM_CHARS) all.push(i);
  }
  const at = receivedAt.toISOString();
  for (let start = 0; start < all.length; start += ITEM_BATCH) {
    const kept = all.slice(start, start + ITEM_BATCH);
    await db.transaction((tx) => upsertItems(tx, sourceId, runId, at, kept, keys, items, flipped), {
      background: true,
    });
  }
  await db.transaction(
    (tx) => finishRunItems(tx, sourceId, runId, outcome, all, items),
    { background: true },
  );
}

/** Upserts the items at indexes `kept` (one batch of {@link storeRunItems}). */
async function upsertItems(
  tx: Db,
  sourceId: number,
  runId: number,
  at: string,
  kept: number[],
  keys: readonly string[],
  items: InventoryOutcome["items"],
  flipped: Set<string>,
): Promise<void> {
  await tx.query(
    `insert into inventory_items (inventory_source_id, item_number, item_key, position, quantity,
       status, delivered_status, decided_by, reason, row_number, raw_row, last_run_id,
       changed_run_id, changed_at)
     select $1, t.item, t.key, t.pos, t.qty, t.status, d.status, t.decided, t.reason, t.rn,
            t.raw::jsonb, $2, case when t.flipped = 1 then $2::bigint end,
            case when t.flipped = 1 then $3::timestamptz end
       from unnest($4::text[], $5::text[], $6::int[], $7::float8[], $8::text[], $9::text[],
                   $10::text[], $11::int[], $12::text[], $13::int[])
            as t(item, key, pos, qty, status, decided, reason, rn, raw, flipped)
       left join inventory_delivered_statuses d
         on d.inventory_source_id = $1 and d.item_number = t.item
     on conflict (inventory_source_id, item_number) do update set
       item_key = excluded.item_key, position = excluded.position, quantity = excluded.quantity,
       status = excluded.status, delivered_status = excluded.delivered_status,
       decided_by = excluded.decided_by, reason = excluded.reason,
       row_number = excluded.row_number, raw_row = excluded.raw_row,
       last_run_id = excluded.last_run_id,
       changed_run_id = coalesce(excluded.changed_run_id, inventory_items.changed_run_id),
       changed_at = coalesce(excluded.changed_at, inventory_items.changed_at)
     -- An unchanged item is not rewritten (docs/inventory.md, "Cost of storing a run's items").
     where excluded.changed_run_id is not null
        or (inventory_items.item_key, inventory_items.position, inventory_items.quantity,
            inventory_items.status, inventory_items.delivered_status, inventory_items.decided_by,
            inventory_items.reason, inventory_items.row_number, inventory_items.raw_row)
           is distinct from
           (excluded.item_key, excluded.position, excluded.quantity, excluded.status,
            excluded.delivered_status, excluded.decided_by, excluded.reason, excluded.row_number,
            excluded.raw_row)`,
    [
      sourceId,
      runId,
      at,
      kept.map((i) => items[i].itemNumber),
      kept.map((i) => keys[i] ?? items[i].itemNumber),
      kept,
      kept.map((i) => items[i].quantity),
      kept.map((i) => items[i].status),
      kept.map((i) => items[i].decidedBy),
      kept.map((i) => items[i].reason ?? ""),
      kept.map((i) => items[i].rowNumber ?? null),
      kept.map((i) => (items[i].row ? JSON.stringify(items[i].row) : null)),
      // 0/1: postgres.js sends a boolean array as one boolean.
      kept.map((i) => (flipped.has(items[i].itemNumber) ? 1 : 0)),
    ],
  );
}

/** The last step of {@link storeRunItems}: departed items, the run's changes, its headers. */
async function finishRunItems(
  tx: Db,
  sourceId: number,
  runId: number,
  outcome: Pick<InventoryOutcome, "flips" | "supplierHeaders">,
  kept: number[],
  items: InventoryOutcome["items"],
): Promise<void> {
  // Items that left the catalogue: only looked for when there are more rows than items.
  const [{ n }] = await tx.query<{ n: number }>(
    "select count(*)::int as n from inventory_items where inventory_source_id = $1",
    [sourceId],
  );
  if (n > kept.length) {
    await tx.query(
      `delete from inventory_items i where i.inventory_source_id = $1
          and not exists (select 1 from unnest($2::text[]) k(item) where k.item = i.item_number)`,
      [sourceId, kept.map((i) => items[i].itemNumber)],
    );
  }
  const byNumber = new Map(kept.map((i) => [items[i].itemNumber, items[i]]));
  const flips = outcome.flips.filter((f) => byNumber.has(f.itemNumber));
  if (flips.length > 0) {
    const item = (f: { itemNumber: string }) => byNumber.get(f.itemNumber)!;
    await tx.query(
      `insert into inventory_item_changes (import_run_id, inventory_source_id, item_number,
         from_status, to_status, decided_by, reason, quantity)
       select $1, $2, t.item, t.f, t.t, t.decided, t.reason, t.qty
         from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[])
              as t(item, f, t, decided, reason, qty)
       on conflict (import_run_id, item_number) do update set from_status = excluded.from_status,
         to_status = excluded.to_status, decided_by = excluded.decided_by,
         reason = excluded.reason, quantity = excluded.quantity`,
      [
        runId,
        sourceId,
        flips.map((f) => f.itemNumber),
        flips.map((f) => f.from),
        flips.map((f) => f.to),
        flips.map((f) => item(f).decidedBy),
        flips.map((f) => item(f).reason ?? ""),
        flips.map((f) => item(f).quantity),
      ],
    );
  }
  await tx.query(
    `update inventory_runs set supplier_headers = $2::text::jsonb where import_run_id = $1`,
    [runId, JSON.stringify(outcome.supplierHeaders ?? [])],
  );
}

/** After a delivery: the delivered statuses are now the items' "status in the last feed". */
export async function markItemsDelivered(tx: Db, sourceId: number): Promise<void> {
  await tx.query(
    `update inventory_items i set delivered_status = d.status
       from inventory_delivered_statuses d
      where i.inventory_source_id = $1 and d.inventory_source_id = $1
        and d.item_number = i.item_number and i.delivered_status is distinct from d.status`,
    [sourceId],
  );
}

/** The source's name and prediction settings (not its catalogue or sample: too big to load). */
type ItemSource =
  & Pick<InventorySource, "id" | "sourceName" | "usesPredictiveAlgorithm">
  & Parameters<typeof predictionSettings>[0];

/**
 * The source and its last processed run (the one its items show; null before the first), with
 * that run's supplier headers, in one statement: on PGlite every statement is a turn.
 */
async function sourceAndRun(
  db: Db,
  sourceId: number,
): Promise<{ source: ItemSource; last: LastItemRun | null; headers: string[] }> {
  const [row] = await db.query<
    ItemSource & {
      runId: number | null;
      receivedAt: Date | null;
      status: string | null;
      deliveryStatus: string | null;
      headers: string[] | null;
    }
  >(
    `select s.id, s.source_name as "sourceName",
            s.uses_predictive_algorithm as "usesPredictiveAlgorithm",
            s.lookback_days as "lookbackDays", s.min_data_points as "minDataPoints",
            s.safety_multiplier as "safetyMultiplier", s.safety_padding as "safetyPadding",
            s.large_drop_threshold as "largeDropThreshold",
            s.large_drop_multiplier as "largeDropMultiplier",
            r.id as "runId", r.received_at as "receivedAt", r.status,
            ir.delivery_status as "deliveryStatus", ir.supplier_headers as headers
       from inventory_sources s
       -- the last run that stored its items (storeRunItems sets its headers)
       left join lateral (select import_run_id as last_run_id from inventory_runs
                           where inventory_source_id = s.id and supplier_headers is not null
                           order by created_at desc, import_run_id desc limit 1) i on true
       left join import_runs r on r.id = i.last_run_id
       left join inventory_runs ir on ir.import_run_id = r.id
      where s.id = $1 and not s.deleted_status`,
    [sourceId],
  );
  if (!row) throw notFound(`Inventory source ${sourceId}`);
  const { runId, receivedAt, status, deliveryStatus, headers, ...source } = row;
  const last = runId === null || !receivedAt ? null : {
    runId: Number(runId),
    receivedAt: new Date(receivedAt).toISOString(),
    status: status ?? "",
    deliveryStatus,
    held: deliveryStatus === "held",
  };
  return { source, last, headers: headers ?? [] };
}

const SORT_SQL: Record<string, string> = {
  itemNumber: "item_number",
  quantity: "quantity",
  status: "coalesce(delivered_status, status)",
  changedAt: "changed_at",
  position: "position",
};

/** The item columns of the list and the detail, named as the contract spells them. */
const ITEM_COLUMNS = `item_number as "itemNumber", quantity, delivered_status as "deliveredStatus",
  status as "runStatus", decided_by as "decidedBy", reason, changed_at as "changedAt",
  changed_run_id as "changedRunId"`;

interface ItemRow extends Omit<InventoryItem, "changedAt" | "heldChange" | "changedInLastRun"> {
  changedAt: Date | null;
}

function toItem(row: ItemRow, last: LastItemRun | null): InventoryItem {
  const changedInLastRun = last !== null && row.changedRunId === last.runId;
  return {
    ...row,
    changedRunId: row.changedRunId === null ? null : Number(row.changedRunId),
    changedAt: row.changedAt ? new Date(row.changedAt).toISOString() : null,
    changedInLastRun,
    heldChange: last?.held === true && changedInLastRun,
  };
}

/**
 * One page of a source's catalogue items: search (part of the item number), filters (inactive,
 * changed in the last run, missing from the file), sort and page.
 */
export async function listItems(
  db: Db,
  sourceId: number,
  query: ItemListFilters,
): Promise<ItemListPage> {
  const { source, last } = await sourceAndRun(db, sourceId);
  const q = (query.q ?? "").trim().toLowerCase();
  const where = conditions();
  where.add("inventory_source_id = ?", sourceId);
  // ilike with the wildcards escaped: the trigram index answers it (migration 0025).
  if (q) where.add("item_number ilike ?", `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`);
  if (query.inactive) where.addText(`coalesce(delivered_status, status) = 'Inactive'`);
  if (query.missing) where.addText(`decided_by = 'missing'`);
  if (query.changed) where.add("changed_run_id = ?", last?.runId ?? 0);
  const dir = query.dir === "desc" ? "desc" : "asc";
  // Nulls (no quantity, never changed) are the lowest: first ascending, last descending, as
  // the indexes hold them; the item number breaks ties.
  const nulls = dir === "asc" ? "first" : "last";
  const order = `${
    SORT_SQL[query.sort] ?? "item_number"
  } ${dir} nulls ${nulls}, item_number ${dir}`;
  const pageSize = query.pageSize;
  const offset = (query.page - 1) * pageSize;
  const filter = where.where();
  const [rows, [count]] = await Promise.all([
    db.query<ItemRow>(
      `select ${ITEM_COLUMNS} from inventory_items ${filter}
        order by ${order} limit ${pageSize} offset ${offset}`,
      where.params,
    ),
    db.query<{ n: number }>(
      `select count(*)::int as n from inventory_items ${filter}`,
      where.params,
    ),
  ]);
  return {
    sourceId,
    sourceName: source.sourceName,
    items: rows.map((r) => toItem(r, last)),
    total: count.n,
    page: query.page,
    pageSize,
    lastRun: last,
  };
}

interface ChangeRow extends Omit<ItemChange, "receivedAt"> {
  receivedAt: Date;
}

const toChange = (r: ChangeRow): ItemChange => ({
  ...r,
  runId: Number(r.runId),
  receivedAt: new Date(r.receivedAt).toISOString(),
});

/**
 * One item: its quantity over time, the runs that turned it, the raw row of the last supplier
 * file, and — for a predicting source — the prediction's figures at the last run, recomputed
 * with the engine's predictItem over the snapshots the run saw.
 */
export async function itemDetail(
  db: Db,
  sourceId: number,
  itemNumber: string,
): Promise<ItemDetail> {
  const [{ source, last, headers: names }, [row]] = await Promise.all([
    sourceAndRun(db, sourceId),
    db.query<ItemRow & { key: string; rowNumber: number | null; rawRow: string[] | null }>(
      `select ${ITEM_COLUMNS}, item_key as key, row_number as "rowNumber", raw_row as "rawRow"
         from inventory_items where inventory_source_id = $1 and item_number = $2`,
      [sourceId, itemNumber],
    ),
  ]);
  if (!row || !last) throw notFound(`Item ${itemNumber} of inventory source ${sourceId}`);
  const [history, changes] = await Promise.all([
    db.query<{ takenAt: Date; quantity: number; runId: number }>(
      `select * from (select taken_at as "takenAt", quantity, import_run_id as "runId"
         from inventory_item_snapshots where inventory_source_id = $1 and item_number = $2
        order by taken_at desc limit ${HISTORY_POINTS}) h order by "takenAt"`,
      [sourceId, row.key],
    ),
    db.query<ChangeRow>(
      `select c.import_run_id as "runId", r.received_at as "receivedAt",
              c.item_number as "itemNumber", c.from_status as "from", c.to_status as "to",
              c.decided_by as "decidedBy", c.reason, c.quantity
         from inventory_item_changes c join import_runs r on r.id = c.import_run_id
        where c.inventory_source_id = $1 and c.item_number = $2
        order by c.import_run_id desc limit 100`,
      [sourceId, itemNumber],
    ),
  ]);
  const rawRow = row.rawRow
    ? {
      rowNumber: row.rowNumber,
      cells: row.rawRow.map((value, c) => ({ header: names[c] || `Column ${c + 1}`, value })),
    }
    : null;
  const { key: _key, rowNumber: _rowNumber, rawRow: _raw, ...itemRow } = row;
  return {
    sourceId,
    sourceName: source.sourceName,
    item: toItem(itemRow, last),
    lastRun: last,
    history: history.map((h) => ({
      takenAt: new Date(h.takenAt).toISOString(),
      quantity: h.quantity,
      runId: Number(h.runId),
    })),
    changes: changes.map(toChange),
    rawRow,
    prediction: source.usesPredictiveAlgorithm && row.quantity !== null
      ? await predictionAt(db, source, row.key, row.quantity, last, history)
      : null,
  };
}

/**
 * The engine's prediction for one item at the last run: the item's snapshots in the lookback
 * window before the run, the typical update interval from the source's runs in that window.
 */
async function predictionAt(
  db: Db,
  source: ItemSource,
  key: string,
  quantity: number,
  last: LastItemRun,
  recent: { takenAt: Date; quantity: number }[],
): Promise<ItemDetail["prediction"]> {
  const settings = predictionSettings(source);
  const nowMs = timeMs(last.receivedAt);
  const fromMs = nowMs - settings.lookbackDays * DAY_MS;
  const range = [new Date(fromMs).toISOString(), last.receivedAt];
  // The chart's snapshots cover the window unless they were cut at HISTORY_POINTS.
  const covered = recent.length < HISTORY_POINTS || timeMs(recent[0].takenAt) < fromMs;
  const [snapshots, runs] = await Promise.all([
    covered
      ? recent.map((s) => ({ itemNumber: key, quantity: s.quantity, takenAt: s.takenAt }))
      : db.query<{ itemNumber: string; quantity: number; takenAt: Date }>(
        `select item_number as "itemNumber", quantity, taken_at as "takenAt"
           from inventory_item_snapshots
          where inventory_source_id = $1 and item_number = $2
            and taken_at >= $3::timestamptz and taken_at < $4::timestamptz
          order by taken_at`,
        [source.id, key, ...range],
      ),
    // The engine takes the interval from the distinct snapshot times in the window: the times
    // of the runs that stored snapshots.
    db.query<{ at: Date }>(
      `select distinct r.received_at as at
         from inventory_runs ir join import_runs r on r.id = ir.import_run_id
        where ir.inventory_source_id = $1
          and r.received_at >= $2::timestamptz and r.received_at < $3::timestamptz
          and exists (select 1 from inventory_item_snapshots s
                       where s.import_run_id = ir.import_run_id)`,
      [source.id, ...range],
    ),
  ]);
  const history = gatherHistory(snapshots, new Map([[key, 0]]), (k) => k, fromMs, nowMs, 1);
  const intervalDays = medianGapDays([...runs.map((r) => timeMs(r.at)), nowMs]);
  const p = predictItem(history, 0, quantity, nowMs, intervalDays, settings);
  return {
    dataPoints: p.dataPoints,
    dailyRate: p.dailyRate,
    expectedSales: p.expectedSales,
    requiredStock: p.requiredStock,
    largeDrop: p.largeDrop,
    belowRequired: p.belowRequired,
    intervalDays,
    reason: p.reason,
  };
}

/**
 * What a run changed: the items it turned Active and Inactive with the rule that decided each
 * (Inactive first, then by item number), a page at a time. Runs processed before the item view
 * existed answer their stored flips without reasons.
 */
export async function runChanges(
  db: Db,
  runId: number,
  page: { page: number; pageSize: number },
): Promise<RunItemChangesPage> {
  const [run] = await db.query<{
    sourceId: number;
    status: string;
    deliveryStatus: string | null;
    receivedAt: Date;
    flips: { itemNumber: string; from: "Active" | "Inactive"; to: "Active" | "Inactive" }[];
  }>(
    `select ir.inventory_source_id as "sourceId", r.status, ir.delivery_status as "deliveryStatus",
            r.received_at as "receivedAt",
            case when exists (select 1 from inventory_item_changes c where c.import_run_id = $1)
                 then '[]'::jsonb else ir.flips end as flips
       from inventory_runs ir join import_runs r on r.id = ir.import_run_id
      where ir.import_run_id = $1`,
    [runId],
  );
  if (!run) throw notFound(`Inventory run ${runId}`);
  const { pageSize } = page;
  const offset = (page.page - 1) * pageSize;
  let changes: ItemChange[];
  let turnedActive: number;
  let turnedInactive: number;
  if (run.flips.length > 0) {
    const sorted = [...run.flips].sort((a, b) =>
      a.to === b.to ? (a.itemNumber < b.itemNumber ? -1 : 1) : a.to === "Inactive" ? -1 : 1
    );
    turnedActive = sorted.filter((f) => f.to === "Active").length;
    turnedInactive = sorted.length - turnedActive;
    const receivedAt = new Date(run.receivedAt).toISOString();
    changes = sorted.slice(offset, offset + pageSize).map((f) => ({
      runId,
      receivedAt,
      itemNumber: f.itemNumber,
      from: f.from,
      to: f.to,
      decidedBy: null,
      reason: null,
      quantity: null,
    }));
  } else {
    const [rows, counts] = await Promise.all([
      db.query<ChangeRow>(
        `select c.import_run_id as "runId", $2::timestamptz as "receivedAt",
                c.item_number as "itemNumber", c.from_status as "from", c.to_status as "to",
                c.decided_by as "decidedBy", c.reason, c.quantity
           from inventory_item_changes c where c.import_run_id = $1
          order by c.to_status desc, c.item_number limit ${pageSize} offset ${offset}`,
        [runId, new Date(run.receivedAt).toISOString()],
      ),
      db.query<{ to: string; n: number }>(
        `select to_status as "to", count(*)::int as n from inventory_item_changes
          where import_run_id = $1 group by to_status`,
        [runId],
      ),
    ]);
    changes = rows.map(toChange);
    turnedActive = counts.find((c) => c.to === "Active")?.n ?? 0;
    turnedInactive = counts.find((c) => c.to === "Inactive")?.n ?? 0;
  }
  return {
    runId,
    sourceId: run.sourceId,
    status: run.status,
    deliveryStatus: run.deliveryStatus,
    turnedActive,
    turnedInactive,
    changes,
    page: page.page,
    pageSize,
  };
}
