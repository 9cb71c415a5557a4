import assert from "node:assert/strict";
import { pageCount, pageText, totalText } from "./pager_text.ts";

Deno.test("the pager says 'more than' when the count is capped", () => {
  assert.equal(pageText(1, pageCount(10_000, 50), true), "Page 1 of more than 200");
  assert.equal(totalText(10_000, true), "More than 10,000 orders");
  assert.equal(pageText(3, pageCount(23, 10), false), "Page 3 of 3");
  assert.equal(pageText(1, pageCount(0, 10), false), "Page 1 of 1");
  assert.equal(totalText(1, false), "1 order");
  assert.equal(totalText(1234, false), "1,234 orders");
  assert.equal(pageCount(10_001, 25), 401);
});
