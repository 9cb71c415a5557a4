/**
 * The merge's stage (`order_stage`) lives as long as the connection, and the statements that read
 * only the batch's rows are kept prepared (api/order_tracking/feed/upsert.ts): what one transaction
 * staged, or created and rolled back, never reaches the next, on either database. One connection
 * (pool of 1 on PostgreSQL), so every transaction reuses the stage and the statements of the one
 * before.
 */
import assert from "node:assert/strict";
import type { Db } from "../../db/client.ts";
import { openTestDb } from "../../../tests/support/db.ts";
import { insertOrderSource } from "../../../tests/support/order_tracking.ts";
import type { OrderRecord } from "../../../shared/order_files/rows.ts";
import { upsertOrders } from "./upsert.ts";

const FIELDS = ["customerPoNumber", "customerName", "trackingNumbers"] as const;

function records(keys: string[], customer: string): OrderRecord[] {
  return keys.map((key, i) => ({
    row: i + 2,
    uniqueKey: key,
    values: { customerPoNumber: key, customerName: customer },
    trackingNumbers: [`1Z${key}`],
    keep: [],
  }));
}

async function customers(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    "select customer_name as name from orders order by unique_key",
  );
  return rows.map((row) => row.name);
}

Deno.test("the import's stage and kept statements carry nothing from one transaction to the next", async (t) => {
  const { db, close } = await openTestDb({ poolSize: 1 });
  try {
    const sourceId = await insertOrderSource(db);
    const at = new Date();
    const upsert = (tx: Db, list: OrderRecord[]) => upsertOrders(tx, sourceId, list, FIELDS, at);
    await db.transaction((tx) => upsert(tx, records(["A", "B", "C"], "Ann")));

    await t.step(
      "a transaction that created the stage and rolled back leaves no trace",
      async () => {
        await assert.rejects(
          db.transaction(async (tx) => {
            await upsert(tx, records(["A", "B", "C"], "Bob"));
            throw new Error("the run failed after its rows");
          }),
          /the run failed/,
        );
        assert.deepEqual(await customers(db), ["Ann", "Ann", "Ann"]);
        // The stage is created again, and the kept statements that read it find the new one.
        const counts = await db.transaction((tx) => upsert(tx, records(["A", "B"], "Cid")));
        assert.equal(counts.updated, 2);
        assert.deepEqual(await customers(db), ["Cid", "Cid", "Ann"]);
      },
    );

    await t.step("the next transaction's stage is empty", async () => {
      const counts = await db.transaction((tx) => upsert(tx, records(["C"], "Dee")));
      assert.deepEqual(
        { updated: counts.updated, unchanged: counts.unchanged },
        { updated: 1, unchanged: 0 },
      );
      assert.deepEqual(await customers(db), ["Cid", "Cid", "Dee"]);
    });

    await t.step("two merges in one transaction count only their own records", async () => {
      const [first, second] = await db.transaction(async (tx) => [
        await upsert(tx, records(["A", "B"], "Eve")),
        await upsert(tx, records(["C"], "Dee")),
      ]);
      assert.equal(first.updated, 2);
      assert.deepEqual(
        { updated: second.updated, unchanged: second.unchanged },
        { updated: 0, unchanged: 1 },
      );
      assert.deepEqual(await customers(db), ["Eve", "Eve", "Dee"]);
    });
  } finally {
    await close();
  }
});

Deno.test("a merge writes the orders that changed and marks the others seen, in batches of either kind or both", async () => {
  const { db, close } = await openTestDb({ poolSize: 1 });
  try {
    const sourceId = await insertOrderSource(db);
    const at = (day: number) => new Date(Date.UTC(2026, 10, day));
    const upsert = (list: OrderRecord[], day: number) =>
      db.transaction((tx) => upsertOrders(tx, sourceId, list, FIELDS, at(day)));
    const state = async () =>
      await db.query<{ key: string; customer: string; tracking: string; seen: string | null }>(
        `select o.unique_key as key, o.customer_name as customer,
                (select string_agg(t.tracking_number, ',' order by t.id)
                   from tracking_numbers t where t.order_id = o.id) as tracking,
                to_char(s.seen_at at time zone 'UTC', 'DD') as seen
           from orders o left join order_seen s on s.order_id = o.id order by o.unique_key`,
      );
    await upsert(records(["A", "B", "C"], "Ann"), 1);

    // Both kinds in one batch: A changes, B is only seen.
    const changedA = records(["A"], "Bob");
    changedA[0].trackingNumbers = ["1ZA", "1ZA2"];
    let counts = await upsert([...changedA, ...records(["B"], "Ann")], 2);
    assert.deepEqual([counts.updated, counts.unchanged], [1, 1]);
    assert.deepEqual(await state(), [
      { key: "A", customer: "Bob", tracking: "1ZA,1ZA2", seen: null },
      { key: "B", customer: "Ann", tracking: "1ZB", seen: "02" },
      { key: "C", customer: "Ann", tracking: "1ZC", seen: null },
    ]);

    // Only unchanged orders: seen, nothing written.
    counts = await upsert(records(["C"], "Ann"), 3);
    assert.deepEqual([counts.updated, counts.unchanged], [0, 1]);
    // Only changed orders: written, and B's seen mark stays where it was.
    const changedB = records(["B"], "Cid");
    changedB[0].trackingNumbers = ["1ZB9"];
    counts = await upsert(changedB, 4);
    assert.deepEqual([counts.updated, counts.unchanged], [1, 0]);
    assert.deepEqual(await state(), [
      { key: "A", customer: "Bob", tracking: "1ZA,1ZA2", seen: null },
      { key: "B", customer: "Cid", tracking: "1ZB9", seen: "02" },
      { key: "C", customer: "Ann", tracking: "1ZC", seen: "03" },
    ]);
  } finally {
    await close();
  }
});

Deno.test("no kept statement of the import reads orders or tracking numbers", async () => {
  // A plan kept while `orders` was small reads it whole ever after: a 40,000-row import into a
  // table of 2,000 orders took 50 s instead of 20 on PGlite when the statements joining the stage
  // to `orders` were kept (PGlite never analyzes on its own, so the plan is never made again).
  const { db, close } = await openTestDb({ poolSize: 1 });
  try {
    const sourceId = await insertOrderSource(db);
    const kept: string[] = [];
    const watched = (tx: Db): Db => ({
      ...tx,
      query: (sql, params, options) => {
        if (options?.prepare) kept.push(sql);
        return tx.query(sql, params, options);
      },
    });
    const at = new Date();
    await db.transaction((tx) =>
      upsertOrders(watched(tx), sourceId, records(["A", "B"], "Ann"), FIELDS, at)
    );
    await db.transaction((tx) =>
      upsertOrders(watched(tx), sourceId, records(["A", "C"], "Bob"), FIELDS, at)
    );
    assert.ok(kept.length >= 5, `only ${kept.length} statements were kept`);
    const reads = /\b(from|join|using)\s+(orders|tracking_numbers)\b/i;
    assert.deepEqual(kept.filter((sql) => reads.test(sql)), []);
  } finally {
    await close();
  }
});

Deno.test("inserting first or looking keys up first gives the same orders and counts", async () => {
  const { db, close } = await openTestDb({ poolSize: 1 });
  try {
    const outcomes = [];
    for (const expectNew of [false, true]) {
      const sourceId = await insertOrderSource(db, `Source ${expectNew}`);
      const upsert = (list: OrderRecord[], day: number) =>
        db.transaction((tx) =>
          upsertOrders(tx, sourceId, list, FIELDS, new Date(Date.UTC(2026, 10, day)), expectNew)
        );
      await upsert(records(["A", "B", "C", "D"], "Ann"), 1);
      // D deleted on day 2: a file received on day 3 restores it.
      await db.query(
        `update orders set deleted_status = true, active_status = false,
                deleted_at = '2026-11-02' where order_tracking_source_id = $1 and unique_key = 'D'`,
        [sourceId],
      );
      // New (E, F), changed (A), unchanged (B), restored (D) in one batch.
      const counts = await upsert(
        [...records(["A"], "Bob"), ...records(["B", "D", "E", "F"], "Ann")],
        3,
      );
      const rows = await db.query(
        `select o.unique_key as key, o.customer_name as customer, o.deleted_status as deleted,
                (select string_agg(t.tracking_number, ',') from tracking_numbers t
                  where t.order_id = o.id) as tracking
           from orders o where o.order_tracking_source_id = $1 order by o.unique_key`,
        [sourceId],
      );
      outcomes.push({ counts, rows });
    }
    assert.deepEqual(outcomes[0].counts, {
      inserted: 2,
      updated: 1,
      restored: 1,
      unchanged: 1,
      stillDeleted: 0,
    });
    assert.equal(outcomes[0].rows.length, 6);
    assert.deepEqual(outcomes[1], outcomes[0]);
  } finally {
    await close();
  }
});
