import assert from "node:assert/strict";
import { PDFDocument } from "pdf-lib";
import { columnWidths, renderOrderPdf, wrapText } from "./order_pdf.ts";

const headers = ["PO Number", "Ship To", "Description", "Qty", "Price"];

function countPages(bytes: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(bytes);
  return (text.match(/\/Type \/Page\b(?!s)/g) ?? []).length;
}

Deno.test("pdf: a few rows make one page starting with %PDF", async () => {
  const bytes = await renderOrderPdf({
    title: "Acme Tools: orders",
    headers,
    rows: [["PO-1", "Jane Roe", "Hammer", 2, 12.5], ["PO-2", "Zoë Čapek ☃", "Saw", 1, 20]],
    createdAt: new Date("2026-11-23T00:00:00Z"),
  });
  assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
  assert.equal(countPages(bytes), 1);
  const doc = await PDFDocument.load(bytes);
  assert.equal(doc.getPageCount(), 1);
  assert.equal(doc.getTitle(), "Acme Tools: orders");
});

Deno.test("pdf: 120 rows with long cells run over several pages, header on each", async () => {
  const long = "A very long item description that keeps going ".repeat(8);
  const rows = Array.from({ length: 120 }, (_, i) => [`PO-${i}`, "Name " + i, long, 1, 3.5]);
  const bytes = await renderOrderPdf({ title: "Many", headers, rows });
  assert.equal(new TextDecoder().decode(bytes.slice(0, 4)), "%PDF");
  const pages = countPages(bytes);
  // Rows hold 3 wrapped lines (36 pt): about 14 rows a page on landscape Letter.
  assert.ok(pages >= 8 && pages <= 10, `pages: ${pages}`);
  assert.equal((await PDFDocument.load(bytes)).getPageCount(), pages);
  assert.ok(new TextDecoder("latin1").decode(bytes).includes(`/Count ${pages}`));
});

Deno.test("pdf: no rows still gives a page with the header", async () => {
  const bytes = await renderOrderPdf({ title: "Empty", headers, rows: [] });
  assert.equal(countPages(bytes), 1);
});

Deno.test("wrapText: wraps at spaces, cuts the third line with an ellipsis", () => {
  const measure = (s: string) => s.length;
  assert.deepEqual(wrapText("aaa bbb ccc", 7, measure), ["aaa bbb", "ccc"]);
  assert.deepEqual(wrapText("abcdefghij", 4, measure, 2), ["abcd", "efg…"]);
  assert.deepEqual(wrapText("", 4, measure), [""]);
});

Deno.test("columnWidths: a crowded table still fits each column's widest word", () => {
  const measure = (s: string) => s.length * 4;
  const headers = ["Item Number", "Description", "Notes", "Ship To"];
  const long = "word ".repeat(40).trim();
  const rows = [["ACME-WIDGET-120-BLUE", long, long, long]];
  const widths = columnWidths(headers, rows, measure, measure, 300);
  assert.ok(Math.abs(widths.reduce((a, b) => a + b, 0) - 300) < 0.001);
  // The item number stays on one line: wrapping happens at the other columns' spaces.
  assert.deepEqual(wrapText(rows[0][0], widths[0] - 6, measure), ["ACME-WIDGET-120-BLUE"]);
  assert.ok(widths.slice(1).every((w) => w >= 36));
});
