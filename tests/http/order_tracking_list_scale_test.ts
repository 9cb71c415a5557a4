/**
 * The order list's bounded count over real HTTP (docs/order_tracking.md, "Order list at
 * scale"): past 10,000 matches the answer keeps `totalRecordCount` (the bound) and adds
 * `countCapped: true`; exact counts carry no such field; a page past the last still answers the
 * real total; the window's last page (200 of 50) is served and matches an offset query, the next
 * is a 400 saying to narrow the search. The orders are inserted with SQL: importing 10,050 through files would be slow.
 */
import assert from "node:assert/strict";
import type { OrderListResult } from "../../shared/contract/order_tracking.ts";
import { searchWhere, sortClause } from "../../api/order_tracking/search.ts";
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
      "the last page of the window is served; the next one is a 400 saying to narrow",
      async () => {
        // page 200 of 50: rows 9,951 to 10,000, newest first
        const last = await list({ PageIndex: 200 });
        assert.equal(last.orders.length, 50);
        assert.deepEqual([last.totalRecordCount, last.countCapped], [10_000, true]);
        assert.equal(last.orders.at(-1)?.customerPoNumber, "PO-000051");
        for (const [size, page] of [[50, 201], [10, 1001], [100, 101]]) {
          const response = await admin.post("/api/order-tracking/list", {
            PageSize: size,
            PageIndex: page,
          });
          assert.equal(response.status, 400);
          assert.equal(
            (response.body as { message: string }).message,
            `Page ${
              page.toLocaleString("en-US")
            } is beyond the first 10,000 results; narrow the search (add terms) to see more.`,
          );
        }
        // the oldest orders are the first of the reverse sort
        const oldest = await list({ SortParams: { id: true } });
        assert.equal(oldest.orders[0].customerPoNumber, "PO-000001");
      },
    );

    await t.step("deep pages of a broad search are the rows of an offset query", async () => {
      const where = searchWhere({ PageSize: 50, PageIndex: 1, SupplierNameParam: "supplier" });
      for (
        const [sort, order] of [[{}, "o.id desc"], [{ qty: false }, null], [
          { qty: true },
          null,
        ]] as const
      ) {
        const expected = await server.db.query<{ id: number }>(
          `select o.id from orders o where ${where.sql}
            order by ${order ?? sortClause(sort)} limit 10000`,
          where.params,
        );
        for (const page of [200, 100, 1, 150, 199]) {
          const answer = await list({
            SupplierNameParam: "supplier",
            SortParams: sort,
            PageIndex: page,
          });
          assert.deepEqual(
            answer.orders.map((o) => o.id),
            expected.slice((page - 1) * 50, page * 50).map((r) => Number(r.id)),
            `page ${page} by ${JSON.stringify(sort)}`,
          );
        }
      }
    });

    await t.step(
      "a descending sort keeps empty values last, across the two index halves",
      async () => {
        const first = await list({ SortParams: { qty: false }, PageSize: 250 });
        assert.deepEqual(first.orders.slice(0, 3).map((o) => o.qty), [9, 9, 9]);
        // ids descending among equal values: the newest order with qty 9 first
        assert.ok(first.orders[0].id > first.orders[1].id);
        // the last orders by qty descending are the empty ones, oldest last
        // the last orders by qty descending are the empty ones, oldest last: first when reversed
        const ends = await list({ SortParams: { qty: true }, PageIndex: 1 });
        assert.equal(ends.orders[0].qty, 0);
        const empties = await server.db.query<{ n: number }>(
          "select count(*)::int as n from orders where qty is null",
        );
        // page 200 holds the rows 9,951 to 10,000 of 10,050: empty ones, newest first
        const deep = await list({ SortParams: { qty: false }, PageIndex: 200 });
        assert.ok(empties[0].n > 50);
        assert.ok(deep.orders.every((o) => o.qty === null));
        assert.equal(deep.orders.at(-1)?.customerPoNumber, "PO-000153");
      },
    );
  } finally {
    await server.close();
  }
});
