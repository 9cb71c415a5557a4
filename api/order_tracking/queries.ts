/** Reading one order, its notes, deleting it, and the home page's per-source stats. */
import type { Db } from "../db/client.ts";
import type { Order, OrderDetail } from "../../shared/contract/order_tracking.ts";
import type { UpdateStatsRow } from "../../shared/contract/home_stats.ts";
import { contractOrders, ORDER_COLUMNS, type OrderRow } from "./order_rows.ts";
import { countListWrite, listWritten } from "./list_versions.ts";

/** One order, deleted or not (its deletedStatus says which), or null. */
export async function findOrder(db: Db, id: number): Promise<OrderDetail | null> {
  const [row] = await db.query<OrderRow & Omit<OrderDetail, keyof Order>>(
    `select ${ORDER_COLUMNS},
            to_char(o.last_updated at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
              as "lastUpdated",
            o.order_tracking_source_id as "orderTrackingSourceId",
            o.active_status as "activeStatus", o.deleted_status as "deletedStatus"
       from orders o where o.id = $1`,
    [id],
    { prepare: true },
  );
  if (!row) return null;
  const [order] = await contractOrders(db, [row]);
  return {
    ...order,
    lastUpdated: row.lastUpdated,
    orderTrackingSourceId: row.orderTrackingSourceId,
    activeStatus: row.activeStatus,
    deletedStatus: row.deletedStatus,
  };
}

/**
 * Replaces an order's notes ("" and null clear them). Notes do not count as an update: the
 * home stats count what files changed.
 *
 * @returns false when there is no such order
 */
export async function saveNote(db: Db, orderId: number, note: string | null): Promise<boolean> {
  const rows = await db.query<{ version: string }>(
    `with saved as (update orders set notes = $2 where id = $1 returning id)
     ${countListWrite("notes", "exists (select 1 from saved)")}`,
    [orderId, note === null || note === "" ? null : note],
    { prepare: true },
  );
  if (!rows.length) return false;
  // Once the note is in: a page sorted by notes may move (page_seek.ts).
  listWritten(db, "notes", Number(rows[0].version));
  return true;
}

/**
 * Soft-deletes an order; deleting a deleted order changes nothing. A newer file that still
 * lists it restores it.
 *
 * @returns false when there is no such order
 */
export async function deleteOrder(db: Db, id: number): Promise<boolean> {
  const rows = await db.query<{ version: string }>(
    `with gone as (
       update orders
          set deleted_status = true, active_status = false,
              deleted_at = case when deleted_status then deleted_at else now() end
        where id = $1 returning id)
     ${countListWrite("orders", "exists (select 1 from gone)")}`,
    [id],
  );
  if (!rows.length) return false;
  // Once it is gone, the list's deep pages move up by one (page_seek.ts).
  listWritten(db, "orders", Number(rows[0].version));
  return true;
}

/**
 * Per live source (inactive ones too, with zeros), the orders inserted or changed and the
 * orders deleted in the 24 hours before `now`: the orders whose current `last_updated`
 * (`deleted_at`) lies in (now - 24 h, now]. Read from the counts that migration 0016 keeps (whole
 * hours inside the window, exact moments in its two partial edge hours), so the cost does not
 * grow with the day's volume; `orderUpdateStatsCounted` is the same answer counted from orders.
 */
export async function orderUpdateStats(db: Db, now = new Date()): Promise<UpdateStatsRow[]> {
  const hour = 3_600_000;
  const hi = now.getTime(), lo = hi - 24 * hour;
  // Whole UTC hours [firstHour, endHour) lie inside (lo, hi]; the rest are the edges.
  const firstHour = Math.floor(lo / hour) * hour + hour, endHour = Math.floor(hi / hour) * hour;
  const at = (ms: number) => new Date(ms).toISOString();
  return await db.query<UpdateStatsRow>(
    `with counts as (
       select source_id, updated, deleted from order_change_hours
        where hour >= $3::timestamptz and hour < $4::timestamptz
       union all
       select source_id, updated, deleted from order_change_moments
        where at > $1::timestamptz and at < $3::timestamptz
       union all
       select source_id, updated, deleted from order_change_moments
        where at >= $4::timestamptz and at <= $2::timestamptz
     ),
     totals as (
       select source_id, sum(updated)::int as updated, sum(deleted)::int as deleted
         from counts group by source_id
     )
     select s.source_name as "orderTrackingSourceName",
            coalesce(t.updated, 0) as "ordersUpdated",
            coalesce(t.deleted, 0) as "ordersDeleted"
       from order_tracking_sources s
       left join totals t on t.source_id = s.id
      where not s.deleted_status
      order by lower(s.source_name), s.id`,
    [at(lo), at(hi), at(firstHour), at(endHour)],
    // The same text on every call of the home page; its plan (index ranges over small tables)
    // does not depend on the hours.
    { prepare: true },
  );
}

/**
 * `orderUpdateStats` counted from the orders themselves (its cost grows with the orders changed
 * in the window): the reference the maintained counts are tested against.
 */
export async function orderUpdateStatsCounted(
  db: Db,
  now = new Date(),
): Promise<UpdateStatsRow[]> {
  return await db.query<UpdateStatsRow>(
    `select s.source_name as "orderTrackingSourceName",
            (select count(*)::int from orders o
              where o.order_tracking_source_id = s.id
                and o.last_updated > $1::timestamptz - interval '24 hours'
                and o.last_updated <= $1::timestamptz) as "ordersUpdated",
            (select count(*)::int from orders o
              where o.order_tracking_source_id = s.id
                and o.deleted_at > $1::timestamptz - interval '24 hours'
                and o.deleted_at <= $1::timestamptz) as "ordersDeleted"
       from order_tracking_sources s
      where not s.deleted_status
      order by lower(s.source_name), s.id`,
    [now.toISOString()],
  );
}
