import assert from "node:assert/strict";
import { FileRefusedError } from "./errors.ts";
import { readCsvSample, readsAsText, SAMPLE_PREVIEW_ROWS } from "./sample_preview.ts";

const fixture = (name: string) =>
  Deno.readFileSync(new URL(`../../tests/fixtures/files/${name}`, import.meta.url));

Deno.test("a CSV sample gives its headers and first rows as the feeds would read them", () => {
  const preview = readCsvSample(fixture("inventory_utf8.csv"), { name: "inventory_utf8.csv" });
  assert.deepEqual(preview.headers, ["Item Number", "Description", "Qty", "Price", "Updated"]);
  assert.equal(preview.headerRow, 1);
  assert.equal(preview.rows[0][1], "Café crème");
  assert.ok(preview.rows.length <= SAMPLE_PREVIEW_ROWS);
});

Deno.test("a given header row is used; one outside the file is refused in words", () => {
  const bytes = new TextEncoder().encode("Price list\nSKU,Stock\nA,1\nB,2\n");
  assert.deepEqual(readCsvSample(bytes, { name: "a.csv", headerRow: 2 }).headers, ["SKU", "Stock"]);
  assert.throws(
    () => readCsvSample(bytes, { name: "a.csv", headerRow: 9 }),
    (error) => error instanceof FileRefusedError && /Header row 9 is outside/.test(error.message),
  );
});

Deno.test("only the first rows are kept, cut to the headers' width", () => {
  const lines = ["A,B", ...Array.from({ length: 20 }, (_, i) => `${i},x,extra`)];
  const preview = readCsvSample(new TextEncoder().encode(lines.join("\n")), { name: "a.csv" });
  assert.equal(preview.rows.length, SAMPLE_PREVIEW_ROWS);
  assert.equal(preview.rowCount, 20);
  assert.deepEqual(preview.rows[0], ["0", "x"]);
});

Deno.test("workbooks are not read as text", () => {
  assert.equal(readsAsText("stock.CSV"), true);
  assert.equal(readsAsText("stock.xlsx"), false);
  assert.throws(() => readCsvSample(fixture("inventory.xlsx"), { name: "inventory.xlsx" }));
});
