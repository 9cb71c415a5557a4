import assert from "node:assert/strict";
import type { Table } from "../../../shared/files/mod.ts";
import { readRecords, splitTrackingNumbers } from "./rows.ts";

Deno.test("splitTrackingNumbers", async (t) => {
  const cases: [string, string | null, string[]][] = [
    ["1Z1;1Z2", ";", ["1Z1", "1Z2"]],
    [" 1Z1 ; 1z1 ;; N/A ;940", ";", ["1Z1", "940"]],
    ["1Z1;1Z2", null, ["1Z1;1Z2"]],
    ["1Z1|1Z2", "|", ["1Z1", "1Z2"]],
    ["", ";", []],
    ["1Z1\n1Z2", ",", ["1Z1", "1Z2"]],
  ];
  for (const [cell, delimiter, expected] of cases) {
    await t.step(`${JSON.stringify(cell)} on ${JSON.stringify(delimiter)}`, () => {
      assert.deepEqual(splitTrackingNumbers(cell, delimiter), expected);
    });
  }
});

function table(rows: string[][], decimalComma = false): Table {
  return {
    format: "csv",
    encoding: "utf-8",
    bom: false,
    delimiter: decimalComma ? ";" : ",",
    sheet: null,
    sheets: [],
    decimalComma,
    date1904: false,
    headerRow: 1,
    headers: ["PO", "Date", "Qty", "Tracking"],
    rows,
    rowNumbers: rows.map((_, i) => i + 2),
    errors: [],
  };
}

const columns = { customerPoNumber: 0, orderDate: 1, qty: 2, trackingNumbers: 3 };

Deno.test("readRecords types cells and reports what it cannot read", () => {
  const result = readRecords(
    table([
      [" PO-1 ", "3/5/2024", "1,234.5", "A;B"],
      ["PO-2", "2024-13-01", "n/a", ""],
      ["", "3/5/2024", "1", ""],
    ]),
    columns,
    "customerPoNumber",
    ";",
  );
  assert.deepEqual(result.records, [
    {
      row: 2,
      uniqueKey: "PO-1",
      values: { customerPoNumber: "PO-1", orderDate: "2024-03-05", qty: 1234.5 },
      trackingNumbers: ["A", "B"],
      keep: [],
    },
    {
      row: 3,
      uniqueKey: "PO-2",
      values: { customerPoNumber: "PO-2", orderDate: null, qty: null },
      trackingNumbers: [],
      keep: ["orderDate"],
    },
  ]);
  assert.deepEqual(result.errors, [
    {
      row: 3,
      column: "Date",
      message: '"2024-13-01" is not a date; orderDate was left as it was.',
    },
    {
      row: 4,
      column: "PO",
      message: "The unique column (customerPoNumber) is empty; the row was not imported.",
    },
  ]);
  assert.equal(result.skipped, 1);
});

Deno.test("readRecords keys numbers and dates by their value, honours decimal commas", () => {
  const result = readRecords(
    table([["x", "3/5/2024", "1.234,50", ""], ["y", "2024-03-05", "1234,5", ""]], true),
    { wildcard1: 0, orderDate: 1, qty: 2 },
    "qty",
    null,
  );
  assert.equal(result.records.length, 1);
  assert.equal(result.records[0].uniqueKey, "1234.5");
  assert.equal(result.records[0].values.wildcard1, "y");
  assert.equal(result.duplicates, 1);
});
