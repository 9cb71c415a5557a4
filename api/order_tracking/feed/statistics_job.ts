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
/** ... at least this share of the table, refreshes the statistics. */
const ANALYZE_MIN_SHARE = 0.1;

/** True when `changed` orders are enough of the table to refresh its statistics. */
export async function needsAnalyze(db: Db, changed: number): Promise<boolean> {
  if (changed < ANALYZE_MIN_CHANGED) return false;
  const [{ rows }] = await db.query<{ rows: number }>(
    "select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'orders'::regclass",
  );
  return changed >= rows * ANALYZE_MIN_SHARE;
}

/**
 * ANALYZE of `orders`, whole: the columns the list searches (the share of matches) and the
 * expressions of the short-term indexes (migration 0015), whose statistics are the planner's
 * only estimate of a one- or two-character term (naming columns would skip every index
 * expression). It samples a fixed number of rows, so it costs about the same at any size.
 *
 * On PGlite it is `VACUUM (ANALYZE)`: PGlite has no autovacuum, so without it the rows an
 * import replaced were never reclaimed and no page of `orders` was ever marked all-visible. A
 * sequential scan checks each row's visibility on a page that is not, and an index-only scan
 * reads the row as well: on PGlite the list's bounded count (up to 10,000 rows) took about
 * twice as long, and a deep page's walk of the sort index read every row it passed
 * (docs/order_tracking.md, "Order list at scale"). It reads the pages written since the last
 * one (about 0.1 s per 100,000 new orders on PGlite). PostgreSQL's autovacuum does the same
 * after a large import within a minute.
 */
export async function analyzeOrders(db: Db): Promise<void> {
  await db.exec(db.kind === "pglite" ? "vacuum (analyze) orders" : "analyze orders");
}

/** The job: one ANALYZE, however many imports asked for it meanwhile. */
export const analyzeOrdersJob: JobHandler = {
  async run(deps) {
    await analyzeOrders(deps.db);
  },
};
