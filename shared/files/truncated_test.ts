/**
 * A file that ended early (a CSV cut inside a quoted field, an XLSX whose zip or sheet XML is
 * cut) is refused as a whole, by readTable and by the row-by-row reader alike; a file with a
 * bad row is read, the row reported.
 */
import assert from "node:assert/strict";
import * as XLSX from "xlsx";
import { FileRefusedError } from "./errors.ts";
import { readTable } from "./read_table.ts";
import { readTableRows } from "./read_rows.ts";
import { writeTable } from "./write_table.ts";
import { cutCsv, cutSheetXml, cutZip, withSheetXml } from "./truncated_testing.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** The refusal of both readers (readTable and readTableRows), which must agree. */
async function refusal(bytes: Uint8Array, name: string): Promise<FileRefusedError> {
  const whole = await readTable(bytes, { name }).then(
    () => assert.fail(`readTable read ${name}`),
    (e) => e,
  );
  let visited = 0;
  const rows = await readTableRows(bytes, { name }, () => () => visited++).then(
    () => assert.fail(`readTableRows read ${name}`),
    (e) => e,
  );
  assert.ok(whole instanceof FileRefusedError, String(whole));
  assert.ok(rows instanceof FileRefusedError, String(rows));
  assert.deepEqual([rows.code, rows.message], [whole.code, whole.message]);
  assert.doesNotMatch(whole.message, /\n/, "one line");
  return whole;
}

const STOCK = [
  ["Item", "Note", "Qty"],
  ...Array.from({ length: 40 }, (_, i) => [`A${i}`, `line one\nline two of ${i}`, String(i)]),
];

Deno.test("a CSV that ends inside a quoted field is refused as malformed_csv, not read with a row error", async () => {
  const whole = writeTable(STOCK[0], STOCK.slice(1), "csv");
  assert.equal((await readTable(whole, { name: "stock.csv" })).rows.length, 40);
  const e = await refusal(cutCsv(whole), "stock.csv");
  assert.equal(e.code, "malformed_csv");
  assert.match(
    e.message,
    /^The file ends inside a quoted field that opens in row \d+: it was cut off/,
  );
  // A quote that opens and never closes loses the rows after it just the same.
  const open = enc('Item,Qty\nA1,"4\nA2,5\nA3,6\n');
  assert.equal((await refusal(open, "stock.csv")).code, "malformed_csv");
});

Deno.test("a CSV with a bad row is read: a value beyond the headers or a short row stays a row error", async () => {
  const t = await readTable(enc('Item,Qty\nA1,4,9\nA2\nA3,"6"\n'), { name: "stock.csv" });
  assert.deepEqual(t.rows, [["A1", "4", "9"], ["A2", ""], ["A3", "6"]]);
  assert.deepEqual(t.errors.map((e) => e.row), [2]);
});

function workbook(rows: string[][], bookSST = false): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Stock");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST }));
}

Deno.test("an XLSX cut in transfer (no zip directory, a part past the end) is refused as truncated_file", async () => {
  const whole = workbook(STOCK);
  assert.equal((await readTable(whole, { name: "stock.xlsx" })).rows.length, 40);
  for (const at of [0.3, 0.6, 0.95]) {
    const e = await refusal(cutZip(whole, at), "stock.xlsx");
    assert.equal(e.code, "truncated_file", `cut at ${at}`);
    assert.match(e.message, /^The workbook ends early \(.*\): it was cut off in transfer/);
  }
  // Cut just before the end record: the directory is there in part only.
  assert.equal(
    (await refusal(whole.slice(0, whole.length - 10), "stock.xlsx")).code,
    "truncated_file",
  );
});

Deno.test("an XLSX whose sheet XML does not close is refused, whichever reader would read it", async () => {
  for (const sst of [false, true]) {
    const whole = workbook(STOCK, sst);
    for (const keep of [0.5, 0.99]) {
      const cut = withSheetXml(whole, (x) => cutSheetXml(x, keep));
      const e = await refusal(cut, "stock.xlsx");
      assert.equal(e.code, "truncated_file");
      assert.match(e.message, /the XML of xl\/worksheets\/sheet1\.xml stops before its end/);
    }
    // A comment sends the sheet to SheetJS, which would read the half it has.
    const odd = withSheetXml(
      whole,
      (x) => cutSheetXml(x.replace("<sheetData>", "<!-- x --><sheetData>"), 0.5),
    );
    assert.equal((await refusal(odd, "stock.xlsx")).code, "truncated_file");
    // Closed, with spaces after the root: read.
    const spaced = withSheetXml(whole, (x) => x + "\r\n  ");
    assert.equal((await readTable(spaced, { name: "stock.xlsx" })).rows.length, 40);
  }
});
