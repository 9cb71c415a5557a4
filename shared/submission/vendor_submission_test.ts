import assert from "node:assert/strict";
import * as XLSX from "xlsx";
import { PDFDocument } from "pdf-lib";
import { readTable } from "../files/mod.ts";
import { buildVendorSubmission, readOrderFile, splitByVendor } from "./mod.ts";
import type { VendorForSubmission } from "./vendor_submission.ts";

const ordersCsv = await Deno.readFile(
  new URL("../../tests/fixtures/submission/orders.csv", import.meta.url),
);

function template(): Uint8Array {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    wb,
    XLSX.utils.aoa_to_sheet([["PO", "Item", "Qty"]]),
    "Sheet1",
  );
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" }));
}

const vendor: VendorForSubmission = {
  id: 1,
  vendorNameFromFile: "Acme Tools",
  submitEmailSubjectLine: "Fwd: {originalSubject} POs {poNumbers}",
  submitEmailBodyText: "Orders: {poNumbers}",
  vendorWantsPDF: true,
  vendorWantsSpreadsheet: true,
  vendorWantsForwardedEmail: true,
  submitFileHeaderRowIndex: 1,
  vendorWantsTrimmedItemDescription: false,
  vendorRegexForItemDescription: "",
  vendorWantsAllAlignedLeft: false,
  vendorWantsAllData: false,
  mapPo: "PO",
  mapItemDescription: "Item",
  mapQty: "Qty",
};

Deno.test("buildVendorSubmission: filled template, PDF, wildcards, stable key", async () => {
  const table = await readOrderFile(ordersCsv, "orders.csv");
  const split = splitByVendor(table, [{
    ...vendor,
    vendorSourceAliases: [{ vendorAliasNameFromFile: "ACME Inc." }],
  }]);
  const input = {
    vendor,
    rows: split.groups[0].rows,
    template: { bytes: template(), fileName: "acme.xlsx" },
    context: { ordersAreAllQuantityOne: false, incomingHeaders: split.headers },
    batch: "source:3/day:2026-11-23",
    original: { subject: "Daily orders", body: "See attached." },
    day: "2026-11-23",
  };
  const sub = await buildVendorSubmission(input);
  assert.equal(sub.subject, "Fwd: Daily orders POs PO-1001, PO-1002, PO-1003");
  assert.equal(sub.body, "Orders: PO-1001, PO-1002, PO-1003");
  assert.deepEqual(sub.attachments.map((a) => [a.fileName, a.contentType]), [
    [
      "Acme Tools orders 2026-11-23.xlsx",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ],
    ["Acme Tools orders 2026-11-23.pdf", "application/pdf"],
  ]);
  const back = await readTable(sub.attachments[0].bytes, { name: "x.xlsx" });
  assert.deepEqual(back.rows, [
    ["PO-1001", "ACME-55 Hammer, steel, 16oz", "2"],
    ["PO-1002", '\'=HYPERLINK("http://x")', "5"],
    ["PO-1003", "ACME-77 Saw, hand", "1"],
  ]);
  assert.equal((await PDFDocument.load(sub.attachments[1].bytes)).getPageCount(), 1);
  assert.deepEqual(sub.rowNumbers, [4, 6, 7]);
  // A re-run of the same e-mail gives the same key.
  assert.equal((await buildVendorSubmission(input)).key, sub.key);
});

Deno.test("buildVendorSubmission without a template: a plain XLSX of the recognised fields", async () => {
  const table = await readOrderFile(ordersCsv, "orders.csv");
  const split = splitByVendor(table, [{ ...vendor, id: 2, vendorNameFromFile: "Globex" }]);
  const sub = await buildVendorSubmission({
    vendor: {
      ...vendor,
      id: 2,
      vendorNameFromFile: "Globex",
      vendorWantsPDF: false,
      vendorWantsForwardedEmail: false,
    },
    rows: split.groups[0].rows,
    template: null,
    context: { ordersAreAllQuantityOne: true, incomingHeaders: split.headers },
    batch: "b",
    original: { subject: "s", body: "b" },
    day: "2026-11-23",
  });
  assert.equal(sub.subject, "Fwd: {originalSubject} POs {poNumbers}");
  const back = await readTable(sub.attachments[0].bytes, { name: "x.xlsx" });
  assert.deepEqual(back.headers.slice(0, 3), ["PO", "Order Date", "Ship To"]);
  assert.equal(back.rows[0][back.headers.indexOf("Qty")], "1");
  assert.equal(back.rows[0][back.headers.indexOf("Total")], "3.99");
});
