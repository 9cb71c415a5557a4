import assert from "node:assert/strict";
import { readTable } from "./read_table.ts";
import { FileRefusedError } from "./errors.ts";
import { FEED_LIMITS, UPLOAD_LIMITS } from "./limits.ts";
import { writeTable } from "./write_table.ts";
import * as XLSX from "xlsx";

const enc = new TextEncoder();
const refusedWith = (code: string, message?: RegExp) => (e: unknown) => {
  assert.ok(e instanceof FileRefusedError, String(e));
  assert.equal(e.code, code);
  if (message) assert.match(e.message, message);
  return true;
};

Deno.test("the size cap is checked before parsing: 10 MB for uploads, 50 MB for feeds", async () => {
  const line = "00123,5,Active\n";
  const big = enc.encode(
    "Item,Qty,Status\n" + line.repeat(Math.ceil((UPLOAD_LIMITS.maxBytes + 1) / line.length)),
  );
  await assert.rejects(
    readTable(big, { name: "big.csv" }),
    refusedWith(
      "too_large",
      /"big.csv" is 10 MB \(10,485,7\d\d bytes\); files must be at most 10 MB \(10,485,760 bytes\)/,
    ),
  );
  const t = await readTable(big, { name: "big.csv", limits: FEED_LIMITS });
  assert.equal(t.rows.length, Math.ceil((UPLOAD_LIMITS.maxBytes + 1) / line.length));
  await assert.rejects(
    readTable(enc.encode("a"), { limits: { maxBytes: 0 } }),
    refusedWith("too_large"),
  );
  await assert.rejects(
    readTable(new Uint8Array(), { name: "x.csv" }),
    refusedWith("empty", /"x.csv" is empty/),
  );
});

Deno.test("row and cell caps refuse a file as a whole", async () => {
  const csv = enc.encode("a,b\n" + "1,2\n".repeat(10));
  assert.equal((await readTable(csv, { limits: { maxRows: 11 } })).rows.length, 10);
  await assert.rejects(
    readTable(csv, { limits: { maxRows: 10 } }),
    refusedWith("too_many_rows", /more than 10 rows/),
  );
  await assert.rejects(
    readTable(csv, { limits: { maxCells: 15 } }),
    refusedWith("too_many_cells", /more than 15 cells/),
  );
  const xlsx = writeTable(["a", "b"], Array.from({ length: 10 }, () => ["1", "2"]), "xlsx");
  await assert.rejects(
    readTable(xlsx, { type: "xlsx", limits: { maxRows: 10 } }),
    refusedWith("too_many_rows"),
  );
  await assert.rejects(
    readTable(xlsx, { type: "xlsx", limits: { maxColumns: 1 } }),
    refusedWith("too_many_columns"),
  );
});

Deno.test("XLSX container caps apply to real workbooks", async () => {
  const xlsx = writeTable(["a"], Array.from({ length: 2000 }, (_, i) => [`row ${i}`]), "xlsx");
  assert.equal((await readTable(xlsx, { type: "xlsx" })).rows.length, 2000);
  await assert.rejects(
    readTable(xlsx, { type: "xlsx", limits: { maxZipEntries: 3 } }),
    refusedWith("zip_too_many_entries"),
  );
  await assert.rejects(
    readTable(xlsx, { type: "xlsx", limits: { maxEntryBytes: 10_000 } }),
    refusedWith("zip_entry_too_large"),
  );
  await assert.rejects(
    readTable(xlsx, { type: "xlsx", limits: { maxUncompressedBytes: 40_000 } }),
    refusedWith("zip_too_large"),
  );
  const truncated = xlsx.slice(0, xlsx.length - 30);
  await assert.rejects(readTable(truncated, { type: "xlsx" }), refusedWith("truncated_file"));
});

/** A copy of a zip whose named entries declare `size` bytes unpacked (both headers). */
function declareSize(zip: Uint8Array, names: string[], size: number): Uint8Array {
  const b = zip.slice();
  const v = new DataView(b.buffer);
  let eocd = b.length - 22;
  while (v.getUint32(eocd, true) !== 0x06054b50) eocd--;
  let p = v.getUint32(eocd + 16, true);
  for (let i = 0; i < v.getUint16(eocd + 10, true); i++) {
    const nameLen = v.getUint16(p + 28, true);
    const name = new TextDecoder().decode(b.subarray(p + 46, p + 46 + nameLen));
    if (names.includes(name)) {
      v.setUint32(p + 24, size, true);
      v.setUint32(v.getUint32(p + 42, true) + 22, size, true);
    }
    p += 46 + nameLen + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return b;
}

Deno.test("XLSX parts larger than declared are refused, read by the streaming reader or not", async () => {
  const xlsx = writeTable(["a"], Array.from({ length: 2000 }, (_, i) => [`row ${i}`]), "xlsx");
  const cases: [string[], string][] = [
    [["xl/worksheets/sheet1.xml"], "xl/worksheets/sheet1.xml"], // streamed
    [["xl/styles.xml"], "xl/styles.xml"], // read whole
    [["xl/theme/theme1.xml"], "xl/theme/theme1.xml"], // not read: counted afterwards
    // The first part in the directory is named, whichever was inflated first.
    [["docProps/app.xml", "xl/worksheets/sheet1.xml"], "xl/worksheets/sheet1.xml"],
    [["xl/worksheets/sheet1.xml", "xl/theme/theme1.xml"], "xl/theme/theme1.xml"],
  ];
  for (const [names, named] of cases) {
    await assert.rejects(
      readTable(declareSize(xlsx, names, 100), { type: "xlsx" }),
      refusedWith("zip_entry_too_large", new RegExp(`part ${named} is larger than its header`)),
      names.join(" "),
    );
  }
});

Deno.test("a cell longer than 32,767 characters refuses the file, in every format", async () => {
  const max = UPLOAD_LIMITS.maxCellChars;
  assert.equal(max, 32_767);
  const cases: { name: string; file: () => Uint8Array; type: "csv" | "txt" | "xlsx" }[] = [
    {
      name: "CSV, plain cell",
      type: "csv",
      file: () => enc.encode(`Item,Qty\nA1,5\nA2,${"9".repeat(max + 1)}\n`),
    },
    {
      name: "CSV, quoted cell with line breaks",
      type: "csv",
      file: () => enc.encode(`Item,Qty\nA1,5\nA2,"${"ab\n".repeat(Math.ceil((max + 1) / 3))}"\n`),
    },
    {
      name: "tab-delimited TXT",
      type: "txt",
      file: () => enc.encode(`Item\tQty\nA1\t5\nA2\t${"x".repeat(max + 1)}\n`),
    },
    {
      name: "XLSX",
      type: "xlsx",
      // SheetJS refuses to write such a cell: the text is put in afterwards.
      file: () =>
        withText(
          writeTable(["Item", "Qty"], [["A1", "5"], ["A2", "LONG_CELL"]], "xlsx"),
          "LONG_CELL",
          "y".repeat(max + 1),
        ),
    },
  ];
  for (const c of cases) {
    await assert.rejects(
      readTable(c.file(), { type: c.type }),
      refusedWith("cell_too_long", /^Row 3, column B has 32,76\d characters, more than the 32,767/),
      c.name,
    );
  }
  // At the cap exactly, and under a raised cap, the file is read.
  const atCap = enc.encode(`Item,Qty\nA1,${"9".repeat(max)}\n`);
  assert.equal((await readTable(atCap, { type: "csv" })).rows[0][1].length, max);
  const csv = enc.encode(`Item,Qty\nA1,${"9".repeat(20)}\n`);
  await assert.rejects(
    readTable(csv, { type: "csv", limits: { maxCellChars: 19 } }),
    refusedWith("cell_too_long", /Row 2, column B has 20 characters, more than the 19/),
  );
  assert.equal(
    (await readTable(csv, { type: "csv", limits: { maxCellChars: 20 } })).rows.length,
    1,
  );
});

Deno.test("a 5 MB cell in a CSV is refused, not stored", async () => {
  const csv = enc.encode(`Item,Notes\nA1,${"n".repeat(5 * 1024 * 1024)}\n`);
  await assert.rejects(readTable(csv, { name: "big_cell.csv" }), refusedWith("cell_too_long"));
});

/** A copy of a workbook with `marker` replaced by `text` in the part that holds it. */
function withText(bytes: Uint8Array, marker: string, text: string): Uint8Array {
  const zip = XLSX.CFB.read(bytes, { type: "array" });
  const file = zip.FileIndex.find((f: { content?: unknown }) =>
    f.content && new TextDecoder().decode(f.content as Uint8Array).includes(marker)
  )!;
  file.content = enc.encode(
    new TextDecoder().decode(file.content as Uint8Array).replace(marker, text),
  );
  return new Uint8Array(XLSX.CFB.write(zip, { fileType: "zip", type: "array" }) as ArrayBuffer);
}
