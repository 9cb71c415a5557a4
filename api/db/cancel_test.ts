/**
 * `db.query(sql, params, { signal })`: an aborted signal keeps a statement from starting on both
 * databases, and on PostgreSQL cancels the running one (docs/order_tracking.md, "Order list at
 * scale": a search nobody waits for stops).
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";

Deno.test("an aborted signal stops a statement", async (t) => {
  const { db, close } = await openTestDb();
  try {
    await t.step("an already aborted signal: the statement never starts", async () => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(db.query("select 1", [], { signal: controller.signal }));
      assert.deepEqual(await db.query("select 1 as one"), [{ one: 1 }]);
    });

    await t.step("PostgreSQL: a running statement is cancelled", async () => {
      if (db.kind !== "postgres") return; // PGlite cannot interrupt a statement.
      const controller = new AbortController();
      const started = performance.now();
      const running = db.query("select pg_sleep(30), 'order-list-cancel-test' as tag", [], {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 200);
      await assert.rejects(running, (error: { code?: string }) => error.code === "57014");
      assert.ok(performance.now() - started < 10_000);
      const [{ n }] = await db.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where state = 'active' and query like '%order-list-cancel-test%'
            and pid <> pg_backend_pid()`,
      );
      assert.equal(n, 0);
    });
  } finally {
    await close();
  }
});
