/**
 * The list's page starts across processes and writes: a write counted by another process is
 * noticed (`noticeListWrites`) and forgets what it moved; after an import that wrote orders, a
 * deep page read lately is walked again in the background, and reads right from it.
 */
import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { openTestDb, recordingDb } from "../../tests/support/db.ts";
import { csv, importFile } from "../../tests/support/order_tracking.ts";
import { createSource } from "../../bench/order_tracking_bench.ts";
import { searchOrders } from "./search.ts";
import type { OrderListRequest } from "../../shared/contract/order_tracking.ts";
import { countListWrite, noticeListWrites } from "./list_versions.ts";
import { forgetSeekPoints, walksDone } from "./page_seek.ts";
import { deleteOrder, saveNote } from "./queries.ts";

/** Page 3 read from its remembered start skips no row; a walk from the start skips 100. */
const seeks = (statements: string[]) => statements.some((sql) => sql.includes("w.n > 0 and"));

const orderFile = (count: number, changed = "") =>
  csv([
    ["PO Number", "Item Number"],
    ...Array.from({ length: count }, (_, i) => [`PO-${String(i).padStart(5, "0")}`, `SKU-${i}`]),
    ...(changed ? [[changed, "SKU-new"]] : []),
  ]);

/** A live order's id. */
const someId = async (db: Db) =>
  (await db.query<{ id: number }>(
    "select id from orders where not deleted_status order by id desc limit 1",
  ))[0].id;

const page = (PageIndex: number) => ({
  PageSize: 50,
  PageIndex,
  AndOrParam: true,
  SortParams: { customerPoNumber: true },
});

/** A test database with `count` orders imported, read through a recording handle. */
async function listOf(count: number) {
  const { db, close } = await openTestDb();
  const source = await createSource(db);
  const watched = recordingDb(db);
  await importFile(watched.db, source, orderFile(count));
  return { db, close, source, watched };
}

Deno.test("a write counted by another process forgets the page starts it moved", async () => {
  const { db, close, watched } = await listOf(200);
  try {
    const byNotes = { ...page(3), SortParams: { notes: false } };
    // Another process's write: counted in the database, not forgotten here. The list reads the
    // counts when its last read is a second old.
    const elsewhere = (what: "orders" | "notes") => async () => {
      await db.query(countListWrite(what));
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    };
    const cases: [string, () => Promise<void>, OrderListRequest, boolean][] = [
      ["first read: walked", async () => {}, page(3), false],
      ["read by this process before: remembered", async () => {}, page(3), true],
      ["another process's import: walked", elsewhere("orders"), page(3), false],
      ["sorted by notes, first read", async () => {}, byNotes, false],
      ["sorted by notes, read again", async () => {}, byNotes, true],
      ["another process's note, sorted by PO: remembered", elsewhere("notes"), page(3), true],
      ["another process's note, sorted by notes: walked", elsewhere("notes"), byNotes, false],
    ];
    for (const [label, write, request, seek] of cases) {
      await write();
      watched.statements.length = 0;
      const answer = await searchOrders(watched.db, request, null);
      assert.equal(answer.orders.length, 50, label);
      assert.equal(seeks(watched.statements), seek, label);
    }
  } finally {
    forgetSeekPoints();
    await walksDone();
    await close();
  }
});

Deno.test("this process's own writes count once: its next check forgets nothing more", async () => {
  const { db, close, source, watched } = await listOf(200);
  try {
    const cases: [string, () => Promise<unknown>][] = [
      ["an import that wrote orders", () => importFile(watched.db, source, orderFile(200, "PO-X"))],
      ["a delete", async () => assert.ok(await deleteOrder(watched.db, await someId(db)))],
      ["a note", async () => assert.ok(await saveNote(watched.db, await someId(db), "called"))],
    ];
    let now = Date.now();
    for (const [label, write] of cases) {
      await noticeListWrites(watched.db, now += 1_500);
      await write();
      await searchOrders(watched.db, page(3), null); // walks, and remembers
      await noticeListWrites(watched.db, now += 1_500);
      watched.statements.length = 0;
      await searchOrders(watched.db, page(3), null);
      assert.ok(seeks(watched.statements), label);
    }
  } finally {
    await walksDone();
    await close();
  }
});

Deno.test("after an import that wrote orders, a deep page read lately is walked again and reads right", async () => {
  const { db, close, source, watched } = await listOf(1_200);
  try {
    const deep = page(23); // offset 1,100: walked again after a write
    await searchOrders(watched.db, deep, null);
    // A new order sorts first and moves every page by one.
    await importFile(watched.db, source, orderFile(1_200, "PO-0"));
    await walksDone();
    watched.statements.length = 0;
    const answer = await searchOrders(watched.db, deep, null);
    assert.ok(seeks(watched.statements), "read from a start the walk remembered");
    const expected = await db.query<{ po: string }>(
      `select customer_po_number as po from orders
        order by customer_po_number, id limit 50 offset 1100`,
    );
    assert.deepEqual(
      answer.orders.map((order) => order.customerPoNumber),
      expected.map((r) => r.po),
    );
    assert.equal(answer.orders[0].customerPoNumber, "PO-01099");
  } finally {
    await walksDone();
    await close();
  }
});
