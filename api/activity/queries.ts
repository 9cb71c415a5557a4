/** The activity table: write one entry, read a filtered page, remove old entries. */
import type { Db } from "../db/client.ts";
import { conditions } from "../db/conditions.ts";
import type {
  ActivityAction,
  ActivityChange,
  ActivityEntry,
  ActivityPage,
  EntityType,
} from "../../shared/contract/activity.ts";
import { ACTIVITY_COUNT_CAP, activityQuery } from "../../shared/contract/activity.ts";
import type { z } from "zod";

/** What one entry says. */
export interface NewActivity {
  userId: number | null;
  username: string;
  action: ActivityAction;
  entityType: EntityType;
  entityId: number | null;
  entityName: string;
  address: string;
  changes: ActivityChange[];
}

/**
 * Writes one entry of the log.
 *
 * @example
 * ```ts ignore
 * await insertActivity(db, { userId: 1, username: "admin", action: "signed in",
 *   entityType: "user", entityId: 1, entityName: "admin", address: "127.0.0.1", changes: [] });
 * ```
 */
export async function insertActivity(db: Db, entry: NewActivity): Promise<void> {
  await db.query(
    `insert into activity (user_id, username, action, entity_type, entity_id, entity_name,
       address, changes)
     values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb)`,
    [
      entry.userId,
      entry.username.slice(0, 200),
      entry.action,
      entry.entityType,
      entry.entityId,
      entry.entityName.slice(0, 200),
      entry.address.slice(0, 64),
      JSON.stringify(entry.changes),
    ],
  );
}

/** A `to` given as a bare date means the end of that day. */
function upperBound(to: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(to)
    ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString()
    : new Date(to).toISOString();
}

/**
 * One page of the log, newest first, narrowed by the filters of `activityQuery`.
 *
 * @example
 * ```ts ignore
 * const page = await listActivity(db, { user: "alice", entityType: "vendor", page: 1, pageSize: 50 });
 * ```
 */
export async function listActivity(
  db: Db,
  query: z.output<typeof activityQuery>,
): Promise<ActivityPage> {
  const filter = conditions();
  if (query.user) filter.add("lower(username) = lower(?)", query.user);
  if (query.action) filter.add("action = ?", query.action);
  if (query.entityType) filter.add("entity_type = ?", query.entityType);
  if (query.entityId) filter.add("entity_id = ?", query.entityId);
  if (query.from) filter.add("at >= ?::timestamptz", new Date(query.from).toISOString());
  if (query.to) {
    const inclusive = /^\d{4}-\d{2}-\d{2}$/.test(query.to);
    filter.add(inclusive ? "at < ?::timestamptz" : "at <= ?::timestamptz", upperBound(query.to));
  }
  const where = filter.where();
  // Counting a year of entries exactly would cost more than the page itself: the count stops
  // at ACTIVITY_COUNT_CAP (the pager then says "more than").
  const [{ total }] = await db.query<{ total: number }>(
    `select count(*)::int as total
       from (select 1 from activity ${where} limit ${ACTIVITY_COUNT_CAP + 1}) counted`,
    [...filter.params],
  );
  const rows = await db.query<Omit<ActivityEntry, "at"> & { at: Date | string }>(
    `select id::int as id, at, user_id as "userId", username, action,
       entity_type as "entityType", entity_id::float8 as "entityId",
       entity_name as "entityName", address, changes
       from activity ${where}
      order by at desc, id desc
      limit ${filter.param(query.pageSize)} offset ${
      filter.param((query.page - 1) * query.pageSize)
    }`,
    filter.params,
  );
  return {
    entries: rows.map((row) => ({
      ...row,
      at: new Date(row.at).toISOString(),
      changes: typeof row.changes === "string" ? JSON.parse(row.changes) : row.changes,
    })),
    total: Math.min(total, ACTIVITY_COUNT_CAP),
    totalCapped: total > ACTIVITY_COUNT_CAP,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Removes the entries older than `days` days before `now`; returns how many.
 *
 * @example
 * ```ts ignore
 * await pruneActivity(db, 365, new Date()); // 12
 * ```
 */
export async function pruneActivity(db: Db, days: number, now: Date): Promise<number> {
  const [{ removed }] = await db.query<{ removed: number }>(
    `with gone as (
       delete from activity where at < $1::timestamptz - make_interval(days => $2) returning 1)
     select count(*)::int as removed from gone`,
    [now.toISOString(), days],
  );
  return removed;
}
