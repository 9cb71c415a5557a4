/**
 * The streaming XLSX reader against the SheetJS path: both must give the same table for the
 * corpus and for random workbooks, and the streaming reader must give up (not guess) on
 * workbooks it does not know.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import * as XLSX from "xlsx";
import { gridToTable, type ReadOptions, readTable } from "./read_table.ts";
import { readWithSheetJs, type SheetRef } from "./xlsx_reader.ts";
import { readXlsxStreaming } from "./xlsx_stream.ts";
import { resolveLimits } from "./limits.ts";
import { checkZipBomb } from "./zip_guard.ts";
import { type CellValue, writeTable } from "./write_table.ts";
import type { Table } from "./table.ts";
import {
  openpyxlParts,
  producerXlsx,
  sxssfParts,
  xlsxwriterParts,
} from "../../bench/xlsx_producers.ts";

const limits = resolveLimits();

/** Both paths' outcome: the table, or the refusal code. */
async function bothPaths(
  bytes: Uint8Array,
  sheet?: SheetRef,
  options: ReadOptions = {},
): Promise<{ streamed: Table | string | null; sheetjs: Table | string }> {
  const outcome = (f: () => Table): Table | string => {
    try {
      return f();
    } catch (e) {
      return (e as { code?: string }).code ?? String(e);
    }
  };
  const grid = await readXlsxStreaming(bytes, limits, sheet);
  return {
    streamed: grid && outcome(() => gridToTable(grid, options)),
    sheetjs: outcome(() => gridToTable(readWithSheetJs(bytes, "xlsx", limits, sheet), options)),
  };
}

const dir = new URL("../../tests/fixtures/files/", import.meta.url);
/** The corpus workbooks a real producer wrote: the streaming reader must read them itself. */
const UNDERSTOOD = ["huge_dimension.xlsx", "inventory.xlsx", "orders_titled.xlsx"];

Deno.test("streaming and SheetJS read every corpus workbook alike, sheet by sheet", async () => {
  let compared = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".xlsx")) continue;
    const bytes = await Deno.readFile(new URL(entry.name, dir));
    try {
      await checkZipBomb(bytes, limits);
    } catch {
      continue; // refused before either reader runs
    }
    const sheets: (SheetRef | undefined)[] = [undefined, 1, 2, 3, 4, "Stock", "notes", "Nope"];
    for (const sheet of sheets) {
      for (const options of [{}, { hasHeaders: false }, { headerRow: 4 }]) {
        const { streamed, sheetjs } = await bothPaths(bytes, sheet, options);
        const what = `${entry.name} sheet ${sheet} ${JSON.stringify(options)}`;
        if (typeof sheetjs !== "string" && UNDERSTOOD.includes(entry.name)) {
          assert.notEqual(streamed, null, `${what}: fell back`);
        }
        if (streamed !== null) assert.deepEqual(streamed, sheetjs, what);
        compared++;
      }
    }
  }
  assert.ok(compared >= 3 * 8 * 3);
});

Deno.test("the streaming reader gives the zero-padded, date and formula cells of the corpus", async () => {
  const bytes = await Deno.readFile(new URL("orders_titled.xlsx", dir));
  const grid = await readXlsxStreaming(bytes, limits);
  assert.ok(grid);
  const t = gridToTable(grid);
  assert.equal(t.headerRow, 4);
  assert.deepEqual(t.rows[1].slice(0, 2), ["PO-1002", "004567"]);
  assert.equal(t.rows[3][4], "2024-03-05T14:30:00");
  assert.equal(t.rows[0][5], "25");
});

// Characters XML 1.0 cannot hold at all, and lone surrogates, are not text a producer sends.
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom("a&amp;b", "<tag>", ' "q" ', "x\r\ny", "_x0041_", "&#233;", "  ", "TRUE"),
).filter((s) =>
  // deno-lint-ignore no-control-regex -- these control characters are what the filter is about
  !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s)
);
const written: fc.Arbitrary<CellValue> = fc.oneof(
  text,
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.date({ min: new Date("1901-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }),
  fc.constant(null),
);

Deno.test("property: streaming and SheetJS agree on workbooks the writer makes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(written, { maxLength: 7 }), { minLength: 1, maxLength: 10 }),
      async (rows) => {
        const bytes = writeTable([], rows, "xlsx");
        for (const options of [{ hasHeaders: false }, {}]) {
          const { streamed, sheetjs } = await bothPaths(bytes, undefined, options);
          assert.notEqual(streamed, null);
          assert.deepEqual(streamed, sheetjs);
        }
      },
    ),
    { numRuns: 80 },
  );
});

const FORMATS = [
  "General",
  "0",
  "00000",
  "000",
  "0.00",
  "#,##0.00",
  "0%",
  "yyyy-mm-dd",
  "m/d/yy h:mm",
  "h:mm:ss",
  "dd/mm/yyyy hh:mm",
  "@",
];
const cell: fc.Arbitrary<XLSX.CellObject | null> = fc.oneof(
  fc.constant(null),
  text.map((v): XLSX.CellObject => ({ t: "s", v })),
  fc.tuple(
    fc.oneof(
      fc.integer({ min: -100000, max: 3000000 }),
      fc.double({ min: -1e6, max: 3e6, noNaN: true }),
    ),
    fc.constantFrom(...FORMATS),
  ).map(([v, z]): XLSX.CellObject => ({ t: "n", v, z })),
  fc.boolean().map((v): XLSX.CellObject => ({ t: "b", v })),
  fc.constantFrom(0x07, 0x0f, 0x17, 0x1d, 0x24, 0x2a).map((v): XLSX.CellObject => ({
    t: "e",
    v,
  })),
);

Deno.test("property: streaming and SheetJS agree on shared strings, formats, errors, 1904 dates, gaps and merges", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(cell, { maxLength: 8 }), { minLength: 1, maxLength: 12 }),
      fc.boolean(),
      fc.boolean(),
      fc.integer({ min: 0, max: 3 }),
      async (rows, sst, date1904, skip) => {
        const ws: XLSX.WorkSheet = {};
        let width = 1;
        rows.forEach((row, r) =>
          row.forEach((c, col) => {
            if (!c) return;
            // Leave row gaps so row numbers and blank rows are exercised.
            ws[XLSX.utils.encode_cell({ r: r * (skip + 1), c: col })] = c;
            width = Math.max(width, col + 1);
          })
        );
        ws["!ref"] = `A1:${XLSX.utils.encode_cell({ r: rows.length * (skip + 1), c: width })}`;
        ws["!merges"] = [XLSX.utils.decode_range("A1:B2")];
        const wb = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(wb, ws, "Data");
        XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["other"]]), "Other");
        wb.Workbook = { ...wb.Workbook, WBProps: { date1904 } };
        const bytes = new Uint8Array(
          XLSX.write(wb, { type: "array", bookType: "xlsx", bookSST: sst, compression: true }),
        );
        for (const sheet of [undefined, "data", 2]) {
          const { streamed, sheetjs } = await bothPaths(bytes, sheet, { hasHeaders: false });
          assert.notEqual(streamed, null);
          assert.deepEqual(streamed, sheetjs);
        }
      },
    ),
    { numRuns: 120 },
  );
});

/** A copy of a workbook with one part's text changed. */
function withPart(bytes: Uint8Array, path: string, edit: (xml: string) => string): Uint8Array {
  const zip = XLSX.CFB.read(bytes, { type: "array" });
  const file = XLSX.CFB.find(zip, "/" + path)!;
  file.content = new TextEncoder().encode(
    edit(new TextDecoder().decode(file.content as Uint8Array)),
  );
  return new Uint8Array(XLSX.CFB.write(zip, { fileType: "zip", type: "array" }) as ArrayBuffer);
}

Deno.test("workbooks the streaming reader does not know are read by SheetJS, not guessed", async () => {
  const bytes = await Deno.readFile(new URL("inventory.xlsx", dir));
  const odd: [string, Uint8Array][] = [
    [
      "namespace-prefixed cells",
      withPart(
        bytes,
        "xl/worksheets/sheet1.xml",
        (x) =>
          x.replace(/<(\/?)c([ >])/g, "<$1x:c$2").replace(
            "<worksheet ",
            '<worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ',
          ),
      ),
    ],
    [
      "strict OOXML",
      withPart(bytes, "xl/workbook.xml", (x) =>
        x.replace(
          "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
          "http://purl.oclc.org/ooxml/spreadsheetml/main",
        )),
    ],
    [
      "ISO date cells",
      withPart(
        bytes,
        "xl/worksheets/sheet1.xml",
        (x) => x.replace(/<c r="E2"[^>]*>.*?<\/c>/, '<c r="E2" t="d"><v>2024-03-05</v></c>'),
      ),
    ],
  ];
  const expected = await readTable(bytes, { name: "inventory.xlsx" });
  for (const [what, file] of odd) {
    assert.equal(await readXlsxStreaming(file, limits), null, what);
    const t = await readTable(file, { name: "inventory.xlsx" });
    assert.deepEqual(t.headers, expected.headers, what);
    assert.equal(t.rows.length, expected.rows.length, what);
  }
});

/** A small sheet as SheetJS writes it by default: text as `t="str"`, every cell with `r`. */
function layoutBase(): Uint8Array {
  const ws = XLSX.utils.aoa_to_sheet([
    ["Item", "Qty", "Price", "Note", "Ok"],
    ["A-1", 4, 2.5, "a &amp; b", true],
    ["0042", 12, 0.1, "", false],
    [null, 7, null, "last row", true],
  ]);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, "Data");
  return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" }));
}

const SHEET = "xl/worksheets/sheet1.xml";

Deno.test("sheet XML laid out as other producers write it is read by the streaming reader, as SheetJS reads it", async () => {
  const base = layoutBase();
  // [what, edit of the sheet XML, whether the streaming reader reads it itself]
  const cases: [string, (x: string) => string, boolean][] = [
    ["as SheetJS writes it", (x) => x, true],
    ["cells without r", (x) => x.replace(/(<c) r="[A-Z]+\d+"/g, "$1"), true],
    ["rows without r", (x) => x.replace(/(<row) r="\d+"/g, "$1"), true],
    ["neither rows nor cells with r", (x) => x.replace(/ r="[A-Z]*\d+"/g, ""), true],
    [
      "some cells without r after a gap",
      (x) => x.replace(/<c r="[C-E]2"/g, "<c").replace('<c r="B2"', '<c r="C2"'),
      true,
    ],
    [
      "inline strings",
      (x) => x.replace(/t="str"><v>([^<]*)<\/v>/g, 't="inlineStr"><is><t>$1</t></is>'),
      true,
    ],
    [
      "inline strings with xml:space, as openpyxl and POI write text with spaces around it",
      (x) =>
        x.replace(
          /t="str"><v>([^<]*)<\/v>/g,
          't="inlineStr"><is><t xml:space="preserve"> $1 </t></is>',
        ),
      true,
    ],
    [
      "inline strings with entities, _x escapes, CR LF and empty text",
      (x) =>
        x.replace(
          't="str"><v>A-1</v>',
          't="inlineStr"><is><t>a &lt;b&gt; &amp; &#233; _x0041_</t></is>',
        )
          .replace('t="str"><v>0042</v>', 't="inlineStr"><is><t>line\r\nbreak</t></is>')
          .replace('t="str"><v>last row</v>', 't="inlineStr"><is><t></t></is>'),
      true,
    ],
    [
      "inline strings as rich text, prefixed or self-closing",
      (x) =>
        x.replace(
          't="str"><v>A-1</v>',
          't="inlineStr"><is><r><t>A</t></r><r><rPr><b/></rPr><t>-1</t></r></is>',
        )
          .replace('t="str"><v>0042</v>', 't="inlineStr"><is><t/></is>')
          .replace(
            't="str"><v>last row</v>',
            't="inlineStr"><is><t xml:space="preserve" foo="1">x</t></is>',
          ),
      true,
    ],
    [
      'inline strings with a style, r and t in openpyxl\'s order and t="n" numbers',
      (x) =>
        x.replace(
          /<c r="([A-Z]+\d+)" t="str"><v>([^<]*)<\/v>/g,
          '<c r="$1" s="0" t="inlineStr"><is><t>$2</t></is>',
        )
          .replace(/<c r="([A-Z]+\d+)"><v>/g, '<c r="$1" t="n"><v>'),
      true,
    ],
    [
      "inline strings in cells without r (SheetJS's own layout)",
      (x) =>
        x.replace(/t="str"><v>([^<]*)<\/v>/g, 't="inlineStr"><is><t>$1</t></is>').replace(
          /(<c) r="[A-Z]+\d+"/g,
          "$1",
        ),
      true,
    ],
    [
      "an inline string holding r= in a cell without r",
      (x) =>
        x.replace(/(<c) r="[A-Z]+\d+"/g, "$1").replace(
          't="str"><v>A-1</v>',
          't="inlineStr"><is><t>r="B9"</t></is>',
        ),
      false,
    ],
    [
      "POI SXSSF rows: a line break after <row>, numbers as Double.toString",
      (x) =>
        x.replace(/<row r="(\d+)">/g, '<row r="$1">\n').replace(/<\/row>/g, "</row>\n")
          .replace(/t="str"><v>([^<]*)<\/v>/g, 't="inlineStr"><is><t>$1</t></is>')
          .replace("<v>4</v>", "<v>4.0</v>").replace("<v>12</v>", "<v>12.0</v>"),
      true,
    ],
    [
      "row and cell attributes as LibreOffice writes them",
      (x) =>
        x.replace(
          /<row r="(\d+)">/g,
          '<row r="$1" customFormat="false" ht="12.8" hidden="false" customHeight="false" outlineLevel="0" collapsed="false">',
        ).replace(/<c r="([A-Z]+\d+)"(?! s=)/g, '<c r="$1" s="0"'),
      true,
    ],
    [
      "Excel's extra attributes",
      (x) =>
        x.replace(/<row r="(\d+)">/g, '<row r="$1" spans="1:5" x14ac:dyDescent="0.25">')
          .replace('<c r="B2"', '<c r="B2" cm="1" vm="1"'),
      true,
    ],
    [
      "line breaks and indentation",
      (x) =>
        x.replace(/<row /g, "\n<row\n ").replace(/<c /g, "\n  <c \n\t").replace(
          /<\/row>/g,
          "\n</row>\n",
        ),
      true,
    ],
    // SheetJS does not see a cell there at all.
    ["a line break right after <c", (x) => x.replace(/<c /g, "<c\n"), false],
    [
      "empty and self-closing cells",
      (x) =>
        x.replace('<c r="B4"', '<c r="A4" s="0"/><c r="B4"').replace(
          '<c r="D4"',
          '<c r="C4"></c><c r="D4"',
        ),
      true,
    ],
    [
      "numbers written with leading, trailing or no zeros, signs and exponents",
      (x) =>
        x.replace("<v>4</v>", "<v>004</v>").replace("<v>2.5</v>", "<v>2.50</v>").replace(
          "<v>12</v>",
          "<v>-0</v>",
        ).replace("<v>0.1</v>", "<v>.5</v>").replace("<v>7</v>", "<v>1E-7</v>"),
      true,
    ],
    ["an upper-case R attribute", (x) => x.replace('<c r="B2"', '<c R="B2"'), false],
    ["a prefixed r attribute", (x) => x.replace('<c r="B2"', '<c x:r="B2"'), false],
    ["an attribute ending in r", (x) => x.replace('<c r="B2"', '<c foor="B2" r="B2"'), false],
    ["single-quoted attributes", (x) => x.replace('<c r="B2"', "<c r='B2'"), false],
    ["a comment between cells", (x) => x.replace('<c r="B2"', '<!-- x --><c r="B2"'), false],
    ["a cell of another row", (x) => x.replace('<c r="B2"', '<c r="B3"'), false],
    ["columns out of order", (x) => x.replace('<c r="B2"', '<c r="Z2"'), false],
  ];
  for (const [what, edit, read] of cases) {
    const bytes = withPart(base, SHEET, edit);
    for (const options of [{}, { hasHeaders: false }]) {
      const { streamed, sheetjs } = await bothPaths(bytes, undefined, options);
      assert.equal(streamed !== null, read, `${what}: ${read ? "fell back" : "was read"}`);
      if (streamed !== null) assert.deepEqual(streamed, sheetjs, what);
    }
  }
});

Deno.test("workbooks as openpyxl, XlsxWriter and POI's SXSSF write them are read by the streaming reader, as SheetJS reads them", async () => {
  const headers = ["PO Number", "Order Date", "Item", "Description", "Qty", "Price", "Total"];
  const rows = Array.from({ length: 120 }, (_, i) => [
    `PO-${i}`,
    `${1 + (i % 12)}/${1 + (i % 28)}/2024`,
    String(i * 37).padStart(7, "0"),
    [" padded ", "a & b <c>", "Ünïcödé", "_x0041_ escape", "line\r\nbreak", ""][i % 6],
    String(1 + (i % 40)),
    ((100 + i * 7919 % 90000) / 100).toFixed(2),
    (((1 + (i % 40)) * (100 + i * 7919 % 90000)) / 100).toFixed(2),
  ]);
  for (const parts of [openpyxlParts, xlsxwriterParts, sxssfParts]) {
    const bytes = await producerXlsx(parts(headers, rows));
    const { streamed, sheetjs } = await bothPaths(bytes);
    assert.notEqual(streamed, null, parts.name);
    assert.deepEqual(streamed, sheetjs, parts.name);
    assert.equal((sheetjs as Table).rows.length, 120);
  }
});
