/**
 * `db.query(sql, params, { signal })`: an aborted signal keeps a statement from starting on both
 * databases; a statement already sent runs to its end, and the statements of other requests
 * around it are never touched (docs/order_tracking.md, "Order list at scale").
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";

/** `promise`, or a rejection after `ms`: a driver that lost track of a statement never answers. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

Deno.test("an aborted signal stops what has not started and nothing else", async (t) => {
  // One connection: the statements of several requests queue on it, as under load.
  const { db, close } = await openTestDb({ poolSize: 1 });
  try {
    await t.step("an already aborted signal: the statement never starts", async () => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(db.query("select 1", [], { signal: controller.signal }));
      assert.deepEqual(await db.query("select 1 as one"), [{ one: 1 }]);
    });

    await t.step("aborting one request's statement leaves the next request's alone", async () => {
      // PostgreSQL's cancel request stops whatever the connection runs when it arrives. Sent for
      // a statement queued behind another (as postgres.js did), the next request's statement was
      // stopped or answered with the aborted one's rows, or never answered.
      for (let round = 0; round < 3; round++) {
        const controller = new AbortController();
        const first = db.query("select pg_sleep(0.1)");
        const aborted = db.query("select 1", [], { signal: controller.signal }).catch(() => []);
        const other = db.query<{ tag: string }>("select pg_sleep(0.2), 'other' as tag");
        setTimeout(() => controller.abort(), 30);
        await within(first, 5_000);
        await within(aborted, 5_000);
        assert.deepEqual((await within(other, 5_000)).map((row) => row.tag), ["other"]);
      }
    });
  } finally {
    await close();
  }
});
