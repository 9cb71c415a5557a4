import assert from "node:assert/strict";
import { detectHeaderIndex } from "./header_row.ts";

Deno.test("detectHeaderIndex skips title, date and note rows above the header", () => {
  const cases: [string[][], number][] = [
    [[["Item", "Qty", "Status"], ["1", "5", "Active"]], 0],
    [[["Stock report"], ["Generated", "2024-03-05"], ["Item", "Qty", "Status", "Price"], [
      "1",
      "5",
      "",
      "",
    ]], 2],
    [[["Supplier:", "ACME"], ["Item", "Description", "Qty", "Price", "Date"], [
      "1",
      "",
      "5",
      "",
      "",
    ]], 1],
    // Numbers are data, not headers, even in a full-width row.
    [[["Week 12"], ["1", "2", "3"], ["Item", "Qty", "Status"]], 2],
    [[["1", "2"], ["3", "4"]], 0],
  ];
  for (const [rows, expected] of cases) {
    assert.equal(detectHeaderIndex(rows), expected, JSON.stringify(rows));
  }
});
