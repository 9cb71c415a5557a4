/**
 * Loading the data of a notification's window (docs/notifications.md, "Content"): the import runs
 * of the setting's source (or of every source of its type) and, per source type, what that feed
 * records. One loader per source type; the inventory and submission feeds fill theirs in when
 * their tables exist.
 */
import type { Db } from "../db/client.ts";
import type { SourceTypeId } from "../../shared/contract/notifications.ts";
import type {
  ImportRunRecord,
  NotificationData,
  OrderChange,
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
  const names = await sourceNames(db, scope.sourceTypeId);
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

/**
 * Inventory: item status changes, quantity changes and zero-quantity items of the window.
 * The inventory feed's tables do not exist yet: the inventory engineer fills this in
 * (statusChanges, quantityChanges, zeroQuantityItems of render.ts).
 */
export function loadInventoryData(_db: Db, _scope: LoadScope): Promise<Partial<NotificationData>> {
  return Promise.resolve({});
}

/**
 * Order submission: order changes the submission feed records. Its tables do not exist yet: the
 * submission engineer fills this in (orderChanges of render.ts).
 */
export function loadOrderSubmissionData(
  _db: Db,
  _scope: LoadScope,
): Promise<Partial<NotificationData>> {
  return Promise.resolve({});
}

/**
 * Order vendor: the vendor sendings of the window. Its tables do not exist yet: the submission
 * engineer fills this in (vendorSendings of render.ts).
 */
export function loadOrderVendorData(
  _db: Db,
  _scope: LoadScope,
): Promise<Partial<NotificationData>> {
  return Promise.resolve({});
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
