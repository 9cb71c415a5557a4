/**
 * The XLSX reader for ordinary workbooks: inflates the chosen worksheet piece by piece and
 * scans its XML text with indexOf, never building a cell object per cell (SheetJS does, which
 * costs many times the file size in memory). It gives exactly the cell texts the SheetJS path
 * gives, and returns null, so the caller uses SheetJS, for anything it is not sure about.
 */
import * as XLSX from "xlsx";
import type { FileLimits } from "./limits.ts";
import type { Grid } from "./table.ts";
import { excelSerialToIso } from "./values.ts";
import { inflateCounted, listZipEntries, type ZipEntry } from "./zip_guard.ts";
import { isBlankRow } from "./grid_rows.ts";
import { xmlBlocks, xmlText } from "./xml_blocks.ts";
import { attr, stringItemText, unescapeXml } from "./xml_text.ts";
import { contentTypes, own, sharedStrings, styleFormats, workbookSheets } from "./xlsx_parts.ts";
import { isDateFormat, numberText, ZERO_PAD } from "./xlsx_cells.ts";
import type { SheetRef } from "./xlsx_reader.ts";

/** Thrown inside the scan to give the workbook up to SheetJS. */
class Unsure extends Error {}

interface CellContext {
  sst: (string | undefined)[];
  formats: (string | null)[];
  date1904: boolean;
  /** Texts of plain numbers and of dates by their `<v>` text, so repeated values share one string. */
  plain: Map<string, string>;
  dates: Map<string, string>;
}

/** Distinct values remembered per kind; beyond that, new values are converted every time. */
const NUMBER_CACHE = 16_384;

/** Text of a numeric cell under its style's number format, as the SheetJS path gives it. */
function numberCell(raw: string, style: string | undefined, ctx: CellContext): string {
  let z: string | null = "General";
  if (style !== undefined) {
    const s = ctx.formats[style as unknown as number];
    if (s === null) throw new Unsure();
    if (s !== undefined) z = s;
  }
  let cache = ctx.plain;
  if (z !== "General") {
    if (isDateFormat(z)) cache = ctx.dates;
    else if (ZERO_PAD.test(z)) {
      let w: string | undefined;
      try {
        w = XLSX.SSF.format(z, parseFloat(raw));
      } catch { /* SheetJS leaves the display text out when the format fails */ }
      if (w) return w;
    }
  }
  // The output holds a string per cell; a quantity column repeats a few values many times.
  let text = cache.get(raw);
  if (text === undefined) {
    const v = parseFloat(raw);
    text = cache === ctx.dates ? excelSerialToIso(v, ctx.date1904) : numberText(v);
    if (text === raw) text = raw; // one string for key and value
    // A cut of 13 characters or more points into the block: not kept as a key.
    if (raw.length < 13 && cache.size < NUMBER_CACHE) cache.set(raw, text);
  }
  return text;
}

const ESCAPES = /&#x?([\da-fA-F]+);|_x([\da-fA-F]{4})_/gi;

/** Whether every character reference and _xHHHH_ escape in the text stands for ASCII. */
function asciiEscapes(v: string): boolean {
  if (v.indexOf("&#") < 0 && v.indexOf("_") < 0) return true;
  for (const m of v.matchAll(ESCAPES)) {
    const code = m[1] === undefined
      ? parseInt(m[2], 16)
      : parseInt(m[1], m[0].indexOf("x") > -1 ? 16 : 10);
    if (!(code < 0x80)) return false;
  }
  return true;
}

const NOT_PLAIN = /[&_\u0080-\uffff]/;

/**
 * Text of one cell from its start tag's attributes and its content (between `<c ...>` and
 * `</c>`), or undefined for a cell SheetJS leaves out (no value).
 */
function cellText(tag: string, content: string, ctx: CellContext): string | undefined {
  const t = attr(tag, "t");
  let v: string | undefined;
  const vs = content.indexOf("<v");
  if (vs >= 0) {
    const next = content.charCodeAt(vs + 2);
    if (next !== 62 && next !== 32) throw new Unsure();
    const open = content.indexOf(">", vs);
    const ve = content.indexOf("</v>", open);
    if (open < 0 || ve < 0) throw new Unsure();
    if (ve > open + 1) v = content.slice(open + 1, ve);
  }
  if (t === undefined || t === "n") {
    if (v === undefined) return undefined;
    if (NOT_PLAIN.test(v)) throw new Unsure();
    return numberCell(v, attr(tag, "s"), ctx);
  }
  switch (t) {
    case "s": {
      if (v === undefined) return undefined;
      if (NOT_PLAIN.test(v)) throw new Unsure();
      const i = parseInt(v, 10);
      if (!(i >= 0 && i < ctx.sst.length)) throw new Unsure();
      return ctx.sst[i] ?? "";
    }
    case "str":
      if (v === undefined) return "";
      // SheetJS decodes this text twice, the second time after reading it as UTF-8 bytes:
      // a reference or _x escape to a non-ASCII character would come out differently here.
      if (!asciiEscapes(v)) throw new Unsure();
      return own(unescapeXml(unescapeXml(v), true));
    case "inlineStr": {
      const m = /<(?:\w+:)?is\b[^<>]*>/.exec(content);
      if (!m) return "";
      const close = /<\/(?:\w+:)?is>/.exec(content.slice(m.index + m[0].length));
      if (!close) return "";
      const text = stringItemText(content.slice(m.index + m[0].length).slice(0, close.index));
      if (text === null) throw new Unsure();
      return text === undefined ? "" : own(text);
    }
    case "b":
      if (v !== undefined && NOT_PLAIN.test(v)) throw new Unsure();
      return v === "1" || v === "true" ? "TRUE" : "FALSE";
    case "e":
      if (v === undefined) return "#N/A";
      if (NOT_PLAIN.test(v)) throw new Unsure();
      return v;
    default:
      // "d" (ISO dates) and unknown types are left to SheetJS.
      throw new Unsure();
  }
}

/** 0-based column and 1-based row of a reference like "AB12"; throws for anything else. */
function decodeRef(ref: string | undefined): [number, number] {
  if (ref === undefined) throw new Unsure();
  let col = 0, i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) - 64;
    if (c < 1 || c > 26) break;
    col = col * 26 + c;
  }
  if (i === 0 || i > 3 || i === ref.length) throw new Unsure();
  let row = 0;
  for (let j = i; j < ref.length; j++) {
    const d = ref.charCodeAt(j) - 48;
    if (d < 0 || d > 9) throw new Unsure();
    row = row * 10 + d;
  }
  return [col - 1, row];
}

/** Collects rows into a grid, applying the caps; over a cap, SheetJS reports it. */
interface RowSink {
  rows: string[][];
  /** The row being read; each row is then copied out at its exact width. */
  scratch: string[];
  rowNumbers: number[];
  cells: number;
  lastRow: number;
  /** When set, each row goes here instead of into `rows` (see readXlsxStreaming). */
  onRow?: (row: string[], rowNumber: number) => void;
}

/** Scans a block of complete `<row>` elements into the sink. */
function scanRows(block: string, ctx: CellContext, sink: RowSink, limits: FileLimits) {
  let i = 0;
  for (;;) {
    const rs = block.indexOf("<row", i);
    if (rs < 0) return;
    const after = block.charCodeAt(rs + 4);
    if (after !== 32 && after !== 62 && after !== 47) throw new Unsure();
    const te = block.indexOf(">", rs);
    if (te < 0) throw new Unsure();
    if (block.charCodeAt(te - 1) === 47) {
      // An empty row (<row r="5"/>) holds nothing.
      i = te + 1;
      continue;
    }
    const rowTag = block.slice(rs, te);
    const r = Number(attr(rowTag, "r"));
    if (!Number.isInteger(r) || r <= sink.lastRow || r > limits.maxRows) throw new Unsure();
    sink.lastRow = r;
    const re = block.indexOf("</row>", te);
    if (re < 0) throw new Unsure();
    const scratch = sink.scratch;
    let n = 0;
    let j = te + 1;
    for (;;) {
      const cs = block.indexOf("<c", j);
      if (cs < 0 || cs > re) break;
      const next = block.charCodeAt(cs + 2);
      if (next !== 32) throw new Unsure();
      const ce = block.indexOf(">", cs);
      const selfClosing = block.charCodeAt(ce - 1) === 47;
      const tag = block.slice(cs + 2, selfClosing ? ce - 1 : ce);
      if (tag.indexOf("'") >= 0) throw new Unsure();
      if (tag.indexOf(":") >= 0 && tag.replace(' xml:space="preserve"', "").indexOf(":") >= 0) {
        throw new Unsure(); // a namespaced attribute SheetJS may read as r, s or t
      }
      let content = "";
      if (selfClosing) j = ce + 1;
      else {
        const close = block.indexOf("</c>", ce);
        if (close < 0 || close > re) throw new Unsure();
        content = block.slice(ce + 1, close);
        j = close + 4;
      }
      const [col, cellRow] = decodeRef(attr(tag, "r"));
      if (cellRow !== r || col < n) throw new Unsure();
      const text = cellText(tag, content, ctx);
      if (text === undefined) continue;
      while (n < col) scratch[n++] = "";
      scratch[n++] = text;
    }
    i = re + 6;
    if (n === 0) continue;
    if (n > limits.maxColumns) throw new Unsure();
    // An array grown by push keeps spare room; the copy holds just the cells.
    const row = scratch.slice(0, n);
    if (isBlankRow(row)) continue;
    sink.cells += n;
    if (sink.cells > limits.maxCells) throw new Unsure();
    if (sink.onRow) sink.onRow(row, r);
    else {
      sink.rows.push(row);
      sink.rowNumbers.push(r);
    }
  }
}

const PREFIXED_ELEMENT = /<\/?[A-Za-z_][\w.-]*:/;

/** Reads the worksheet's `<sheetData>` piece by piece; null when it is not the usual shape. */
async function scanSheet(
  pieces: AsyncIterable<Uint8Array>,
  ctx: CellContext,
  limits: FileLimits,
  onRow?: (row: string[], rowNumber: number) => void,
): Promise<RowSink | null> {
  const sink: RowSink = { rows: [], scratch: [], rowNumbers: [], cells: 0, lastRow: 0, onRow };
  let started = false;
  for await (let block of xmlBlocks(pieces, "</row>")) {
    if (block.indexOf("<!") >= 0) return null;
    if (!started) {
      const root = /<worksheet[\s>]/.exec(block);
      const open = /<sheetData\b[^<>]*>/.exec(block);
      if (!root || !open) return null;
      if (open[0].endsWith("/>")) return sink; // <sheetData/>: no cells at all
      block = block.slice(open.index + open[0].length);
      started = true;
    }
    const end = block.indexOf("</sheetData>");
    if (end >= 0) block = block.slice(0, end);
    // Namespaced elements, CDATA or comments inside the cells: SheetJS knows them.
    if (PREFIXED_ELEMENT.test(block)) return null;
    scanRows(block, ctx, sink, limits);
    if (end >= 0) return sink;
  }
  return null;
}

/**
 * Reads one sheet of an XLSX by streaming its XML, or returns
 * null when the workbook needs SheetJS: an unusual package or XML, a cell type or number
 * format it does not handle, a sheet that is missing or not a worksheet, or a cap exceeded
 * (SheetJS then words the refusal). Gives the same grid as the SheetJS path.
 *
 * Every part it inflates is counted on the way and given up (null) as soon as it grows past
 * its declared size; the size of each part read to its end lands in `sizes`, for
 * `checkInflatedSizes`. `zipEntries` are the container's entries when the caller has listed
 * and checked them already.
 *
 * With `onRow`, each row is handed to it as it is read (the grid's `rows` stay empty), so a
 * caller that needs a few columns does not hold the whole sheet. It must not throw (a throw
 * reads as "unsure"); when the reader gives up part-way (null), the rows it handed over are
 * to be discarded.
 */
export async function readXlsxStreaming(
  bytes: Uint8Array,
  limits: FileLimits,
  sheet?: SheetRef,
  zipEntries?: ZipEntry[],
  sizes: Map<ZipEntry, number> = new Map(),
  onRow?: (row: string[], rowNumber: number) => void,
): Promise<Grid | null> {
  const entryText = (entry: ZipEntry | undefined): Promise<string | null> =>
    entry ? xmlText(inflateCounted(bytes, entry, sizes)) : Promise.resolve(null);
  try {
    const entries = new Map((zipEntries ?? listZipEntries(bytes, limits)).map((e) => [e.name, e]));
    const ct = await entryText(entries.get("[Content_Types].xml"));
    const parts = ct === null ? null : contentTypes(ct);
    if (!parts) return null;
    const wbXml = await entryText(entries.get("xl/workbook.xml"));
    const relsXml = await entryText(entries.get("xl/_rels/workbook.xml.rels"));
    if (wbXml === null || relsXml === null) return null;
    const book = workbookSheets(wbXml, relsXml);
    if (!book) return null;
    const names = book.sheets.map((s) => s.name);
    if (new Set(names).size !== names.length) return null;
    let index: number;
    if (typeof sheet === "number") index = sheet - 1;
    else if (sheet === undefined) index = 0;
    else {
      index = names.indexOf(sheet);
      if (index < 0) {
        const lower = sheet.trim().toLowerCase();
        index = names.findIndex((n) => n.trim().toLowerCase() === lower);
      }
    }
    const chosen = book.sheets[index];
    const sheetEntry = chosen?.path ? entries.get(chosen.path) : undefined;
    if (!sheetEntry) return null;

    let sst: (string | undefined)[] = [];
    if (parts.sst !== null) {
      const e = entries.get(parts.sst);
      if (!e) return null;
      const read = await sharedStrings(inflateCounted(bytes, e, sizes));
      if (!read) return null;
      sst = read;
    }
    let styles: string | null = null;
    if (parts.styles !== null) {
      styles = await entryText(entries.get(parts.styles));
      if (styles === null) return null;
    }
    const formats = styleFormats(styles);
    if (!formats) return null;
    const ctx: CellContext = {
      sst,
      formats,
      date1904: book.date1904,
      plain: new Map(),
      dates: new Map(),
    };
    const sink = await scanSheet(inflateCounted(bytes, sheetEntry, sizes), ctx, limits, onRow);
    if (!sink) return null;
    return {
      format: "xlsx",
      encoding: null,
      bom: false,
      delimiter: null,
      sheet: chosen.name,
      sheets: names,
      decimalComma: false,
      date1904: book.date1904,
      rows: sink.rows,
      rowNumbers: sink.rowNumbers,
      errors: [],
    };
  } catch {
    // Unsure, or a damaged part or a refusal: SheetJS gives the answer and its wording.
    return null;
  }
}
