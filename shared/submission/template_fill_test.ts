import assert from "node:assert/strict";
import * as XLSX from "xlsx";
import { readGrid, readTable, writeTable } from "../files/mod.ts";
import { splitByVendor, SubmissionError } from "./vendor_split.ts";
import {
  fillVendorTemplate,
  validateVendorTemplate,
  type VendorTemplateSettings,
} from "./template_fill.ts";
import { leftAlignStyles } from "./align_left.ts";

const ordersCsv = await Deno.readFile(
  new URL("../../tests/fixtures/submission/orders.csv", import.meta.url),
);

/** A template with a title row, the header on row 2 and one sample row to be dropped. */
function template(format: "xlsx" | "xls"): Uint8Array {
  const wb = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet([
    ["ACME ORDER FORM"],
    [
      "Account",
      "PO Number",
      "Ship To",
      "Name",
      "Street",
      "City",
      "Description",
      "Qty",
      "Price",
      "Total",
      "Source",
      "Notes",
    ],
    ["sample", "sample", "sample", "sample", "sample", "sample", "sample", 9, 9, 81, "x", "y"],
  ]);
  XLSX.utils.book_append_sheet(wb, ws, "Order");
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["keep me"]]), "Info");
  return new Uint8Array(
    XLSX.write(wb, { type: "array", bookType: format === "xls" ? "biff8" : "xlsx" }),
  );
}

const acme = {
  id: 1,
  vendorNameFromFile: "Acme Tools",
  vendorProvidedAccountNumber: "AC-900",
  vendorSourceAliases: [{
    vendorAliasNameFromFile: "ACME Inc.",
    vendorProvidedAccountNumber: "AC-901",
  }],
};
const globex = { id: 2, vendorNameFromFile: "Globex", vendorSourceAliases: [] };
const initech = { id: 3, vendorNameFromFile: "initech", deletedStatus: true };

const settings: VendorTemplateSettings = {
  submitFileHeaderRowIndex: 2,
  vendorWantsTrimmedItemDescription: true,
  vendorRegexForItemDescription: "^[^,]+",
  vendorWantsAllAlignedLeft: false,
  vendorWantsAllData: false,
  mapProvidedAccountNumber: "Account",
  mapPo: "PO Number",
  mapShipTo: "Ship To, Name",
  mapAddress1: "Street",
  mapCity: "F",
  mapItemDescription: "Description",
  mapQty: "Qty",
  mapUnitPrice: "Price",
  mapTotal: "Total",
  staticFileData1: "Web shop",
  mapStaticFileData1: "Source",
  staticFileData2: "",
  mapStaticFileData2: "",
};

Deno.test("split: rows grouped by vendor name and alias, trimmed, case-insensitive; unmatched reported", async () => {
  const table = await readTable(ordersCsv, { name: "orders.csv" });
  const split = splitByVendor(table, [acme, globex, initech]);
  assert.deepEqual(split.groups.map((g) => [g.vendor.id, g.rows.map((r) => r.rowNumber)]), [
    [1, [4, 6, 7]],
    [2, [5]],
  ]);
  assert.deepEqual(split.groups[0].accountNumbers, ["AC-900", "AC-900", "AC-901"]);
  assert.deepEqual(split.unmatched, [
    { name: "Initech", rowNumbers: [8] },
    { name: "", rowNumbers: [9] },
  ]);
  assert.equal(split.groups[0].rows[0].fields.mapPo, "PO-1001");
  assert.equal(split.groups[0].rows[0].fields.mapZipCode, "62701");
});

Deno.test("split: a file without a vendor column names the headers found", () => {
  assert.throws(
    () => splitByVendor({ headers: ["PO", "Qty"], rows: [["1", "2"]], rowNumbers: [2] }, [acme]),
    (e: unknown) =>
      e instanceof SubmissionError && e.code === "no_vendor_column" &&
      e.message.includes('Headers found: "PO", "Qty".') && e.message.includes('"Supplier"'),
  );
});

for (const format of ["xlsx", "xls"] as const) {
  Deno.test(`fill (${format}): header row kept, sample dropped, mapping, static data, trimming, escaping`, async () => {
    const table = await readTable(ordersCsv, { name: "orders.csv" });
    const split = splitByVendor(table, [acme, globex]);
    const group = split.groups[0];
    const filled = await fillVendorTemplate(
      template(format),
      `acme.${format}`,
      settings,
      group.rows,
      { ordersAreAllQuantityOne: false, incomingHeaders: split.headers },
      group.accountNumbers,
    );
    assert.equal(filled.format, format);
    const grid = await readGrid(filled.bytes, { name: `out.${format}` });
    assert.deepEqual(
      grid.rows,
      [
        ["ACME ORDER FORM"],
        [
          "Account",
          "PO Number",
          "Ship To",
          "Name",
          "Street",
          "City",
          "Description",
          "Qty",
          "Price",
          "Total",
          "Source",
          "Notes",
        ],
        [
          "AC-900",
          "PO-1001",
          "Jane Roe",
          "Jane Roe",
          "1 Main St",
          "Springfield",
          "ACME-55 Hammer",
          "2",
          "12.5",
          "25",
          "Web shop",
          "",
        ],
        [
          "AC-900",
          "PO-1002",
          "John Doe",
          "John Doe",
          "9 Elm Rd",
          "Portland",
          '\'=HYPERLINK("http://x")',
          "5",
          "1",
          "5",
          "Web shop",
          "",
        ],
        [
          "AC-901",
          "PO-1003",
          "Ann Lee",
          "Ann Lee",
          "5 Oak Ave",
          "Austin",
          "ACME-77 Saw",
          "1",
          "20",
          "20",
          "Web shop",
          "",
        ],
      ].map((r, i) => i === 0 ? r : r.slice(0, i === 1 ? 12 : 11)),
    );
    assert.deepEqual(grid.rowNumbers, [1, 2, 3, 4, 5]);
    // The other sheet is kept.
    const wb = XLSX.read(filled.bytes, { type: "array" });
    assert.deepEqual(wb.SheetNames, ["Order", "Info"]);
    // Quantities and prices are numbers.
    assert.equal(wb.Sheets.Order["H3"].t, "n");
  });
}

Deno.test("fill: quantity one, all data appended with headers, left alignment (xlsx and xls)", async () => {
  const table = await readTable(ordersCsv, { name: "orders.csv" });
  const split = splitByVendor(table, [acme, globex]);
  for (const format of ["xlsx", "xls"] as const) {
    const filled = await fillVendorTemplate(
      template(format),
      `t.${format}`,
      {
        ...settings,
        vendorWantsAllData: true,
        vendorWantsAllAlignedLeft: true,
        vendorWantsTrimmedItemDescription: false,
      },
      split.groups[1].rows,
      { ordersAreAllQuantityOne: true, incomingHeaders: split.headers },
    );
    const out = await readTable(filled.bytes, { name: `o.${format}`, headerRow: 2 });
    assert.deepEqual(out.headers.slice(12), split.headers);
    assert.deepEqual(out.rows[0].slice(0, 12), [
      "",
      "PO-1001",
      "Jane Roe",
      "Jane Roe",
      "1 Main St",
      "Springfield",
      "GX-1 Widget (blue)",
      "1",
      "3.99",
      "3.99",
      "Web shop",
      "",
    ]);
    assert.deepEqual(out.rows[0].slice(12), table.rows[1]);
    const cfb = XLSX.CFB.read(filled.bytes, { type: "array" });
    if (format === "xlsx") {
      const xml = new TextDecoder().decode(XLSX.CFB.find(cfb, "/xl/styles.xml").content);
      const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)![1];
      assert.ok(xfs.includes('<alignment horizontal="left"/>'));
      assert.equal(xfs.split("<xf ").length - 1, xfs.split('horizontal="left"').length - 1);
    } else {
      const s: Uint8Array = new Uint8Array(XLSX.CFB.find(cfb, "/Workbook").content);
      const v = new DataView(s.buffer);
      let cellXfs = 0;
      for (let p = 0; p + 4 <= s.length; p += 4 + v.getUint16(p + 2, true)) {
        if (v.getUint16(p, true) !== 0xe0 || (v.getUint16(p + 8, true) & 4) !== 0) continue;
        cellXfs++;
        assert.equal(s[p + 10] & 7, 1);
      }
      assert.ok(cellXfs > 0);
    }
  }
});

Deno.test("leftAlignStyles replaces an existing alignment and keeps other children", () => {
  const xml =
    '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="1" applyAlignment="1"><alignment horizontal="right"/><protection/></xf></cellXfs>';
  assert.equal(
    leftAlignStyles(xml),
    '<cellXfs count="2"><xf numFmtId="0" applyAlignment="1"><alignment horizontal="left"/></xf><xf numFmtId="1" applyAlignment="1"><alignment horizontal="left"/><protection/></xf></cellXfs>',
  );
});

Deno.test("validate: not a spreadsheet, header row past the rows, mapping naming a missing column", async () => {
  const csv = writeTable(["a"], [["b"]], "csv");
  await assert.rejects(
    validateVendorTemplate(csv, "t.xlsx", settings),
    (e: unknown) => e instanceof SubmissionError && e.code === "template_not_spreadsheet",
  );
  await assert.rejects(
    validateVendorTemplate(new TextEncoder().encode("%PDF-1.4 x"), "t.xls", settings),
    (e: unknown) => e instanceof SubmissionError && e.code === "template_not_spreadsheet",
  );
  await assert.rejects(
    validateVendorTemplate(template("xlsx"), "t.xlsx", {
      ...settings,
      submitFileHeaderRowIndex: 9,
    }),
    (e: unknown) =>
      e instanceof SubmissionError && e.code === "header_row_out_of_range" &&
      e.message ===
        "The header row index 9 is past the template's rows: its last non-blank row is 3.",
  );
  await assert.rejects(
    validateVendorTemplate(template("xlsx"), "t.xlsx", {
      ...settings,
      mapShipVia: "Ship Via, Qty",
    }),
    (e: unknown) =>
      e instanceof SubmissionError && e.code === "mapping_column_missing" &&
      e.message.startsWith(
        'The field mapping names a column the template lacks: "Ship Via" (mapShipVia).',
      ),
  );
  assert.deepEqual(
    (await validateVendorTemplate(template("xls"), "t.xls", settings)).slice(0, 3),
    ["Account", "PO Number", "Ship To"],
  );
});
