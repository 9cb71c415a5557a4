/**
 * The order list's bounded count over real HTTP (docs/order_tracking.md, "Order list at
 * scale"): past 10,000 matches the answer keeps `totalRecordCount` (the bound) and adds
 * `countCapped: true`; exact counts carry no such field; a page past the last still answers the
 * real total. The orders are inserted with SQL: importing 10,050 through files would be slow.
 */
import assert from "node:assert/strict";
import type { OrderListResult } from "../../shared/contract/order_tracking.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource } from "../support/order_tracking.ts";

const ORDERS = 10_050;

Deno.test("order list: the count is exact up to 10,000 and says so when it is not", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    await server.db.query(
      `insert into orders (order_tracking_source_id, unique_key, customer_po_number,
         supplier_name, qty)
       select $1, 'K' || i, 'PO-' || lpad(i::text, 6, '0'),
              case when i % 1000 = 0 then 'Rare Supplier' else 'Supplier ' || (i % 7) end,
              case when i % 3 = 0 then null else i % 10 end
         from generate_series(1, $2::int) as i`,
      [source, ORDERS],
    );
    await server.db.exec("analyze orders");
    const list = async (body: Record<string, unknown>) => {
      const response = await admin.post("/api/order-tracking/list", {
        PageSize: 50,
        PageIndex: 1,
        ...body,
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body as OrderListResult;
    };

    await t.step("no terms: more than 10,000, countCapped", async () => {
      const answer = await list({});
      assert.equal(answer.orders.length, 50);
      assert.equal(answer.totalRecordCount, 10_000);
      assert.equal(answer.countCapped, true);
      // newest first
      assert.equal(answer.orders[0].customerPoNumber, "PO-010050");
    });

    await t.step("an exact count carries no countCapped", async () => {
      const answer = await list({ SupplierNameParam: "rare supplier" });
      assert.equal(answer.totalRecordCount, 10);
      assert.equal("countCapped" in answer, false);
      const full = await list({ SupplierNameParam: "rare supplier", PageSize: 10 });
      assert.equal(full.totalRecordCount, 10);
      assert.equal("countCapped" in full, false);
    });

    await t.step(
      "a page beyond the bound counts to its end; past the last, the real total",
      async () => {
        // page 201 of 50 is the last: rows 10,001 to 10,050
        const last = await list({ PageIndex: 201 });
        assert.equal(last.orders.length, 50);
        assert.deepEqual([last.totalRecordCount, last.countCapped], [ORDERS, undefined]);
        assert.equal(last.orders.at(-1)?.customerPoNumber, "PO-000001");
        for (const page of [202, 300]) {
          assert.deepEqual(await list({ PageIndex: page }), {
            orders: [],
            totalRecordCount: ORDERS,
          });
        }
      },
    );

    await t.step(
      "a descending sort keeps empty values last, across the two index halves",
      async () => {
        const first = await list({ SortParams: { qty: false }, PageSize: 250 });
        assert.deepEqual(first.orders.slice(0, 3).map((o) => o.qty), [9, 9, 9]);
        // ids descending among equal values: the newest order with qty 9 first
        assert.ok(first.orders[0].id > first.orders[1].id);
        // the last orders by qty descending are the empty ones, oldest last
        const ends = await list({ SortParams: { qty: false }, PageIndex: 201 });
        assert.equal(ends.orders.at(-1)?.qty, null);
        assert.equal(ends.orders.at(-1)?.customerPoNumber, "PO-000003");
      },
    );
  } finally {
    await server.close();
  }
});
