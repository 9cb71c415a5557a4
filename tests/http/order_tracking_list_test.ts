/**
 * Contract tests of /api/order-tracking/* over real HTTP: search fields, AND/OR, sorting,
 * paging, detail, notes, delete, bad inputs and permissions; deep pages (read from seek points,
 * docs/order_tracking.md "Deep pages") against an offset query, and the result window's 400.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { searchWhere, sortClause } from "../../api/order_tracking/search.ts";
import type { Order, OrderDetail } from "../../shared/contract/order_tracking.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { createSource, csv, importFile } from "../support/order_tracking.ts";
import { upload } from "../support/inventory.ts";

const HEADERS = [
  "PO #",
  "SKU",
  "Customer",
  "Ship To",
  "Vendor",
  "Brand",
  "Tracking",
  "Qty Ordered",
];
// PO, item, customer, ship to, supplier, brand, tracking, qty
const ROWS = [
  ["PO-100", "WIDGET-1", "Alice Smith", "Alice Home", "Northwind", "Contoso", "1ZAAA;1ZBBB", "5"],
  ["PO-101", "WIDGET-2", "Bob Jones", "Warehouse 9", "Northwind", "Fabrikam", "1ZCCC", "3"],
  ["PO-102", "GADGET-1", "carol king", "Alice Annex", "Adventure Works", "Contoso", "", "3"],
  ["PO-103", "GADGET-2", "Dan Brown", "Dan Brown", "adventure works", "Litware", "9400X", ""],
  ["XX-104", "100%_OFF", "Eve Adams", "Eve Adams", "Tailspin", "Contoso", "1ZDDD", "10"],
  ["XX-105", "100X-OFF", "Frank Ocean", "Frank Ocean", "Tailspin", "Fabrikam", "", "1"],
];

interface ListAnswer {
  orders: Order[];
  totalRecordCount: number;
}

async function search(client: TestClient, body: Record<string, unknown>): Promise<ListAnswer> {
  const response = await client.post("/api/order-tracking/list", {
    PageSize: 10,
    PageIndex: 1,
    ...body,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as ListAnswer;
}

const pos = (answer: ListAnswer) => answer.orders.map((o) => o.customerPoNumber);
const sortedPos = (answer: ListAnswer) => pos(answer).sort();

Deno.test("order tracking list contract", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    await importFile(server.db, source, csv([HEADERS, ...ROWS]));
    // A deleted order never shows, whatever the search.
    await importFile(server.db, source, csv([HEADERS, ["PO-199", "WIDGET-9", "Alice Gone"]]));
    const gone = (await search(admin, { PoNumberParam: "PO-199" })).orders[0];
    assert.equal((await admin.post(`/api/order-tracking/delete/${gone.id}`)).status, 204);

    await t.step("no terms lists every live order, newest first, with the total", async () => {
      const answer = await search(admin, {});
      assert.equal(answer.totalRecordCount, 6);
      assert.deepEqual(pos(answer), ["XX-105", "XX-104", "PO-103", "PO-102", "PO-101", "PO-100"]);
      assert.deepEqual(Object.keys(answer.orders[0]), [
        "id",
        "accountNumber",
        "brandName",
        "customerName",
        "customerNumber",
        "customerPoNumber",
        "documentNumber",
        "estimatedArrivalDate",
        "itemNumber",
        "itemStatus",
        "lineStatus",
        "notes",
        "orderDate",
        "poDate",
        "qty",
        "qtyFulfilled",
        "shipToName",
        "shippedDate",
        "supplierName",
        "supplierOrderStatus",
        "trackingNumbers",
        "wildcard1",
        "wildcard2",
      ]);
      const first = answer.orders.find((o) => o.customerPoNumber === "PO-100")!;
      assert.deepEqual(first.trackingNumbers.map((n) => n.trackingNumber), ["1ZAAA", "1ZBBB"]);
      assert.equal(typeof first.trackingNumbers[0].id, "number");
    });

    await t.step(
      "each search field matches a case-insensitive substring of its column",
      async () => {
        const cases: [Record<string, unknown>, string[]][] = [
          [{ PoNumberParam: "po-10" }, ["PO-100", "PO-101", "PO-102", "PO-103"]],
          [{ ItemNumberParam: "gadget" }, ["PO-102", "PO-103"]],
          [{ TrackingNumberParam: "1zb" }, ["PO-100"]],
          [{ TrackingNumberParam: "1Z" }, ["PO-100", "PO-101", "XX-104"]],
          [{ ShipToNameParam: "alice" }, ["PO-100", "PO-102"]],
          [{ ShipToNameParam: "CAROL" }, ["PO-102"]],
          [{ SupplierNameParam: "ADVENTURE" }, ["PO-102", "PO-103"]],
          [{ BrandNameParam: "fabri" }, ["PO-101", "XX-105"]],
          [{ PoNumberParam: "nothing-like-this" }, []],
        ];
        for (const [terms, expected] of cases) {
          const answer = await search(admin, terms);
          assert.deepEqual(sortedPos(answer), expected, JSON.stringify(terms));
          assert.equal(answer.totalRecordCount, expected.length, JSON.stringify(terms));
        }
      },
    );

    await t.step("terms are trimmed, blank terms ignored, % and _ taken literally", async () => {
      assert.deepEqual(sortedPos(await search(admin, { ItemNumberParam: "  widget-2 " })), [
        "PO-101",
      ]);
      assert.equal(
        (await search(admin, { ItemNumberParam: "   ", BrandNameParam: null }))
          .totalRecordCount,
        6,
      );
      assert.deepEqual(sortedPos(await search(admin, { ItemNumberParam: "100%_" })), ["XX-104"]);
      assert.deepEqual(sortedPos(await search(admin, { ItemNumberParam: "0x_off" })), []);
    });

    await t.step(
      "terms combine with OR by default and with AND when AndOrParam is true",
      async () => {
        const terms = { BrandNameParam: "contoso", SupplierNameParam: "northwind" };
        const or = ["PO-100", "PO-101", "PO-102", "XX-104"];
        assert.deepEqual(sortedPos(await search(admin, terms)), or);
        assert.deepEqual(sortedPos(await search(admin, { ...terms, AndOrParam: false })), or);
        assert.deepEqual(sortedPos(await search(admin, { ...terms, AndOrParam: true })), [
          "PO-100",
        ]);
        const three = {
          PoNumberParam: "PO",
          ShipToNameParam: "alice",
          TrackingNumberParam: "1Z",
        };
        assert.deepEqual(sortedPos(await search(admin, { ...three, AndOrParam: true })), [
          "PO-100",
        ]);
        assert.deepEqual(sortedPos(await search(admin, { ...three, AndOrParam: false })), [
          "PO-100",
          "PO-101",
          "PO-102",
          "PO-103",
          "XX-104",
        ]);
      },
    );

    await t.step("SortParams sorts by its columns in order, text ignoring case", async () => {
      assert.deepEqual(
        pos(await search(admin, { SortParams: { supplierName: true, customerPoNumber: false } })),
        ["PO-103", "PO-102", "PO-101", "PO-100", "XX-105", "XX-104"],
      );
      // Key order decides: qty first (missing last), then PO descending among equal qty.
      assert.deepEqual(
        pos(await search(admin, { SortParams: { QTY: false, CustomerPoNumber: false } })),
        ["XX-104", "PO-100", "PO-102", "PO-101", "XX-105", "PO-103"],
      );
      assert.deepEqual(
        pos(await search(admin, { SortParams: { customerName: true } })),
        ["PO-100", "PO-101", "PO-102", "PO-103", "XX-104", "XX-105"],
      );
      assert.deepEqual(
        pos(await search(admin, { BrandNameParam: "contoso", SortParams: { itemNumber: false } })),
        ["PO-100", "PO-102", "XX-104"],
      );
    });

    await t.step("pages are 1-based, the total counts every match", async () => {
      const body = { PageSize: 10, SortParams: { customerPoNumber: true } };
      const many = Array.from({ length: 23 }, (_, i) => [`PG-${String(i).padStart(2, "0")}`]);
      const pager = await createSource(admin, { sourceName: "Pager" });
      await importFile(server.db, pager, csv([["PO #"], ...many]));
      const page = (n: number) => search(admin, { ...body, PageIndex: n, PoNumberParam: "PG-" });
      assert.deepEqual(pos(await page(1)), many.slice(0, 10).map((r) => r[0]));
      assert.deepEqual(pos(await page(3)), many.slice(20).map((r) => r[0]));
      assert.equal((await page(3)).totalRecordCount, 23);
      assert.deepEqual(await page(4), { orders: [], totalRecordCount: 23 });
      for (const size of [10, 25, 50, 100, 250]) {
        const answer = await search(admin, { PageSize: size, PoNumberParam: "PG-" });
        assert.equal(answer.orders.length, Math.min(size, 23));
      }
    });

    await t.step("bad parameters answer 400 with a message", async () => {
      const cases: [unknown, RegExp][] = [
        [{ PageSize: 20, PageIndex: 1 }, /Page size must be one of 10, 25, 50, 100, 250/],
        [{ PageSize: 10, PageIndex: 0 }, /Page index starts at 1/],
        [{ PageSize: 10 }, /PageIndex/],
        [{ PageSize: "ten", PageIndex: 1 }, /PageSize/],
        [{ PageSize: 10, PageIndex: 1, AndOrParam: "yes" }, /AndOrParam/],
        [
          { PageSize: 10, PageIndex: 1, SortParams: { bogus: true } },
          /Unknown sort column "bogus"/,
        ],
        [{ PageSize: 10, PageIndex: 1, SortParams: { qty: "up" } }, /SortParams/],
        [{ PageSize: 10, PageIndex: 1, PoNumberParam: "x".repeat(201) }, /at most 200/],
      ];
      for (const [body, message] of cases) {
        const response = await admin.post("/api/order-tracking/list", body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.match((response.body as { message: string }).message, message);
      }
      const raw = await admin.request("POST", "/api/order-tracking/list", {
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      });
      assert.equal(raw.status, 400);
    });

    await t.step("the detail has every field plus lastUpdated and the bookkeeping", async () => {
      const listed = (await search(admin, { PoNumberParam: "PO-100" })).orders[0];
      const response = await admin.get(`/api/order-tracking/order/${listed.id}`);
      assert.equal(response.status, 200);
      const detail = response.body as OrderDetail;
      assert.deepEqual({ ...detail, lastUpdated: undefined, orderTrackingSourceId: undefined }, {
        ...listed,
        lastUpdated: undefined,
        orderTrackingSourceId: undefined,
        activeStatus: true,
        deletedStatus: false,
      });
      assert.equal(detail.orderTrackingSourceId, source);
      assert.ok(Math.abs(Date.parse(detail.lastUpdated) - Date.now()) < 3_600_000);
      assert.equal((await admin.get("/api/order-tracking/order/999999")).status, 404);
      assert.equal((await admin.get("/api/order-tracking/order/abc")).status, 400);
      const deleted = await admin.get(`/api/order-tracking/order/${gone.id}`);
      assert.equal((deleted.body as OrderDetail).deletedStatus, true);
    });

    await t.step("notes are saved, cleared, and checked", async () => {
      const order = (await search(admin, { PoNumberParam: "PO-101" })).orders[0];
      const saved = await admin.post("/api/order-tracking/notes", {
        OrderId: order.id,
        Note: "Left at door",
      });
      assert.equal(saved.status, 200);
      const read = async () =>
        ((await admin.get(`/api/order-tracking/order/${order.id}`)).body as OrderDetail).notes;
      assert.equal(await read(), "Left at door");
      await admin.post("/api/order-tracking/notes", { orderId: order.id, note: "" });
      assert.equal(await read(), null);
      const missing = await admin.post("/api/order-tracking/notes", { orderId: 999999, note: "x" });
      assert.equal(missing.status, 404);
      const long = await admin.post("/api/order-tracking/notes", {
        orderId: order.id,
        note: "x".repeat(4001),
      });
      assert.equal(long.status, 400);
      assert.match((long.body as { message: string }).message, /at most 4000/);
      assert.equal(await read(), null);
    });

    await t.step("delete removes the order from the list; unknown ids are 404", async () => {
      const order = (await search(admin, { PoNumberParam: "XX-105" })).orders[0];
      assert.equal((await admin.post(`/api/order-tracking/delete/${order.id}`)).status, 204);
      assert.equal((await search(admin, { PoNumberParam: "XX-105" })).totalRecordCount, 0);
      assert.equal((await admin.post("/api/order-tracking/delete/999999")).status, 404);
    });

    await t.step("only orderUser may read or change orders", async () => {
      await server.createUser({ username: "ollie", password: "ollie-password", orderUser: true });
      await server.createUser({
        username: "nora",
        password: "nora-password",
        inventoryUser: true,
        submissionUser: true,
      });
      const orderUser = testClient(server.url);
      await orderUser.login("ollie", "ollie-password");
      assert.equal((await search(orderUser, {})).totalRecordCount, 28);
      const other = testClient(server.url);
      await other.login("nora", "nora-password");
      const stranger = testClient(server.url);
      const order = (await search(admin, { PoNumberParam: "PO-102" })).orders[0];
      const calls: [string, string, unknown][] = [
        ["POST", "/api/order-tracking/list", { PageSize: 10, PageIndex: 1 }],
        ["GET", `/api/order-tracking/order/${order.id}`, undefined],
        ["POST", "/api/order-tracking/notes", { orderId: order.id, note: "hacked" }],
        ["POST", `/api/order-tracking/delete/${order.id}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        assert.equal((await other.request(method, path, { body })).status, 403, path);
        assert.equal((await stranger.request(method, path, { body })).status, 401, path);
      }
      const after = (await search(admin, { PoNumberParam: "PO-102" })).orders[0];
      assert.equal(after.notes, null);
    });
  } finally {
    await server.close();
  }
});

Deno.test("order list: deep pages are exactly the rows of an offset query", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    // 3,000 orders with many ties and empty values in the sort columns, so that the id's
    // tie-break decides most page boundaries.
    await server.db.query(
      `insert into orders (order_tracking_source_id, unique_key, customer_po_number, item_number,
         supplier_name, brand_name, qty, order_date, notes, tracking_search)
       select $1, 'K' || i, 'PO-' || (i % 40), case when i % 5 = 0 then null else 'SKU-' || (i % 9) end,
              'Supplier ' || (i % 3), case when i % 4 = 0 then null else 'Brand ' || (i % 6) end,
              case when i % 7 = 0 then null else i % 4 end,
              case when i % 6 = 0 then null else date '2024-01-01' + (i % 5) end,
              case when i % 50 = 0 then 'note ' || (i % 2) end, '1Z' || (i % 11)
         from generate_series(1, 3000) as i`,
      [source],
    );
    await server.db.query(`update orders set deleted_status = true where id % 97 = 0`);
    await server.db.exec("analyze orders");

    const sortColumn = fc.constantFrom(
      "id",
      "customerPoNumber",
      "itemNumber",
      "brandName",
      "qty",
      "orderDate",
      "notes",
      "trackingNumbers",
      "lastUpdated",
    );
    const request = fc.record({
      terms: fc.dictionary(
        fc.constantFrom("SupplierNameParam", "BrandNameParam", "PoNumberParam"),
        fc.constantFrom("supplier", "Supplier 1", "brand", "1", "PO-3"),
        { maxKeys: 2 },
      ),
      and: fc.boolean(),
      sort: fc.array(fc.tuple(sortColumn, fc.boolean()), { maxLength: 2 }),
      size: fc.constantFrom(10, 25, 50, 250),
      // pages in any order: a page is read from whichever seek point the earlier ones left
      pages: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
    });
    const check = async (
      { terms, and, sort, size, pages }: {
        terms: Record<string, string>;
        and: boolean;
        sort: [string, boolean][];
        size: number;
        pages: number[];
      },
    ) => {
      const body = { ...terms, AndOrParam: and, SortParams: Object.fromEntries(sort) };
      const where = searchWhere({ PageSize: size, PageIndex: 1, ...body });
      const all = await server.db.query<{ id: number }>(
        `select o.id from orders o where ${where.sql} order by ${sortClause(body.SortParams)}`,
        where.params,
      );
      const last = Math.max(1, Math.ceil(all.length / size));
      for (const at of [...pages, 1]) {
        const page = 1 + Math.floor(at * (last - 1));
        const answer = await search(admin, { ...body, PageSize: size, PageIndex: page });
        assert.deepEqual(
          answer.orders.map((o) => o.id),
          all.slice((page - 1) * size, page * size).map((r) => Number(r.id)),
          `page ${page} of ${JSON.stringify(body)} at ${size}`,
        );
        assert.equal(answer.totalRecordCount, all.length);
      }
    };

    await t.step("first, middle, last and random pages in any order", async () => {
      await fc.assert(fc.asyncProperty(request, check), { numRuns: 60 });
    });

    await t.step("after a delete and a note, deep pages follow the change", async () => {
      const sorted = { SortParams: { qty: false }, PageSize: 50 };
      const before = await search(admin, { ...sorted, PageIndex: 40 });
      await search(admin, { ...sorted, PageIndex: 58 });
      const first = (await search(admin, { ...sorted, PageIndex: 1 })).orders[0];
      assert.equal((await admin.post(`/api/order-tracking/delete/${first.id}`)).status, 204);
      const after = await search(admin, { ...sorted, PageIndex: 40 });
      // one order fewer before page 40: its rows move up by one
      assert.deepEqual(
        after.orders.slice(0, 49).map((o) => o.id),
        before.orders.slice(1).map((o) => o.id),
      );
      const noted = (await search(admin, { ...sorted, PageIndex: 30 })).orders[0];
      // Pages sorted by notes read before the note (their points remembered) move with it.
      await check({ terms: {}, and: false, sort: [["notes", true]], size: 25, pages: [0.9, 0.5] });
      await admin.post("/api/order-tracking/notes", { orderId: noted.id, note: "aaa first" });
      await check({ terms: {}, and: false, sort: [["notes", true]], size: 25, pages: [0.9, 0.5] });
      await check({ terms: {}, and: false, sort: [["qty", false]], size: 50, pages: [0.7, 1] });

      // An import over the API in two batches of orders that sort first: once it is in, deep
      // pages read before it are the offset's pages of the new data.
      const byPo = {
        terms: {},
        and: false,
        sort: [["customerPoNumber", true]] as [string, boolean][],
      };
      await check({ ...byPo, size: 50, pages: [0.8, 0.4] });
      const rows = Array.from(
        { length: 130 },
        (_, i) => [`AAA-${1000 + i}`, "SKU-X", "Cy", "Cy", "Sup", "Br", "", "1"],
      );
      const imported = await upload(
        admin,
        server.url,
        `/api/order-tracking-sources/${source}/import`,
        { name: "orders.csv", bytes: new TextEncoder().encode(csv([HEADERS, ...rows])) },
        {},
      );
      assert.equal((imported.body as { status: string }).status, "succeeded");
      await check({ ...byPo, size: 50, pages: [0.8, 0.4] });
    });

    await t.step("a page past the first 10,000 results is a 400 saying to narrow", async () => {
      for (const [size, page] of [[10, 1001], [50, 201], [250, 41], [25, 999_999]]) {
        const response = await admin.post("/api/order-tracking/list", {
          PageSize: size,
          PageIndex: page,
        });
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, {
          message: `Page ${
            page.toLocaleString("en-US")
          } is beyond the first 10,000 results; narrow the search (add terms) to see more.`,
        });
      }
      // the last page inside the window is served (here past the last row: no rows)
      assert.deepEqual((await search(admin, { PageSize: 50, PageIndex: 200 })).orders, []);
    });
  } finally {
    await server.close();
  }
});
