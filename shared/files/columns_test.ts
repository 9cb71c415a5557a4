import assert from "node:assert/strict";
import { columnLetter, findColumn, letterIndex } from "./columns.ts";
import { FileRefusedError } from "./errors.ts";

const headers = ["Item Number", "Qty", " Status ", "A"];

Deno.test("findColumn resolves names, indexes and letters", () => {
  const cases: [string | number, number][] = [
    ["item number", 0],
    ["  QTY ", 1],
    ["Status", 2],
    ["A", 3], // a header named "A" wins over column letter A
    [2, 1],
    ["3", 2],
    ["b", 1],
  ];
  for (const [ref, expected] of cases) {
    assert.equal(findColumn(headers.map((h) => h.trim()), ref), expected, String(ref));
  }
});

Deno.test("a missing column is named in the error with the headers found", () => {
  assert.throws(() => findColumn(["Item", "Qty"], "Quantity"), (e: FileRefusedError) => {
    assert.equal(e.code, "column_not_found");
    assert.match(e.message, /"Quantity" was not found/);
    assert.match(e.message, /"Item", "Qty"/);
    return true;
  });
  assert.throws(() => findColumn([], 7, 3), /Column 7 is beyond the 3 columns/);
  assert.throws(() => findColumn([], "D", 3), /Column D is beyond the 3 columns/);
});

Deno.test("column letters round-trip", () => {
  for (
    const [i, l] of [[0, "A"], [25, "Z"], [26, "AA"], [701, "ZZ"], [702, "AAA"], [
      16383,
      "XFD",
    ]] as const
  ) {
    assert.equal(columnLetter(i), l);
    assert.equal(letterIndex(l), i);
  }
  assert.equal(letterIndex("A1"), -1);
});
