import assert from "node:assert/strict";
import type { Table } from "../files/mod.ts";
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
      ["PO-2", "soon", "n/a", ""],
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
      message: '"soon" is not a date; orderDate was left as it was.',
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

Deno.test("readRecords: a date that cannot exist is a row error and its row is not imported", async (t) => {
  const impossible = [
    "2/30/2024", // no such day in February
    "2/29/2023", // not a leap year
    "4/31/2024",
    "13/1/2024", // month 13, US order
    "2024-13-01",
    "2024-00-10",
    "2024-02-30T10:00",
    "30-Feb-2024",
    "Feb 30, 2024",
    "20240230",
    "1/1/1899", // years outside 1900-2200
    "2201-01-01",
    "9999-12-31",
    "2958465", // an Excel serial of 9999-12-31
  ];
  for (const date of impossible) {
    await t.step(date, () => {
      const result = readRecords(
        table([["PO-1", "3/5/2024", "1", ""], ["PO-2", date, "2", ""], ["PO-3", "", "3", ""]]),
        columns,
        "customerPoNumber",
        ";",
      );
      assert.deepEqual(result.records.map((r) => r.uniqueKey), ["PO-1", "PO-3"]);
      assert.deepEqual(result.errors, [{
        row: 3,
        column: "Date",
        message: `"${date}" is not a date that exists (the day must be in its month, the month ` +
          "1–12, the year 1900–2200); the row was not imported.",
      }]);
      assert.equal(result.skipped, 1);
    });
  }
  // The edges of the range, 29 February of a leap year and 1900's serials are real dates.
  for (
    const [date, iso] of [["2/29/2024", "2024-02-29"], ["1/1/1900", "1900-01-01"], [
      "12/31/2200",
      "2200-12-31",
    ], ["1", "1900-01-01"]]
  ) {
    const result = readRecords(table([["PO-1", date, "1", ""]]), columns, "customerPoNumber", ";");
    assert.equal(result.records[0]?.values.orderDate, iso, date);
    assert.deepEqual(result.errors, []);
  }
});

Deno.test("readRecords: an impossible date in a repeated key's later row leaves the earlier row as read", () => {
  const result = readRecords(
    table([["PO-1", "3/5/2024", "1", "A"], ["PO-1", "2/30/2024", "2", "B"]]),
    columns,
    "customerPoNumber",
    ";",
  );
  assert.equal(result.records.length, 1);
  assert.deepEqual(result.records[0].values, {
    customerPoNumber: "PO-1",
    orderDate: "2024-03-05",
    qty: 1,
  });
  assert.deepEqual(result.records[0].trackingNumbers, ["A"]);
  assert.deepEqual([result.duplicates, result.skipped], [0, 1]);
});
