/**
 * A broad search's first page is counted once: while no write may have removed matches, the
 * "more than 10,000" it found holds and the next visit reads only the page; a delete (or an
 * import that writes orders) makes the count run again. The page starts (seek points) are kept
 * and forgotten by the same writes.
 */
import assert from "node:assert/strict";
import { openTestDb, recordingDb } from "../../tests/support/db.ts";
import { csv, importFile, insertOrderSource } from "../../tests/support/order_tracking.ts";
import { COUNT_CAP, searchOrders } from "./search.ts";
import { forgetSeekPoints } from "./page_seek.ts";
import { createSource } from "../../bench/order_tracking_bench.ts";

const counts = (statements: string[]) =>
  statements.filter((sql) => sql.startsWith("select count(*)"));

Deno.test("a broad search's count past its bound is not read again until a write", async () => {
  const { db, close } = await openTestDb();
  try {
    const sourceId = await insertOrderSource(db, "Counted");
    await db.query(
      `insert into orders (order_tracking_source_id, unique_key, customer_po_number)
       select $1, 'k' || i, 'PO-' || i from generate_series(1, $2::int) as i`,
      [sourceId, COUNT_CAP + 20],
    );
    forgetSeekPoints();
    const firstPage = { PageSize: 50, PageIndex: 1, AndOrParam: true };
    const cases: [string, () => Promise<unknown>, number, boolean, number][] = [
      ["the first visit counts", async () => {}, COUNT_CAP, true, 1],
      ["the next visit does not", async () => {}, COUNT_CAP, true, 0],
      [
        "after a delete it counts again",
        async () => {
          await db.query("delete from orders where id > 200");
          forgetSeekPoints(); // as deleteOrder and the deletion job do once the rows are gone
        },
        200,
        false,
        1,
      ],
    ];
    // One handle throughout, as the server has: what a search remembers is kept per database.
    const watched = recordingDb(db);
    for (const [label, write, total, capped, counted] of cases) {
      await write();
      watched.statements.length = 0;
      const answer = await searchOrders(watched.db, firstPage, null);
      assert.equal(answer.totalRecordCount, total, label);
      assert.equal(answer.countCapped ?? false, capped, label);
      assert.equal(counts(watched.statements).length, counted, label);
    }
  } finally {
    await close();
  }
});

Deno.test("an import that writes no order keeps the list's page starts; one that does forgets them", async () => {
  const { db, close } = await openTestDb();
  try {
    const source = await createSource(db);
    const file = (changed: string) =>
      csv([
        ["PO Number", "Item Number"],
        ...Array.from({ length: 160 }, (_, i) => [`PO-${i}`, i === 7 ? changed : `SKU-${i}`]),
      ]);
    const page3 = {
      PageSize: 50,
      PageIndex: 3,
      AndOrParam: true,
      SortParams: { customerPoNumber: true },
    };
    const watched = recordingDb(db);
    // A page read from a remembered start names that order (`afterPoint`); a walk does not.
    const seeks = () => watched.statements.some((sql) => sql.includes("from orders b where b.id"));
    const cases: [string, string, boolean][] = [
      ["the first import: page 3 is walked", "SKU-7", false],
      ["the same file again: page 3 starts from its remembered start", "SKU-7", true],
      ["one order changed: page 3 is walked again", "SKU-7b", false],
      ["that file again: remembered", "SKU-7b", true],
    ];
    for (const [label, item7, seek] of cases) {
      await importFile(db, source, file(item7));
      watched.statements.length = 0;
      const answer = await searchOrders(watched.db, page3, null);
      assert.equal(answer.orders.length, 50, label);
      assert.equal(seeks(), seek, label);
    }
  } finally {
    await close();
  }
});
