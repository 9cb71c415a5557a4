/**
 * Fresh planner statistics for `orders` after large imports (docs/order_tracking.md, "Order list
 * at scale"): the list's plans (a sort index vs. the trigram indexes, a bounded count) follow the
 * estimated share of matches, and a large import changes it at once. PostgreSQL's autovacuum
 * catches up only minutes later; PGlite has none (there the job vacuums as well).
 */
import type { Db } from "../../db/client.ts";
import type { JobHandler } from "../../jobs/handlers.ts";

/** The job kind; also its dedupe key, so imports in a row share one ANALYZE. */
export const ANALYZE_ORDERS_JOB = "order-tracking-analyze";

/** An import changing at least this many orders, and ... */
const ANALYZE_MIN_CHANGED = 10_000;
/**
 * ... at least this share of the table, refreshes the statistics: a tenth on PostgreSQL (what
 * autovacuum also uses), a quarter on PGlite. There the ANALYZE holds the only connection for
 * about a second whatever the table's size (it samples 30,000 rows: 1.1–1.8 s at 200,000 orders,
 * every request meanwhile waiting; docs/benchmarks.md, "Load and soak"), and a tenth more orders
 * like the ones there does not change which plan a search gets. The daily compaction analyzes
 * as well, so smaller changes are caught within a day.
 */
const ANALYZE_MIN_SHARE = { postgres: 0.1, pglite: 0.25 };

/**
 * True when `changed` orders are enough of a table of `rows` orders to refresh its statistics.
 *
 * @example
 * analyzeWorthIt("pglite", 20_000, 200_000) // false: a tenth of the orders
 */
export function analyzeWorthIt(kind: Db["kind"], changed: number, rows: number): boolean {
  return changed >= ANALYZE_MIN_CHANGED && changed >= rows * ANALYZE_MIN_SHARE[kind];
}

/** True when `changed` orders are enough of the table to refresh its statistics. */
export async function needsAnalyze(db: Db, changed: number): Promise<boolean> {
  if (changed < ANALYZE_MIN_CHANGED) return false;
  const [{ rows }] = await db.query<{ rows: number }>(
    "select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'orders'::regclass",
  );
  return analyzeWorthIt(db.kind, changed, rows);
}

/**
 * ANALYZE of `orders`, whole: the columns the list searches (the share of matches) and the
 * expressions of the short-term indexes (migration 0015), whose statistics are the planner's
 * only estimate of a one- or two-character term (naming columns would skip every index
 * expression). It samples a fixed number of rows, so it costs about the same at any size.
 *
 * On PGlite it is preceded by a `VACUUM` without index cleanup: PGlite has no autovacuum, so
 * without it the rows an import replaced were never reclaimed and no page of `orders` was ever
 * marked all-visible. A sequential scan checks each row's visibility on a page that is not, and an
 * index-only scan reads the row as well: on PGlite the list's bounded count (up to 10,000 rows)
 * took about twice as long, and a deep page's walk of the sort index read every row it passed
 * (docs/order_tracking.md, "Order list at scale"). Index cleanup reads every index of `orders`
 * whole (about 40 of them), so its cost grows with the table, and on PGlite one statement holds
 * the only connection: at 200,000 orders after a 20,000-row re-import, `VACUUM (ANALYZE)` held it
 * for 6.4 s, this for 0.1 s plus the ANALYZE's 1.7 s in a second turn. The index cleanup is left to
 * the daily {@link compactOrders}. PostgreSQL's autovacuum does both in its own process.
 */
export async function analyzeOrders(db: Db): Promise<void> {
  if (db.kind === "pglite") await db.exec("vacuum (index_cleanup off) orders");
  await db.exec("analyze orders");
}

/**
 * The daily compaction on PGlite (the stale-order deletion job runs it): `VACUUM` with index
 * cleanup, which removes the index entries of the rows imports replaced and lets their pages be
 * marked all-visible again, then the ANALYZE that imports of less than a quarter of the orders
 * leave out. The VACUUM is the one statement whose cost grows with the table (3.2 s at 200,000
 * orders, docs/benchmarks.md), so it runs once a day rather than after every import.
 * PostgreSQL's autovacuum does both there.
 */
export async function compactOrders(db: Db): Promise<void> {
  if (db.kind !== "pglite") return;
  await db.exec("vacuum orders");
  await db.exec("analyze orders");
}

/** The job: one ANALYZE, however many imports asked for it meanwhile. */
export const analyzeOrdersJob: JobHandler = {
  async run(deps) {
    await analyzeOrders(deps.db);
  },
};
