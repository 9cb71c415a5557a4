/**
 * The counts of writes that move the order list's pages (migration 0036): every import that
 * wrote orders, delete and deletion job adds one to `orders`, every note one to `notes`, in the
 * write's own transaction. A process reading the list compares them at most once a second
 * (`noticeListWrites`) and forgets its seek points (`page_seek.ts`) when another process wrote,
 * so they can be trusted for minutes instead of a fixed minute.
 *
 * @module
 */
import type { Db } from "../db/client.ts";
import { forgetSeekPoints } from "./page_seek.ts";

/** What a write moved: rows and sorted values (`"orders"`), or only the notes (`"notes"`). */
export type ListWrite = "orders" | "notes";

/** How often the counts are read, at most, by a process reading the list. */
const CHECK_EVERY_MS = 1_000;

/** The counts as this process last knew them (-1: not read yet). */
interface Seen {
  orders: number;
  notes: number;
  checked: number;
  checking: Promise<void> | null;
}

const seen = new WeakMap<object, Seen>();

/**
 * The statement that counts a write of `what` (when `when` holds) and answers the new count
 * (`version`): run in the write's transaction, or as a data-modifying `with` of its statement.
 *
 * @example
 * ```ts
 * import { countListWrite } from "./list_versions.ts";
 * const sql = `with saved as (update orders set notes = null where id = 1 returning id)
 *              ${countListWrite("notes", "exists (select 1 from saved)")}`;
 * ```
 */
export function countListWrite(what: ListWrite, when = "true"): string {
  return `update order_list_versions set version = version + 1
           where name = '${what}' and ${when} returning version`;
}

/**
 * Forgets this process's seek points after its own write, counted as `version` by
 * `countListWrite`, so that the next check does not forget them again for it. Call it once the
 * write's transaction has committed.
 */
export function listWritten(db: object, what: ListWrite, version: number | null): void {
  forgetSeekPoints(what);
  const mine = seen.get(db);
  if (mine && version !== null) mine[what] = Math.max(mine[what], version);
}

/**
 * Reads the counts when the last read is more than a second old, and forgets the seek points that
 * a write by another process moved. Concurrent callers share one read. The first read forgets
 * nothing: no point is remembered before it (the list checks before it reads a page), and this
 * process's own writes forgot theirs.
 */
export function noticeListWrites(db: Db, now = Date.now()): Promise<void> {
  let mine = seen.get(db);
  if (!mine) seen.set(db, mine = { orders: -1, notes: -1, checked: -Infinity, checking: null });
  if (mine.checking) return mine.checking;
  if (now - mine.checked < CHECK_EVERY_MS) return Promise.resolve();
  const known = mine;
  known.checking = db.query<{ name: ListWrite; version: string }>(
    "select name, version::text as version from order_list_versions",
    [],
    { prepare: true },
  ).then((rows) => {
    const found = { orders: 0, notes: 0 };
    for (const row of rows) found[row.name] = Number(row.version);
    if (known.orders >= 0 && found.orders > known.orders) forgetSeekPoints("orders");
    else if (known.notes >= 0 && found.notes > known.notes) forgetSeekPoints("notes");
    known.orders = Math.max(known.orders, found.orders);
    known.notes = Math.max(known.notes, found.notes);
    known.checked = now;
  }).finally(() => known.checking = null);
  return known.checking;
}
