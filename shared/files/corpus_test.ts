/** The readers over the committed corpus (tests/fixtures/files, see its README.md). */
import assert from "node:assert/strict";
import { type ReadOptions, readTable } from "./read_table.ts";
import { FileRefusedError, type RefusalCode } from "./errors.ts";
import { dateAt, numberAt } from "./cells.ts";
import { findColumn } from "./columns.ts";

const dir = new URL("../../tests/fixtures/files/", import.meta.url);
const read = (name: string, options: ReadOptions = {}) =>
  Deno.readFile(new URL(name, dir)).then((b) => readTable(b, { name, ...options }));

const INVENTORY_HEADERS = ["Item Number", "Description", "Qty", "Price", "Updated"];
const DESCRIPTIONS = [
  "Café crème",
  'Größe 12" pipe, "heavy"\nsecond line',
  "naïve €5",
  "Ærø – dash",
];
const INVENTORY_ITEMS = ["00123", "00456", "A-77", "0"];
const INVENTORY_QTY: (number | string)[] = [5, 1250, "not_available", 0];
const INVENTORY_PRICE = [2.5, 1234.5, 3, 0.1];
const INVENTORY_DATES = ["2024-03-05", "2024-01-15", "2023-12-31", "2024-02-29"];

const delimitedCases: [string, string, string, boolean][] = [
  ["inventory_utf8.csv", "utf-8", ",", false],
  ["inventory_utf8_bom.csv", "utf-8", ",", true],
  ["inventory_1252.csv", "windows-1252", ",", false],
  ["inventory_utf16.txt", "utf-16le", "\t", true],
  ["inventory_semicolon.csv", "utf-8", ";", false],
  ["inventory_pipe.txt", "utf-8", "|", false],
  ["inventory.xlsx", "", "", false],
  ["huge_dimension.xlsx", "", "", false],
];

for (const [file, encoding, delimiter, bom] of delimitedCases) {
  Deno.test(`corpus: ${file} reads to the inventory table`, async () => {
    const t = await read(file);
    assert.equal(t.encoding ?? "", encoding);
    assert.equal(t.delimiter ?? "", delimiter);
    assert.equal(t.bom, bom);
    assert.equal(t.headerRow, 1);
    assert.deepEqual(t.headers, INVENTORY_HEADERS);
    assert.deepEqual(t.rows.map((r) => r[0]), INVENTORY_ITEMS);
    assert.deepEqual(t.rows.map((r) => r[1]), DESCRIPTIONS);
    assert.deepEqual(t.rowNumbers, [2, 3, 4, 5]);
    assert.deepEqual(t.errors, []);
    const qty = findColumn(t.headers, "qty"),
      price = findColumn(t.headers, "Price"),
      date = findColumn(t.headers, "updated");
    assert.deepEqual(
      t.rows.map((_, i) => {
        const v = numberAt(t, i, qty);
        return v.ok ? v.value : v.reason;
      }),
      INVENTORY_QTY,
    );
    assert.deepEqual(
      t.rows.map((_, i) => {
        const v = numberAt(t, i, price);
        return v.ok ? v.value : v.reason;
      }),
      INVENTORY_PRICE,
    );
    assert.deepEqual(
      t.rows.map((_, i) => {
        const v = dateAt(t, i, date);
        return v.ok ? v.value : v.reason;
      }),
      INVENTORY_DATES,
    );
  });
}

const ORDERS_ROWS = [
  ["PO-1001", "00123", "2", "12.5", "2024-01-15", "25"],
  ["PO-1002", "004567", "1250", "0.1", "2024-02-29", "125"],
  ["PO-1003", "A-77", "N/A", "3", "2023-12-31", "6"],
  ["", "B-88", "4", "1234.5", "2024-03-05T14:30:00", "4938"],
];

for (const file of ["orders_titled.xlsx", "orders_titled.xls"]) {
  Deno.test(`corpus: ${file} skips the title rows, reads formulas, dates, merged cells and sheets`, async () => {
    const t = await read(file);
    assert.equal(t.sheet, "Orders");
    assert.deepEqual(t.sheets, ["Orders", "Stock", "Notes"]);
    assert.equal(t.headerRow, 4);
    assert.deepEqual(t.headers, [
      "PO Number",
      "Item Number",
      "Qty",
      "Unit Price",
      "Order Date",
      "Total",
    ]);
    assert.deepEqual(t.rows, ORDERS_ROWS);
    assert.deepEqual(t.rowNumbers, [5, 6, 7, 8]);

    const stock = await read(file, {
      sheet: "stock",
      stripLeadingZeros: true,
      itemColumns: ["Item"],
    });
    assert.deepEqual(stock.rows, [["1", "10", "In Stock"], ["2", "0", "Out of Stock"]]);
    const byPosition = await read(file, { sheet: 3, hasHeaders: false });
    assert.deepEqual(byPosition.rows, [["Prepared by ops"]]);
    const explicit = await read(file, { headerRow: 2 });
    assert.deepEqual(explicit.headers, ["Generated", "2024-03-05"]);
    await assert.rejects(
      read(file, { sheet: "Summary" }),
      /Sheet "Summary" was not found. Sheets in the workbook: "Orders", "Stock", "Notes"/,
    );
    await assert.rejects(read(file, { headerRow: 3 }), /Header row 3 is empty/);
    await assert.rejects(read(file, { headerRow: 40 }), /Header row 40 is outside the file/);
  });
}

Deno.test("corpus: broken CSV rows become row errors and keep their data", async () => {
  const ragged = await read("ragged_rows.csv");
  assert.deepEqual(ragged.rows, [["001", "5", "Active"], ["002", "7", ""], [
    "003",
    "1",
    "Active",
    "surprise",
  ], ["004", "2", "Active", "", ""]]);
  assert.deepEqual(ragged.errors.map((e) => [e.row, e.column]), [[4, "D"]]);
});

Deno.test("corpus: formula-looking cells are read as written", async () => {
  const t = await read("formula_cells.csv");
  assert.deepEqual(t.rows.map((r) => r[1]), [
    '=HYPERLINK("http://evil.example","click")',
    "+1+2",
    "-5",
    "@SUM(A1)",
  ]);
});

const refusals: [string, RefusalCode, RegExp][] = [
  ["image_named.csv", "content_mismatch", /"image_named.csv" is a PNG image, not a CSV file/],
  ["pdf_named.xlsx", "content_mismatch", /is a PDF document, not an XLSX file/],
  ["text_named.xlsx", "content_mismatch", /not an Excel workbook: it contains plain text/],
  ["html_named.xls", "content_mismatch", /is an HTML page, not an XLS file/],
  ["binary_junk.csv", "binary_content", /is a binary file/],
  [
    "too_many_columns.csv",
    "too_many_columns",
    /Row 1 has 20,001 cells, more than the 16,384 allowed/,
  ],
  ["blank_lines.csv", "empty", /every row is blank/],
  // The rows after the open quote would be lost into one cell: refused, not read with an error.
  [
    "unterminated_quote.csv",
    "malformed_csv",
    /^The file ends inside a quoted field that opens in row 3: it was cut off/,
  ],
  ["zip_bomb_ratio.xlsx", "zip_ratio", /expands \d+ times .* zip bomb/],
  ["zip_bomb_lying_sizes.xlsx", "zip_entry_too_large", /larger than its header declares/],
];

for (const [file, code, message] of refusals) {
  Deno.test(`corpus: ${file} is refused with ${code}`, async () => {
    await assert.rejects(read(file), (e: unknown) => {
      assert.ok(e instanceof FileRefusedError, String(e));
      assert.equal(e.code, code);
      assert.match(e.message, message);
      return true;
    });
  });
}
