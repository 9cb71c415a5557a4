/**
 * Appends many rows to the first worksheet of an XLSX that SheetJS wrote (fillTemplate's
 * output), without SheetJS: the sheet XML is extended as text, deflated natively and the zip
 * rebuilt. SheetJS needs about 3 s and hundreds of MB for 100,000 rows; this takes a fraction
 * of both (docs/inventory.md, "Output"). Cells are written exactly as SheetJS writes them
 * (`t="str"` text, dates as serials with the template row's date style), so the file reads
 * the same either way.
 */
import { type CellValue, columnLetter, escapeFormula } from "../files/mod.ts";

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** Continues a CRC-32 over `bytes` (start with 0). */
function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** The compressed bytes. */
  data: Uint8Array;
}

/** Reads a zip's entries through its central directory (no zip64, as SheetJS writes them). */
function readZip(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error("not a zip file");
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(p, true) !== 0x02014b50) throw new Error("bad zip directory");
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const compressedSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const offset = view.getUint32(p + 42, true);
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    const start = offset + 30 + view.getUint16(offset + 26, true) +
      view.getUint16(offset + 28, true);
    entries.push({
      name,
      method,
      crc,
      compressedSize,
      size,
      data: bytes.subarray(start, start + compressedSize),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Writes entries as a zip (local headers, data, central directory). */
function writeZip(entries: ZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((e) => encoder.encode(e.name));
  let total = 22;
  entries.forEach((e, i) => total += 30 + 46 + 2 * names[i].length + e.data.length);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let p = 0;
  const offsets: number[] = [];
  const header = (at: number, e: ZipEntry, nameLength: number) => {
    view.setUint16(at, 20, true); // version needed
    view.setUint16(at + 2, 0, true); // flags
    view.setUint16(at + 4, e.method, true);
    view.setUint16(at + 6, 0, true); // time
    view.setUint16(at + 8, 0x21, true); // date 1980-01-01
    view.setUint32(at + 10, e.crc, true);
    view.setUint32(at + 14, e.compressedSize, true);
    view.setUint32(at + 18, e.size, true);
    view.setUint16(at + 22, nameLength, true);
    view.setUint16(at + 24, 0, true); // extra
  };
  entries.forEach((e, i) => {
    offsets.push(p);
    view.setUint32(p, 0x04034b50, true);
    header(p + 4, e, names[i].length);
    out.set(names[i], p + 30);
    out.set(e.data, p + 30 + names[i].length);
    p += 30 + names[i].length + e.data.length;
  });
  const directory = p;
  entries.forEach((e, i) => {
    view.setUint32(p, 0x02014b50, true);
    view.setUint16(p + 4, 20, true); // version made by
    header(p + 6, e, names[i].length);
    // comment length, disk, internal and external attributes: 0
    view.setUint32(p + 42, offsets[i], true);
    out.set(names[i], p + 46);
    p += 46 + names[i].length;
  });
  view.setUint32(p, 0x06054b50, true);
  view.setUint16(p + 8, entries.length, true);
  view.setUint16(p + 10, entries.length, true);
  view.setUint32(p + 12, p - directory, true);
  view.setUint32(p + 16, directory, true);
  return out.subarray(0, p + 22);
}

async function inflate(entry: ZipEntry): Promise<Uint8Array> {
  if (entry.method === 0) return entry.data;
  const stream = new Blob([entry.data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new DecompressionStream("deflate-raw"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const escapeXml = (text: string) => text.replace(/[&<>]/g, (c) => XML_ESCAPES[c]);
// Characters XML 1.0 cannot hold at all (SheetJS writes them as _xHHHH_; dropped here).
// deno-lint-ignore no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

const UNIX_EPOCH_SERIAL = 25569;

/** One cell as SheetJS writes it (text escaped against formula injection). */
function cellXml(ref: string, value: CellValue, dateStyle: string | null): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") {
    return `<c r="${ref}" t="str"><v>${
      escapeXml(escapeFormula(value).replace(INVALID_XML, ""))
    }</v></c>`;
  }
  if (typeof value === "number") {
    return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : "";
  }
  if (typeof value === "boolean") return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  const serial = Math.floor(value.getTime() / 86_400_000) + UNIX_EPOCH_SERIAL;
  return `<c r="${ref}"${dateStyle ? ` s="${dateStyle}"` : ""}><v>${serial}</v></c>`;
}

/**
 * Appends `rows` (cells by 0-based column) to the first worksheet of `xlsx`, starting at
 * 1-based sheet row `firstRow`. `xlsx` must be a SheetJS-written workbook whose sheet ends with
 * a data row holding a date cell in `dateColumn` (its style is reused for the dates), as
 * fillTemplate writes it with the first of the rows. Returns the new workbook bytes.
 */
export async function appendRowsToXlsx(
  xlsx: Uint8Array,
  rows: readonly (readonly CellValue[])[] | {
    length: number;
    at(i: number): readonly CellValue[];
    width: number;
  },
  firstRow: number,
  dateColumn: number,
): Promise<Uint8Array> {
  const rowAt = Array.isArray(rows)
    ? (i: number) => rows[i] as readonly CellValue[]
    : (i: number) => (rows as { at(i: number): readonly CellValue[] }).at(i);
  const entries = readZip(xlsx);
  const sheetIndex = entries.findIndex((e) => e.name === "xl/worksheets/sheet1.xml");
  if (sheetIndex < 0) throw new Error("the workbook has no xl/worksheets/sheet1.xml");
  const xml = new TextDecoder().decode(await inflate(entries[sheetIndex]));
  const end = xml.lastIndexOf("</sheetData>");
  if (end < 0) throw new Error("the worksheet has no sheetData");
  const lastRow = xml.lastIndexOf("<row ", end);
  const lastRowXml = lastRow >= 0 ? xml.slice(lastRow, end) : "";
  const dateRef = `${columnLetter(dateColumn)}${firstRow - 1}`;
  const dateStyle = new RegExp(`<c r="${dateRef}"[^>]* s="(\\d+)"`).exec(lastRowXml)?.[1] ??
    new RegExp(`<c r="${dateRef}" s="(\\d+)"`).exec(lastRowXml)?.[1] ?? null;
  const oldRef = /<dimension ref="([A-Z]+\d+):([A-Z]+)(\d+)"\/>/.exec(xml);
  let width = 0;
  if (Array.isArray(rows)) { for (const row of rows) width = Math.max(width, row.length); }
  else width = (rows as { width: number }).width;
  const lastRowNumber = firstRow + rows.length - 1;
  let head = xml.slice(0, end);
  let tail = xml.slice(end);
  if (oldRef) {
    const oldEndCol = oldRef[2];
    let endCol = oldEndCol;
    if (width > 0 && columnLetter(width - 1).length >= endCol.length) {
      const candidate = columnLetter(width - 1);
      if (candidate.length > endCol.length || candidate > endCol) endCol = candidate;
    }
    const before = `${oldRef[1]}:${oldEndCol}${oldRef[3]}`;
    const after = `${oldRef[1]}:${endCol}${Math.max(lastRowNumber, Number(oldRef[3]))}`;
    head = head.replaceAll(`"${before}"`, `"${after}"`);
    tail = tail.replaceAll(`"${before}"`, `"${after}"`);
  }

  // Deflate the new sheet XML as it is produced, in chunks, with its CRC.
  const encoder = new TextEncoder();
  const compressor = new CompressionStream("deflate-raw");
  const writer = compressor.writable.getWriter();
  const compressed = new Response(compressor.readable).arrayBuffer();
  let crc = 0, size = 0;
  const write = async (text: string) => {
    const bytes = encoder.encode(text);
    crc = crc32(crc, bytes);
    size += bytes.length;
    await writer.write(bytes);
  };
  await write(head);
  const letters = Array.from({ length: width }, (_, c) => columnLetter(c));
  let chunk: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = firstRow + i;
    let cells = "";
    const row = rowAt(i);
    for (let c = 0; c < row.length; c++) cells += cellXml(letters[c] + r, row[c], dateStyle);
    chunk.push(`<row r="${r}">${cells}</row>`);
    if (chunk.length === 1000) {
      await write(chunk.join(""));
      chunk = [];
    }
  }
  await write(chunk.join("") + tail);
  await writer.close();
  const data = new Uint8Array(await compressed);
  entries[sheetIndex] = {
    name: entries[sheetIndex].name,
    method: 8,
    crc,
    compressedSize: data.length,
    size,
    data,
  };
  return writeZip(entries);
}
