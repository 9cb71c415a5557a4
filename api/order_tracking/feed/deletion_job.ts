/**
 * The daily job that soft-deletes orders no file has listed for the source's deleteAfterDays
 * (and prunes the home stats' old counts, and compacts `orders` on PGlite);
 * the order tracking feature (`../feature.ts`) hands it and its schedule to the job runner.
 */
import type { Db } from "../../db/client.ts";
import type { JobHandler, ScheduleSource } from "../../jobs/handlers.ts";
import { syncSchedules } from "../../jobs/schedules.ts";
import { countListWrite, listWritten } from "../list_versions.ts";
import { compactOrders } from "./statistics_job.ts";

/** Orders deleted for one source by one run of the job. */
export interface StaleDeletion {
  sourceId: number;
  sourceName: string;
  deleted: number;
}

/**
 * For every active source with `deleteAfterDays`, soft-deletes its live orders last seen in a
 * file more than that many days before `now`. Inactive sources receive no files, so their
 * orders are left alone rather than all expiring. Safe to run twice: a deleted order is not
 * deleted again.
 *
 * @example
 * ```ts ignore
 * await deleteStaleOrders(db, new Date()); // [{ sourceId: 1, sourceName: "Acme", deleted: 12 }]
 * ```
 */
export async function deleteStaleOrders(db: Db, now: Date): Promise<StaleDeletion[]> {
  const deleted = await db.query<StaleDeletion & { version: string }>(
    `with stale as (
       update orders o
          set deleted_status = true, active_status = false, deleted_at = $1::timestamptz
         from order_tracking_sources s
        where o.order_tracking_source_id = s.id
          and s.active_status and not s.deleted_status and s.delete_after_days is not null
          and not o.deleted_status
          and o.last_seen_at < $1::timestamptz - make_interval(days => s.delete_after_days)
          -- a later file listing it unchanged (migration 0035)
          and not exists (
            select 1 from order_seen seen
             where seen.order_id = o.id
               and seen.seen_at >= $1::timestamptz - make_interval(days => s.delete_after_days))
       returning o.order_tracking_source_id),
     counted as (${countListWrite("orders", "exists (select 1 from stale)")})
     select s.id as "sourceId", s.source_name as "sourceName", count(*)::int as deleted,
            (select version::text from counted) as version
       from stale join order_tracking_sources s on s.id = stale.order_tracking_source_id
      group by s.id, s.source_name order by s.id`,
    [now.toISOString()],
  );
  // Once they are gone, the list's deep pages may move (page_seek.ts).
  if (deleted.length) listWritten(db, "orders", Number(deleted[0].version));
  return deleted.map(({ version: _, ...row }) => row);
}

/**
 * Drops the maintained home-stats counts (migration 0016) that no window ending now or later can
 * read: moments and hours more than two days old, and keys whose counts came back to zero. An
 * order changed later still subtracts from its old moment (a row that then starts again below
 * zero), which no such window reads either.
 */
export async function pruneOrderChangeCounts(db: Db, now: Date): Promise<void> {
  await db.query(
    `delete from order_change_moments
      where at < $1::timestamptz - interval '2 days' or (updated = 0 and deleted = 0)`,
    [now.toISOString()],
  );
  await db.query(
    `delete from order_change_hours
      where hour < $1::timestamptz - interval '2 days' or (updated = 0 and deleted = 0)`,
    [now.toISOString()],
  );
}

/** The job kind of the daily deletion. */
export const DELETE_STALE_ORDERS_JOB = "order-tracking-delete-stale";

/** The daily deletion job. */
export const deleteStaleOrdersJob: JobHandler = {
  async run(deps) {
    const now = new Date();
    await deleteStaleOrders(deps.db, now);
    await pruneOrderChangeCounts(deps.db, now);
    await compactOrders(deps.db);
  },
};

/** Once a day; a day missed while no process ran is caught up once at the next tick. */
export const deleteStaleOrdersSchedule: ScheduleSource = async (deps) => {
  await syncSchedules(deps.db, DELETE_STALE_ORDERS_JOB, [{
    name: DELETE_STALE_ORDERS_JOB,
    kind: DELETE_STALE_ORDERS_JOB,
    payload: {},
    everySeconds: 86_400,
  }]);
};
