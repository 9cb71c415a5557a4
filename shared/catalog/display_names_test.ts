import assert from "node:assert/strict";
import { UNIQUE_COLUMNS } from "../contract/order_tracking.ts";
import { SOURCE_TYPES } from "../contract/notifications.ts";
import { countLabel, countsText, sourceTypeLabel, uniqueColumnLabel } from "./display_names.ts";

Deno.test("every unique-column choice reads as the order list's column title", () => {
  assert.equal(uniqueColumnLabel("QTYFulfilled"), "Qty Fulfilled");
  assert.equal(uniqueColumnLabel("CustomerPoNumber"), "Customer PO Number");
  for (const choice of UNIQUE_COLUMNS) {
    assert.notEqual(uniqueColumnLabel(choice), choice, choice);
    assert.doesNotMatch(uniqueColumnLabel(choice), /[a-z][A-Z]/, choice);
  }
});

Deno.test("source types read as words", () => {
  for (const name of Object.values(SOURCE_TYPES)) {
    assert.doesNotMatch(sourceTypeLabel(name), /[a-z][A-Z]/, name);
  }
  assert.equal(sourceTypeLabel("OrderSubmission"), "Order Submission");
});

Deno.test("counts read as words, also ones no feed records yet", () => {
  assert.equal(countLabel("rowErrors"), "Row errors");
  assert.equal(countLabel("someNewCount"), "Some new count");
  assert.equal(countsText({ rows: 3, alreadySentRows: 1 }), "Rows: 3, Rows already sent: 1");
  assert.equal(countsText(null), "");
});
