/**
 * A large import refreshes the planner's statistics of `orders` (docs/order_tracking.md, "Order
 * list at scale"); a small one leaves them to autovacuum.
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../../tests/support/db.ts";
import { csv, importFile } from "../../../tests/support/order_tracking.ts";
import { createSource } from "../../../bench/order_tracking_bench.ts";
import {
  ANALYZE_ORDERS_JOB,
  analyzeOrders,
  analyzeWorthIt,
  compactOrders,
} from "./statistics_job.ts";

Deno.test("how much of the table an import must change to refresh the statistics", () => {
  const cases: [Parameters<typeof analyzeWorthIt>, boolean][] = [
    [["postgres", 9_999, 10_000], false], // fewer than 10,000 orders never
    [["pglite", 9_999, 10_000], false],
    [["postgres", 10_000, 0], true], // the first large import into an empty table
    [["pglite", 10_000, 0], true],
    [["postgres", 20_000, 200_000], true], // a tenth
    [["pglite", 20_000, 200_000], false], // on PGlite a quarter: ANALYZE holds its connection
    [["pglite", 50_000, 200_000], true],
    [["pglite", 49_999, 200_000], false],
  ];
  for (const [args, expected] of cases) {
    assert.equal(analyzeWorthIt(...args), expected, args.join(" "));
  }
});

Deno.test("an import of many orders enqueues ANALYZE, a small one does not", async () => {
  const { db, close } = await openTestDb();
  try {
    const source = await createSource(db);
    const estimate = async () =>
      (await db.query<{ n: number }>(
        "select reltuples::float8 as n from pg_class where oid = 'orders'::regclass",
      ))[0].n;
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => [`PO-${from + i}`, `SKU-${i % 50}`]);
    const jobs = async () =>
      (await db.query<{ n: number }>(
        "select count(*)::int as n from jobs where kind = $1 and status = 'queued'",
        [ANALYZE_ORDERS_JOB],
      ))[0].n;
    await importFile(db, source, csv([["PO Number", "Item Number"], ...rows(0, 100)]));
    assert.equal(await jobs(), 0, "100 orders: no ANALYZE");
    await importFile(db, source, csv([["PO Number", "Item Number"], ...rows(1000, 10_000)]));
    assert.equal(await jobs(), 1);
    // a second large import in a row shares the queued job
    await importFile(db, source, csv([["PO Number", "Item Number"], ...rows(20_000, 10_000)]));
    assert.equal(await jobs(), 1);
    await analyzeOrders(db);
    assert.equal(await estimate(), 20_100);
    const visibility = async () =>
      (await db.query<{ visible: number; pages: number }>(
        `select relallvisible::int as visible, relpages::int as pages from pg_class
          where oid = 'orders'::regclass`,
      ))[0];
    if (db.kind === "pglite") {
      // PGlite has no autovacuum: the job vacuums, so the pages written are all-visible
      const { visible, pages } = await visibility();
      assert.ok(pages > 0 && visible === pages, `${visible} of ${pages} pages all-visible`);
    }
    // the searched column, and the expression of its short-term index (migration 0015)
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_stats
        where (tablename, attname) in (('orders', 'customer_po_number'),
                                       ('orders_po_short', 'order_search_spread'))`,
    );
    assert.equal(n, 2);

    // every order of the second file changed: the rows it replaced are reclaimed by the daily
    // compaction (on PGlite; the job's own VACUUM leaves the index entries to it)
    await importFile(
      db,
      source,
      csv([
        ["PO Number", "Item Number"],
        ...rows(20_000, 10_000).map(
          ([po]) => [po, "SKU-changed"],
        ),
      ]),
    );
    await analyzeOrders(db);
    assert.equal(await estimate(), 20_100, "an import of changed orders adds none");
    if (db.kind === "pglite") {
      await compactOrders(db);
      const { visible, pages } = await visibility();
      assert.ok(pages > 0 && visible === pages, `after compaction ${visible} of ${pages} pages`);
      const [{ dead }] = await db.query<{ dead: number }>(
        "select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'orders'",
      );
      assert.equal(dead, 0, "no dead row left");
    }
  } finally {
    await close();
  }
});
