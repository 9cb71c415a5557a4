import assert from "node:assert/strict";
import { fillTemplate } from "./fill_template.ts";
import { readGrid, readTable } from "./read_table.ts";
import { FileRefusedError } from "./errors.ts";
import { decodeText } from "./detect_encoding.ts";

const dir = new URL("../../tests/fixtures/files/", import.meta.url);
const fixture = (n: string) => Deno.readFile(new URL(n, dir));
const day = new Date("2024-03-05T00:00:00Z");

for (const name of ["orders_titled.xlsx", "orders_titled.xls"]) {
  Deno.test(`fillTemplate keeps ${name}'s title rows, header and other sheets and writes named columns`, async () => {
    const { bytes, format } = await fillTemplate(await fixture(name), {
      name,
      headerRow: 4,
      rows: [
        { "Item Number": "00999", Qty: 3, "order date": day, F: "=1+1" },
        { "Item Number": "A-1", "PO Number": "PO-9" },
      ],
    });
    assert.equal(format, name.endsWith("xls") ? "xls" : "xlsx");
    const grid = await readGrid(bytes, { name });
    assert.deepEqual(grid.rows.slice(0, 2), [["Open orders report"], ["Generated", "2024-03-05"]]);
    const t = await readTable(bytes, { name, headerRow: 4 });
    assert.deepEqual(t.headers, [
      "PO Number",
      "Item Number",
      "Qty",
      "Unit Price",
      "Order Date",
      "Total",
    ]);
    assert.deepEqual(t.rows, [["", "00999", "3", "", "2024-03-05", "'=1+1"], [
      "PO-9",
      "A-1",
      "",
      "",
      "",
      "",
    ]]);
    assert.deepEqual(t.rowNumbers, [5, 6]);
    assert.deepEqual(t.sheets, ["Orders", "Stock", "Notes"]);
  });
}

Deno.test("fillTemplate keeps a CSV template's delimiter, encoding and BOM", async () => {
  for (const name of ["inventory_semicolon.csv", "inventory_1252.csv", "inventory_utf16.txt"]) {
    const template = await fixture(name);
    const { bytes } = await fillTemplate(template, {
      name,
      rows: [{ "Item Number": "007", Description: "Crème", Updated: day }],
    });
    const before = decodeText(template), after = decodeText(bytes);
    assert.equal(after.encoding, before.encoding, name);
    assert.equal(after.bom, before.bom, name);
    const t = await readTable(bytes, { name });
    assert.deepEqual(t.headers, ["Item Number", "Description", "Qty", "Price", "Updated"]);
    assert.deepEqual(t.rows, [["007", "Crème", "", "", "2024-03-05"]], name);
  }
});

Deno.test("fillTemplate without headers writes by column letter or index only", async () => {
  const { bytes } = await fillTemplate(new TextEncoder().encode("x,y\n"), {
    name: "t.csv",
    hasHeaders: false,
    rows: [{ B: "b", 1: "a", D: "d" }],
  });
  // The template had no BOM and "\n" line ends, so neither has the output.
  assert.equal(new TextDecoder().decode(bytes), "a,b,,d\n");
});

Deno.test("fillTemplate names a column the template lacks", async () => {
  await assert.rejects(
    fillTemplate(await fixture("inventory.xlsx"), {
      name: "inventory.xlsx",
      rows: [{ Status: "Active" }],
    }),
    (e: unknown) =>
      e instanceof FileRefusedError && /"Status" was not found.*"Item Number"/.test(e.message),
  );
});
