/** readTableRows gives readTable's table, row by row, with readTable's refusals. */
import assert from "node:assert/strict";
import * as XLSX from "xlsx";
import { type ReadOptions, readTable } from "./read_table.ts";
import { readTableRows, type RowsHead } from "./read_rows.ts";
import { FileRefusedError } from "./errors.ts";
import { findColumn } from "./columns.ts";

const dir = new URL("../../tests/fixtures/files/", import.meta.url);

function xlsx(aoa: (string | number)[][]): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), "Stock");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST: true }));
}

/** The table readTableRows hands over, gathered back into readTable's shape. */
async function gathered(bytes: Uint8Array, options: ReadOptions) {
  const rows: string[][] = [], rowNumbers: number[] = [];
  const heads: RowsHead[] = [];
  const read = await readTableRows(bytes, options, (head) => {
    heads.push(head);
    rows.length = rowNumbers.length = 0;
    return (row, n) => {
      rows.push([...row]);
      rowNumbers.push(n);
    };
  });
  const { rowCount, width, ...meta } = read;
  assert.equal(rowCount, rows.length);
  assert.equal(width, Math.max(meta.headers.length, ...rows.map((r) => r.length)));
  const head = heads[heads.length - 1];
  assert.deepEqual(head, {
    headers: meta.headers,
    headerRow: meta.headerRow,
    decimalComma: meta.decimalComma,
  });
  return { ...meta, rows, rowNumbers };
}

async function outcome<T>(p: Promise<T>): Promise<T | { refused: string; message: string }> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof FileRefusedError) return { refused: e.code, message: e.message };
    throw e;
  }
}

const many = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => [`00${from + i}`, `item ${i}`, i % 7, i % 3 ? "In" : "Out"]);

const cases: [string, Uint8Array, ReadOptions][] = [
  ["a streamed XLSX of 200 rows", xlsx([["Item", "Desc", "Qty", "Status"], ...many(200)]), {}],
  [
    "title rows above the header, rows wider than it, short rows",
    xlsx([
      ["Stock report"],
      ["Supplier: X"],
      ["Item", "Desc", "Qty"],
      ...many(80),
      ["A", "", 3, "", "", "extra"],
      ["B"],
      ...many(30, 500),
    ]),
    {},
  ],
  ["fewer rows than the header sample", xlsx([["Item", "Qty"], ["A", 1], ["B", 2]]), {}],
  ["no headers", xlsx(many(120)), { hasHeaders: false }],
  ["a given header row", xlsx([["t"], ["Item", "Qty"], ...many(90)]), { headerRow: 2 }],
  ["leading zeros stripped", xlsx([["Item", "Qty"], ...many(60)]), { stripLeadingZeros: true }],
  ["only a header", xlsx([["Item", "Qty"]]), {}],
  ["empty sheet", xlsx([]), {}],
  [
    "a cell over the cap, below the header sample",
    xlsx([["Item", "Qty"], ...many(70), ["x".repeat(40), 1]]),
    { limits: { maxCellChars: 30 } },
  ],
];

for (const [what, bytes, options] of cases) {
  Deno.test(`readTableRows: ${what}`, async () => {
    const o = { name: "stock.xlsx", ...options };
    assert.deepEqual(await outcome(gathered(bytes, o)), await outcome(readTable(bytes, o)));
  });
}

for (
  const name of [
    "inventory_utf8.csv",
    "inventory.xlsx",
    "orders_titled.xlsx",
    "orders_titled.xls",
    "ragged_rows.csv",
    "huge_dimension.xlsx",
    "zip_bomb_ratio.xlsx",
  ]
) {
  Deno.test(`readTableRows: corpus ${name}`, async () => {
    const bytes = await Deno.readFile(new URL(name, dir));
    assert.deepEqual(
      await outcome(gathered(bytes, { name })),
      await outcome(readTable(bytes, { name })),
    );
  });
}

Deno.test("readTableRows: the file's refusal wins over the visitor's, which comes after", async () => {
  const bytes = xlsx([["Item", "Qty"], ...many(70), ["x".repeat(40), 1]]);
  const missing = (head: RowsHead) => {
    findColumn(head.headers, "Nope");
    return () => {};
  };
  await assert.rejects(
    readTableRows(bytes, { name: "s.xlsx", limits: { maxCellChars: 30 } }, missing),
    (e: FileRefusedError) => e.code === "cell_too_long",
  );
  await assert.rejects(
    readTableRows(bytes, { name: "s.xlsx" }, missing),
    (e: FileRefusedError) => e.code === "column_not_found",
  );
  let seen = 0;
  await assert.rejects(
    readTableRows(bytes, { name: "s.xlsx" }, () => (row) => {
      if (++seen === 60) throw new Error(`boom at ${row[0]}`);
    }),
    /boom at 0059/,
  );
  assert.equal(seen, 60, "no row is handed over after the visitor threw");
});

Deno.test("readTableRows: the streaming reader giving up part-way starts the visitor over", async () => {
  // An ISO date cell (t="d") below the header sample: the streaming reader leaves it to SheetJS.
  const ws = XLSX.utils.aoa_to_sheet([["Item", "Qty", "When"], ...many(70)]);
  XLSX.utils.sheet_add_aoa(ws, [["Z", 1, new Date(Date.UTC(2024, 0, 2))]], {
    origin: -1,
    cellDates: true,
  });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Stock");
  const bytes = new Uint8Array(
    XLSX.write(wb, { type: "array", bookType: "xlsx", cellDates: true }),
  );
  let starts = 0;
  await readTableRows(bytes, { name: "s.xlsx" }, () => {
    starts++;
    return () => {};
  });
  assert.equal(starts, 2);
  assert.deepEqual(
    await gathered(bytes, { name: "s.xlsx" }),
    await readTable(bytes, { name: "s.xlsx" }),
  );
});
