/**
 * An order as the list answers it, written from its row's JSON text (`ORDER_COLUMNS`,
 * `ordersJson`): the contract's keys in order, the tracking numbers in their place whatever the
 * values hold, numbers that JSON cannot hold as null, on both databases.
 */
import assert from "node:assert/strict";
import { openTestDb } from "../../tests/support/db.ts";
import { insertOrderSource } from "../../tests/support/order_tracking.ts";
import { orderSchema } from "../../shared/contract/order_tracking.ts";
import { idsText, ORDER_COLUMNS, type OrderRow, ordersJson } from "./order_rows.ts";

Deno.test("ordersJson: keys in the contract's order, tracking numbers in their place", async () => {
  const { db, close } = await openTestDb();
  try {
    const source = await insertOrderSource(db);
    // notes, qty, tracking numbers, and what the answer should say of them
    const cases: [string | null, string | null, string[], Record<string, unknown>][] = [
      [null, "3.50", ["1ZA", "1ZB"], { notes: null, qty: 3.5 }],
      // A value holding the place's own text stays as it is (its quotes are escaped).
      ['"trackingNumbers" : []', "NaN", ["1ZC"], { notes: '"trackingNumbers" : []', qty: null }],
      ['a, "trackingNumbers" : [] }', "Infinity", [], { notes: 'a, "trackingNumbers" : [] }' }],
    ];
    const ids: number[] = [];
    for (const [i, [notes, qty, numbers]] of cases.entries()) {
      const [{ id }] = await db.query<{ id: number }>(
        `insert into orders (order_tracking_source_id, unique_key, customer_po_number, notes, qty,
           order_date)
         values ($1, $2, $3, $4, $5::numeric, '2026-11-20 08:30:00') returning id`,
        [source, `k${i}`, `PO-${i}`, notes, qty],
      );
      for (const number of numbers) {
        await db.query("insert into tracking_numbers (order_id, tracking_number) values ($1, $2)", [
          id,
          number,
        ]);
      }
      ids.push(id);
    }
    const rows = await db.query<OrderRow>(
      `select ${ORDER_COLUMNS} from orders o where o.id = any($1::bigint[]) order by o.id`,
      [idsText(ids)],
    );
    const orders = JSON.parse(await ordersJson(db, rows));
    for (const [i, [, , numbers, expected]] of cases.entries()) {
      const order = orders[i];
      assert.deepEqual(Object.keys(order), Object.keys(orderSchema.shape));
      assert.equal(order.id, ids[i]);
      assert.equal(order.customerPoNumber, `PO-${i}`);
      assert.equal(order.orderDate, "2026-11-20T08:30:00");
      assert.deepEqual(
        order.trackingNumbers.map((t: { trackingNumber: string }) => t.trackingNumber),
        numbers,
      );
      assert.ok(order.trackingNumbers.every((t: { id: unknown }) => typeof t.id === "number"));
      assert.equal(order.notes, expected.notes);
      assert.equal(order.qty, expected.qty ?? null);
    }
    assert.equal(await ordersJson(db, []), "[]");
  } finally {
    await close();
  }
});
