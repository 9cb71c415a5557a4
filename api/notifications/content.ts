/**
 * Loading the data of a notification's window (docs/notifications.md, "Content"): the import runs
 * of the setting's source (or of every source of its type) and, per source type, what that feed
 * records. One loader per source type; every list is bounded by the window and LOADER_LIMIT.
 */
import type { Db } from "../db/client.ts";
import type { SourceTypeId } from "../../shared/contract/notifications.ts";
import type {
  FeedWarning,
  ImportRunRecord,
  ItemStatusChange,
  NotificationData,
  OrderChange,
  QuantityChange,
  VendorSending,
  ZeroQuantityItem,
} from "../../shared/notifications/render.ts";
import type { DataWindow } from "../../shared/notifications/schedule.ts";
import { sourceNames } from "./queries.ts";

/** The import-run feed of each source type (OrderVendor sendings are not import runs). */
export const FEED_OF_TYPE: Record<SourceTypeId, string | null> = {
  1: "inventory",
  2: "order-submission",
  3: "order-tracking",
  4: null,
};

/** What a loader needs to know about the setting. */
export interface LoadScope {
  sourceTypeId: SourceTypeId;
  /** null: every source of the type. */
  sourceId: number | null;
  window: DataWindow;
}

/** The import runs of the scope's feed and source finished (or, when queued, received) in the window. */
export async function loadImportRuns(db: Db, scope: LoadScope): Promise<ImportRunRecord[]> {
  const feed = FEED_OF_TYPE[scope.sourceTypeId];
  if (!feed) return [];
  const rows = await db.query<{
    id: number;
    sourceId: number;
    status: ImportRunRecord["status"];
    fileName: string;
    finishedAt: Date | string | null;
    counts: Record<string, number> | string;
    rowErrors: unknown;
    error: string | null;
  }>(
    `select id, source_id as "sourceId", status, file_name as "fileName",
            finished_at as "finishedAt", counts, row_errors as "rowErrors", error
       from import_runs
      where feed = $1 and ($2::int is null or source_id = $2)
        and coalesce(finished_at, received_at) >= $3 and coalesce(finished_at, received_at) < $4
      order by coalesce(finished_at, received_at), id`,
    [feed, scope.sourceId, scope.window.from.toISOString(), scope.window.to.toISOString()],
  );
  const names = await sourceNames(db, scope.sourceTypeId, true);
  return rows.map((row) => {
    const counts = typeof row.counts === "string" ? JSON.parse(row.counts) : row.counts;
    const rowErrors = typeof row.rowErrors === "string" ? JSON.parse(row.rowErrors) : row.rowErrors;
    const errors = [
      ...(row.error ? [row.error] : []),
      ...(Array.isArray(rowErrors) ? rowErrors.map(rowErrorText) : []),
    ];
    return {
      id: row.id,
      sourceName: names.get(row.sourceId) ?? `Source ${row.sourceId}`,
      status: row.status,
      fileName: row.fileName,
      finishedAt: row.finishedAt,
      counts: Object.fromEntries(
        Object.entries(counts ?? {}).filter(([, value]) => typeof value === "number"),
      ) as Record<string, number>,
      errors,
    };
  });
}

function rowErrorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error && typeof error === "object") {
    const { row, message } = error as { row?: unknown; message?: unknown };
    if (message) return row != null ? `Row ${row}: ${message}` : String(message);
  }
  return JSON.stringify(error);
}

/** Order tracking: orders created, changed or deleted in the window. */
export async function loadOrderTrackingData(
  db: Db,
  scope: LoadScope,
): Promise<Partial<NotificationData>> {
  const rows = await db.query<{
    sourceName: string;
    orderNumber: string;
    createdAt: Date | string;
    lastUpdated: Date | string;
    deletedAt: Date | string | null;
    deleted: boolean;
  }>(
    `select s.source_name as "sourceName",
            coalesce(o.document_number, o.customer_po_number, o.unique_key) as "orderNumber",
            o.created_at as "createdAt", o.last_updated as "lastUpdated",
            o.deleted_at as "deletedAt", o.deleted_status as deleted
       from orders o join order_tracking_sources s on s.id = o.order_tracking_source_id
      where ($1::int is null or o.order_tracking_source_id = $1)
        and ((o.last_updated >= $2 and o.last_updated < $3)
          or (o.deleted_at >= $2 and o.deleted_at < $3))
      order by greatest(o.last_updated, coalesce(o.deleted_at, o.last_updated)), o.id
      limit 5000`,
    [scope.sourceId, scope.window.from.toISOString(), scope.window.to.toISOString()],
  );
  const from = scope.window.from.getTime();
  const orderChanges: OrderChange[] = rows.map((row) => {
    if (row.deleted && row.deletedAt) {
      return {
        sourceName: row.sourceName,
        orderNumber: row.orderNumber,
        change: "Deleted",
        at: row.deletedAt,
      };
    }
    const isNew = new Date(row.createdAt).getTime() >= from;
    return {
      sourceName: row.sourceName,
      orderNumber: row.orderNumber,
      change: isNew ? "New" : "Updated",
      at: row.lastUpdated,
    };
  });
  return { orderChanges };
}

/** Rows a loader reads per list at most (the mail shows MAX_ROWS of them, the rest as a count). */
export const LOADER_LIMIT = 5000;
/** How far before the window a zero-quantity streak's start is looked for. */
const ZERO_LOOKBACK_MS = 30 * 86_400_000;

const iso = (value: Date) => value.toISOString();
const named = (names: Map<number, string>, id: number) => names.get(id) ?? `Source ${id}`;

/**
 * The sources a loader covers: the setting's one, or every live source of the type (deleted
 * sources' history still shows where it is read by time, e.g. runs and flips of all sources).
 */
async function scopeSourceIds(db: Db, scope: LoadScope): Promise<number[]> {
  if (scope.sourceId != null) return [scope.sourceId];
  return [...(await sourceNames(db, scope.sourceTypeId)).keys()].sort((a, b) => a - b);
}

/**
 * Inventory (docs/notifications.md, "Content per source type"):
 * - status changes: the flips of the runs delivered in the window (what the buyer's file
 *   changed; a held run's flips count when it is released and delivered);
 * - quantity changes: per item, a snapshot in the window whose quantity differs from the item's
 *   previous snapshot (the source's run before the window included); an item missing from the
 *   previous run shows as new (from "–"); a source's very first run is no change;
 * - zero-quantity items: the items at zero (or below) in the source's latest run before the
 *   window's end, with the first zero snapshot after their last non-zero one (looked for up to
 *   30 days before the window; empty when at zero throughout).
 */
export async function loadInventoryData(
  db: Db,
  scope: LoadScope,
): Promise<Partial<NotificationData>> {
  const { from, to } = scope.window;
  const names = await sourceNames(db, 1, true);
  const flips = await db.query<{
    sourceId: number;
    itemNumber: string;
    from: string;
    to: string;
    at: Date | string;
  }>(
    `select r.inventory_source_id as "sourceId", f.value->>'itemNumber' as "itemNumber",
            f.value->>'from' as "from", f.value->>'to' as "to",
            coalesce(r.delivered_at, r.created_at) as at
       from inventory_runs r cross join lateral jsonb_array_elements(r.flips) as f(value)
      where r.delivery_status = 'delivered' and ($1::int is null or r.inventory_source_id = $1)
        and coalesce(r.delivered_at, r.created_at) >= $2
        and coalesce(r.delivered_at, r.created_at) < $3
      order by coalesce(r.delivered_at, r.created_at), r.import_run_id
      limit ${LOADER_LIMIT}`,
    [scope.sourceId, iso(from), iso(to)],
  );
  const statusChanges: ItemStatusChange[] = flips.map((flip) => ({
    sourceName: named(names, flip.sourceId),
    itemNumber: flip.itemNumber,
    from: flip.from ?? "",
    to: flip.to ?? "",
    at: flip.at,
  }));

  const quantityChanges: QuantityChange[] = [];
  const zeroQuantityItems: ZeroQuantityItem[] = [];
  for (const sourceId of await scopeSourceIds(db, scope)) {
    if (quantityChanges.length < LOADER_LIMIT) {
      quantityChanges.push(
        ...(await quantityChangesOf(
          db,
          sourceId,
          scope.window,
          LOADER_LIMIT - quantityChanges.length,
        ))
          .map((change) => ({ ...change, sourceName: named(names, sourceId) })),
      );
    }
    if (zeroQuantityItems.length < LOADER_LIMIT) {
      zeroQuantityItems.push(
        ...(await zeroItemsOf(db, sourceId, scope.window, LOADER_LIMIT - zeroQuantityItems.length))
          .map((item) => ({ ...item, sourceName: named(names, sourceId) })),
      );
    }
  }
  return { statusChanges, quantityChanges, zeroQuantityItems };
}

/** The latest snapshot time of a source strictly before `before` (index on source, taken_at). */
async function lastSnapshotBefore(db: Db, sourceId: number, before: Date): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | string | null }>(
    `select max(taken_at) as at from inventory_item_snapshots
      where inventory_source_id = $1 and taken_at < $2`,
    [sourceId, iso(before)],
  );
  return row?.at ? new Date(row.at) : null;
}

async function quantityChangesOf(
  db: Db,
  sourceId: number,
  window: DataWindow,
  limit: number,
): Promise<Omit<QuantityChange, "sourceName">[]> {
  // Start at the source's run before the window, so the window's first run has a comparison.
  const start = await lastSnapshotBefore(db, sourceId, window.from) ?? window.from;
  const rows = await db.query<{
    itemNumber: string;
    from: number | null;
    to: number;
    at: Date | string;
  }>(
    `select "itemNumber", prev as "from", quantity as "to", taken_at as at
       from (select item_number as "itemNumber", quantity, taken_at, id,
                    lag(quantity) over (partition by item_number order by taken_at, id) as prev,
                    min(taken_at) over () as first_at
               from inventory_item_snapshots
              where inventory_source_id = $1 and taken_at >= $2 and taken_at < $4) t
      where taken_at >= $3
        and ((prev is not null and prev <> quantity) or (prev is null and taken_at > first_at))
      order by taken_at, id
      limit ${limit}`,
    [sourceId, iso(start), iso(window.from), iso(window.to)],
  );
  return rows.map((row) => ({
    itemNumber: row.itemNumber,
    from: row.from == null ? null : Number(row.from),
    to: Number(row.to),
    at: row.at,
  }));
}

async function zeroItemsOf(
  db: Db,
  sourceId: number,
  window: DataWindow,
  limit: number,
): Promise<Omit<ZeroQuantityItem, "sourceName">[]> {
  const latest = await lastSnapshotBefore(db, sourceId, window.to);
  if (!latest) return [];
  const rows = await db.query<{ itemNumber: string; since: Date | string | null }>(
    `with zero as (
       select distinct item_number from inventory_item_snapshots
        where inventory_source_id = $1 and taken_at = $2 and quantity <= 0
        order by item_number limit ${limit}
     ), history as (
       select s.item_number, s.quantity, s.taken_at from inventory_item_snapshots s
         join zero z on z.item_number = s.item_number
        where s.inventory_source_id = $1 and s.taken_at >= $3 and s.taken_at <= $2
     ), last_non_zero as (
       select item_number, max(taken_at) as at from history where quantity > 0
        group by item_number
     )
     select z.item_number as "itemNumber",
            case when n.at is null then null
                 else (select min(h.taken_at) from history h
                        where h.item_number = z.item_number and h.taken_at > n.at) end as since
       from zero z left join last_non_zero n on n.item_number = z.item_number
      order by z.item_number`,
    [sourceId, iso(latest), iso(new Date(window.from.getTime() - ZERO_LOOKBACK_MS))],
  );
  return rows.map((row) => ({ itemNumber: row.itemNumber, since: row.since }));
}

/**
 * Order submission: the rows received in the window as order changes (one per run, vendor and
 * PO number: "Received for vendor X: n rows"; rows already sent before are not received again),
 * and as warnings the unmatched vendors of the window's runs (their rows are not sent) and the
 * batches released short at the day's end ("n of m e-mails").
 */
export async function loadOrderSubmissionData(
  db: Db,
  scope: LoadScope,
): Promise<Partial<NotificationData>> {
  const { from, to } = scope.window;
  const params = [scope.sourceId, iso(from), iso(to)];
  const names = await sourceNames(db, 2, true);
  const received = await db.query<{
    sourceId: number;
    poNumber: string;
    vendorName: string;
    rows: number;
    at: Date | string;
  }>(
    `select r.source_id as "sourceId", sr.po_number as "poNumber",
            coalesce(v.vendor_name_from_file, sr.vendor_name) as "vendorName",
            count(*)::int as rows, min(sr.received_at) as at
       from submission_rows sr
       join import_runs r on r.id = sr.import_run_id
       left join vendor_sources v on v.id = sr.vendor_source_id
      where r.feed = 'order-submission' and ($1::int is null or r.source_id = $1)
        and sr.received_at >= $2 and sr.received_at < $3
      group by r.source_id, r.id, sr.po_number, coalesce(v.vendor_name_from_file, sr.vendor_name)
      order by min(sr.received_at), r.id, sr.po_number
      limit ${LOADER_LIMIT}`,
    params,
  );
  const orderChanges: OrderChange[] = received.map((row) => ({
    sourceName: named(names, row.sourceId),
    orderNumber: row.poNumber || "(no PO)",
    change: `Received for vendor ${row.vendorName}: ${row.rows} row${row.rows === 1 ? "" : "s"}`,
    at: row.at,
  }));

  const unmatched = await db.query<{
    sourceId: number;
    fileName: string;
    message: string;
    rows: number;
    at: Date | string;
  }>(
    `select r.source_id as "sourceId", r.file_name as "fileName", e.value->>'message' as message,
            count(*)::int as rows, coalesce(r.finished_at, r.received_at) as at
       from import_runs r cross join lateral jsonb_array_elements(r.row_errors) as e(value)
      where r.feed = 'order-submission' and ($1::int is null or r.source_id = $1)
        and coalesce(r.finished_at, r.received_at) >= $2
        and coalesce(r.finished_at, r.received_at) < $3
        and jsonb_typeof(e.value) = 'object' and e.value->>'column' = 'Vendor'
      group by r.id, r.source_id, r.file_name, e.value->>'message'
      order by coalesce(r.finished_at, r.received_at), r.id
      limit ${LOADER_LIMIT}`,
    params,
  );
  const short = await db.query<{
    sourceId: number;
    day: string;
    emails: number;
    expected: number;
    at: Date | string;
  }>(
    `select b.order_submission_source_id as "sourceId", b.batch_day::text as day,
            (select count(*)::int from submission_inbound i
              where i.order_submission_source_id = b.order_submission_source_id
                and i.batch_day = b.batch_day) as emails,
            s.expected_number_of_batch_emails as expected, b.released_at as at
       from submission_batches b
       join order_submission_sources s on s.id = b.order_submission_source_id
      where b.reason = 'day_ended_short' and ($1::int is null or b.order_submission_source_id = $1)
        and b.released_at >= $2 and b.released_at < $3
      order by b.released_at
      limit ${LOADER_LIMIT}`,
    params,
  );
  const warnings: FeedWarning[] = [
    ...unmatched.map((row) => {
      const vendor = /^No vendor named "(.*)"; not sent\.$/s.exec(row.message ?? "")?.[1];
      return {
        sourceName: named(names, row.sourceId),
        subject: row.fileName || "(no file)",
        message: vendor === undefined
          ? `${row.message} (${row.rows} row${row.rows === 1 ? "" : "s"})`
          : `Unmatched vendor "${vendor || "(blank)"}": ${row.rows} row${
            row.rows === 1 ? "" : "s"
          } not sent`,
        at: row.at,
      };
    }),
    ...short.map((row) => ({
      sourceName: named(names, row.sourceId),
      subject: `Batch of ${row.day}`,
      message: `Short batch: ${row.emails} of ${row.expected} e-mails, sent at the day's end`,
      at: row.at,
    })),
  ];
  return { orderChanges, warnings };
}

/**
 * Order vendor: the vendor e-mails of the window: sent ones by `sent_at`; failed and uncertain
 * ones by when their (last) sending started, else when they were planned. Pending and sending
 * ones are not reported yet (they show once they end).
 */
export async function loadOrderVendorData(
  db: Db,
  scope: LoadScope,
): Promise<Partial<NotificationData>> {
  const rows = await db.query<{
    vendorName: string;
    status: "sent" | "failed" | "uncertain";
    at: Date | string;
    poNumbers: string[] | string | null;
    rowCount: number;
    to: string;
    cc: string;
    error: string | null;
  }>(
    `select v.vendor_name_from_file as "vendorName", s.status,
            coalesce(s.sent_at, s.sending_at, s.created_at) as at, s.po_numbers as "poNumbers",
            s.row_count as "rowCount", s.to_addresses as "to", s.cc_addresses as cc,
            s.last_error as error
       from submissions s join vendor_sources v on v.id = s.vendor_source_id
      where s.status in ('sent', 'failed', 'uncertain')
        and ($1::int is null or s.vendor_source_id = $1)
        and coalesce(s.sent_at, s.sending_at, s.created_at) >= $2
        and coalesce(s.sent_at, s.sending_at, s.created_at) < $3
      order by coalesce(s.sent_at, s.sending_at, s.created_at), s.id
      limit ${LOADER_LIMIT}`,
    [scope.sourceId, iso(scope.window.from), iso(scope.window.to)],
  );
  const vendorSendings: VendorSending[] = rows.map((row) => {
    const poNumbers = textArray(row.poNumbers).filter((po) => po !== "");
    return {
      vendorName: row.vendorName,
      sentAt: row.at,
      status: row.status,
      orderCount: poNumbers.length || row.rowCount,
      recipients: [row.to, row.cc].filter((list) => list.trim() !== "").join(", "),
      error: row.error,
      poNumbers,
    };
  });
  return { vendorSendings };
}

/** A text[] column: an array from both drivers (a literal `{a,b}` when a driver leaves it as text). */
function textArray(value: string[] | string | null): string[] {
  if (value == null) return [];
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  if (inner === "") return [];
  return inner.split(",").map((item) => item.replace(/^"|"$/g, "").replace(/\\(.)/g, "$1"));
}

const LOADERS: Record<
  SourceTypeId,
  (db: Db, scope: LoadScope) => Promise<Partial<NotificationData>>
> = {
  1: loadInventoryData,
  2: loadOrderSubmissionData,
  3: loadOrderTrackingData,
  4: loadOrderVendorData,
};

/** Everything a setting's mail reports on for its window. */
export async function loadNotificationData(db: Db, scope: LoadScope): Promise<NotificationData> {
  return {
    importRuns: await loadImportRuns(db, scope),
    ...await LOADERS[scope.sourceTypeId](db, scope),
  };
}
