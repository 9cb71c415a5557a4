/**
 * The home stats read maintained counts (migration 0016): after imports, changes, restores,
 * soft and hard deletions, moved and back-dated orders, they give exactly what counting the
 * orders gives, for windows ending now, inside an hour, on an hour and in the past.
 */
import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { openTestDb } from "../../tests/support/db.ts";
import { deleteOrder, orderUpdateStats, orderUpdateStatsCounted } from "./queries.ts";
import { upsertOrders } from "./feed/upsert.ts";
import { deleteStaleOrders, pruneOrderChangeCounts } from "./feed/deletion_job.ts";
import type { OrderRecord } from "../../shared/order_files/rows.ts";

async function source(db: Db, name: string, mailboxId: number): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>(
    `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
       subject_value, attachment_name, unique_column, delete_after_days)
     values ($1, $2, 'csv', 'a@example.test', 'Orders', 'orders', 'Id', 3) returning id`,
    [name, mailboxId],
  );
  return id;
}

function records(from: number, to: number, status: string): OrderRecord[] {
  return Array.from({ length: to - from }, (_, i) => ({
    row: i + 2,
    uniqueKey: `K${from + i}`,
    values: { customerPoNumber: `PO${from + i}`, itemStatus: status },
    keep: [],
  }));
}

async function importFile(db: Db, sourceId: number, rows: OrderRecord[], at = new Date()) {
  await db.transaction((tx) =>
    upsertOrders(tx, sourceId, rows, ["customerPoNumber", "itemStatus"], at)
  );
}

/** Both answers for a window ending at each of several moments. */
async function assertSame(db: Db, what: string) {
  const [{ now }] = await db.query<{ now: Date }>("select now() as now");
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const moments = [
    now,
    new Date(now.getTime() + 60_000),
    hour,
    new Date(hour.getTime() + 1),
    new Date(now.getTime() - 3 * 3_600_000 - 17_000),
    new Date(now.getTime() + 23.5 * 3_600_000),
    new Date(now.getTime() + 30 * 3_600_000),
  ];
  for (const at of moments) {
    assert.deepEqual(
      await orderUpdateStats(db, at),
      await orderUpdateStatsCounted(db, at),
      `${what}, window ending ${at.toISOString()}`,
    );
  }
}

Deno.test("home stats: the maintained counts equal counting the orders", async () => {
  const { db, close } = await openTestDb();
  try {
    const [{ id: mailboxId }] = await db.query<{ id: number }>(
      `insert into email_sources (username, email) values ('orders', 'orders@example.test')
       returning id`,
    );
    const a = await source(db, "Alpha", mailboxId);
    const b = await source(db, "Beta", mailboxId);
    await source(db, "Empty", mailboxId);

    await importFile(db, a, records(0, 3000, "open"));
    await importFile(db, b, records(0, 500, "open"));
    await assertSame(db, "after the first imports");
    const [first] = await orderUpdateStats(db);
    assert.deepEqual(first, {
      orderTrackingSourceName: "Alpha",
      ordersUpdated: 3000,
      ordersDeleted: 0,
    });

    // Some orders changed, the rest only seen again, new ones added.
    await importFile(db, a, [...records(0, 1000, "shipped"), ...records(1000, 3500, "open")]);
    await assertSame(db, "after a second import");

    // Back-dated orders: some two days old, some in the window's edge hours.
    await db.query(
      `update orders set last_updated = now() - interval '2 days' where unique_key < 'K2'`,
    );
    await db.query(
      `update orders set last_updated = now() - interval '23 hours 59 minutes'
        where unique_key like 'K3%'`,
    );
    await db.query(
      `update orders set last_updated = now() - interval '2 hours' * (id % 30) / 7,
                         last_seen_at = now() - interval '10 days'
        where unique_key like 'K4%'`,
    );
    await assertSame(db, "after back-dating");

    // Deleted by hand (twice: the second changes nothing), by the daily job, and for good.
    const [{ id: one }] = await db.query<{ id: number }>(
      "select id from orders where unique_key = 'K5' and order_tracking_source_id = $1",
      [a],
    );
    await deleteOrder(db, one);
    await deleteOrder(db, one);
    await deleteStaleOrders(db, new Date());
    await db.query(
      "delete from orders where order_tracking_source_id = $1 and unique_key like 'K6%'",
      [b],
    );
    await assertSame(db, "after deletions");
    await pruneOrderChangeCounts(db, new Date());
    await assertSame(db, "after pruning the old counts");

    // A later file restores deleted orders; a failed import leaves the counts as they were.
    await importFile(db, a, records(4000, 4600, "again"), new Date(Date.now() + 1000));
    await assert.rejects(db.transaction(async (tx) => {
      await upsertOrders(tx, b, records(9000, 9100, "x"), ["customerPoNumber"], new Date());
      throw new Error("the import failed");
    }));
    await assertSame(db, "after a restore and a failed import");

    // An order moved to another source, then every order of a source gone.
    await db.query("update orders set order_tracking_source_id = $1 where unique_key = 'K4500'", [
      b,
    ]);
    await db.query("truncate tracking_numbers, order_seen, orders");
    await assertSame(db, "after moving and truncating");
  } finally {
    await close();
  }
});
