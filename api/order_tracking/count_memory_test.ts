/**
 * A broad search's first page is counted once: while no write may have removed matches, the
 * "more than 10,000" it found holds and the next visit reads only the page; a delete (or an
 * import) makes the count run again.
 */
import assert from "node:assert/strict";
import type { Db } from "../db/client.ts";
import { openTestDb } from "../../tests/support/db.ts";
import { insertOrderSource } from "../../tests/support/order_tracking.ts";
import { COUNT_CAP, searchOrders } from "./search.ts";
import { forgetSeekPoints } from "./page_seek.ts";

/** `db`, with the statements it ran written down. */
function recording(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: {
      ...db,
      query: (sql, params, options) => {
        statements.push(sql);
        return db.query(sql, params, options);
      },
    },
  };
}

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
    const watched = recording(db);
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
