import assert from "node:assert/strict";
import { orderListPatch, readOrderListQuery } from "./list_query.ts";

Deno.test("the order list's state reads back from its query string", () => {
  const query = readOrderListQuery(new URLSearchParams(""));
  const patch = orderListPatch(query, {
    terms: { PoNumberParam: "PO-1" },
    matchAll: true,
    sort: [["orderDate", true], ["customerPoNumber", false]],
    pageSize: 25,
  });
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(patch)) if (value) params.set(key, value);
  assert.equal(
    params.toString(),
    "PoNumberParam=PO-1&match=and&sort=orderDate%2C-customerPoNumber&size=25",
  );
  assert.deepEqual(readOrderListQuery(params), {
    terms: { PoNumberParam: "PO-1" },
    matchAll: true,
    sort: [["orderDate", true], ["customerPoNumber", false]],
    pageIndex: 1,
    pageSize: 25,
  });
});

Deno.test("a new search goes back to page 1; paging keeps the search", () => {
  const query = readOrderListQuery(new URLSearchParams("page=3&PoNumberParam=A"));
  assert.equal(query.pageIndex, 3);
  assert.equal(orderListPatch(query, { terms: { PoNumberParam: "B" } }).page, null);
  assert.equal(orderListPatch(query, { pageSize: 50 }).page, null);
  assert.equal(orderListPatch(query, { pageIndex: 4 }).page, "4");
  assert.equal(orderListPatch(query, { pageIndex: 4 }).PoNumberParam, "A");
});

Deno.test("bad values fall back to the defaults", () => {
  const query = readOrderListQuery(new URLSearchParams("page=-2&size=7&sort=nope,-&match=x"));
  assert.deepEqual(query, { terms: {}, matchAll: false, sort: [], pageIndex: 1, pageSize: 10 });
});

Deno.test("a page past the server's result window opens the deepest page it serves", () => {
  assert.equal(readOrderListQuery(new URLSearchParams("page=5000&size=50")).pageIndex, 200);
  assert.equal(readOrderListQuery(new URLSearchParams("page=5000")).pageIndex, 1000);
  assert.equal(readOrderListQuery(new URLSearchParams("page=40&size=250")).pageIndex, 40);
});
