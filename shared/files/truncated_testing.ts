/**
 * Test helpers: files that ended early, as a transfer cut off half way leaves them. Used by the
 * readers' tests and by the tests of every path a supplier file takes (mail, SFTP, upload, CLI).
 */
import * as XLSX from "xlsx";

/**
 * The first part of a CSV, cut a few characters into a quoted field that opens after `at`
 * (a fraction of the length): an odd number of quotes, the rows after the cut missing.
 */
export function cutCsv(bytes: Uint8Array, at = 0.5): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const open = text.indexOf(',"', Math.floor(text.length * at));
  if (open < 0) throw new Error("no quoted field after the cut point");
  return new TextEncoder().encode(text.slice(0, open + 4));
}

/** The first `at` (a fraction) of a zip: its directory, written last, is gone. */
export function cutZip(bytes: Uint8Array, at = 0.5): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length * at));
}

/** A copy of a workbook with its first sheet's XML changed (the zip rewritten, intact). */
export function withSheetXml(bytes: Uint8Array, edit: (xml: string) => string): Uint8Array {
  const zip = XLSX.CFB.read(bytes, { type: "array" });
  const file = XLSX.CFB.find(zip, "/xl/worksheets/sheet1.xml");
  if (!file) throw new Error("no xl/worksheets/sheet1.xml");
  file.content = new TextEncoder().encode(
    edit(new TextDecoder().decode(file.content as Uint8Array)),
  );
  return new Uint8Array(XLSX.CFB.write(zip, { fileType: "zip", type: "array" }) as ArrayBuffer);
}

/** Sheet XML stopped after `keep` (a fraction) of its text, as a writer that died leaves it. */
export function cutSheetXml(xml: string, keep = 0.5): string {
  return xml.slice(0, Math.floor(xml.length * keep));
}
