import assert from "node:assert/strict";
import { decodeText } from "./detect_encoding.ts";
import { detectDelimiter } from "./detect_delimiter.ts";
import { resolveFormat, sniffContent } from "./detect_format.ts";
import { FileRefusedError } from "./errors.ts";

const utf16le = (s: string) =>
  new Uint8Array(new Uint16Array([...s].map((c) => c.charCodeAt(0))).buffer);

Deno.test("decodeText detects BOMs, UTF-16 without BOM and falls back to Windows-1252", () => {
  const cases: [Uint8Array, string, string, boolean][] = [
    [new TextEncoder().encode("Café"), "Café", "utf-8", false],
    [
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("Café")]),
      "Café",
      "utf-8",
      true,
    ],
    [new Uint8Array([0xff, 0xfe, ...utf16le("Café,1")]), "Café,1", "utf-16le", true],
    [new Uint8Array([0xfe, 0xff, 0, 0x41, 0, 0x2c, 0, 0x42]), "A,B", "utf-16be", true],
    [utf16le("Item,Qty\r\n1,2"), "Item,Qty\r\n1,2", "utf-16le", false],
    [new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]), "Café €", "windows-1252", false],
  ];
  for (const [bytes, text, encoding, bom] of cases) {
    assert.deepEqual(decodeText(bytes), { text, encoding, bom }, text);
  }
});

Deno.test("detectDelimiter picks the delimiter the records agree on", () => {
  const cases: [string, string][] = [
    ["a,b,c\n1,2,3\n", ","],
    ["a;b;c\n1;2,5;3\n4;5,5;6\n", ";"],
    ["a\tb\n1\t2\n", "\t"],
    ["a|b|c\n1|2|3\n", "|"],
    ['Report title\n\nItem;Note\n1;"x, y, z"\n2;"a,b"\n', ";"],
    ['"a,b"|c\n"1,2"|3\n', "|"],
    ["single\ncolumn\n", ","],
  ];
  for (const [text, expected] of cases) {
    assert.equal(detectDelimiter(text), expected, JSON.stringify(text));
  }
});

Deno.test("content that does not match the declared type is refused", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, 13]);
  assert.equal(sniffContent(png), "png");
  assert.throws(
    () => resolveFormat(png, "csv", '"a.csv"'),
    (e: FileRefusedError) =>
      e.code === "content_mismatch" && /PNG image, not a CSV/.test(e.message),
  );
  const text = new TextEncoder().encode("a,b\n1,2\n");
  assert.throws(() => resolveFormat(text, "xlsx", '"a.xlsx"'), /not an Excel workbook/);
  assert.equal(resolveFormat(text, null, "x"), "csv");
  assert.equal(resolveFormat(text, "txt", "x"), "txt");
  const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]);
  assert.equal(resolveFormat(ole, "xlsx", "x"), "xls");
});
