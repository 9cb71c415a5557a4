/**
 * The XLSX reader for ordinary workbooks: inflates the chosen worksheet piece by piece and
 * scans its XML text with indexOf, never building a cell object per cell (SheetJS does, which
 * costs many times the file size in memory). It gives exactly the cell texts the SheetJS path
 * gives, and returns null, so the caller uses SheetJS, for anything it is not sure about.
 */
import * as XLSX from "xlsx";
import type { FileLimits } from "./limits.ts";
import type { Grid, SheetRef } from "./table.ts";
import { excelSerialToIso } from "./values.ts";
import { inflateCounted, listZipEntries, type ZipEntry } from "./zip_guard.ts";
import { isBlankRow } from "./grid_rows.ts";
import { xmlBlocks, xmlText } from "./xml_blocks.ts";
import { stringItemText, unescapeXml } from "./xml_text.ts";
import { contentTypes, own, sharedStrings, styleFormats, workbookSheets } from "./xlsx_parts.ts";
import { isDateFormat, numberText, ZERO_PAD } from "./xlsx_cells.ts";

/** Thrown inside the scan to give the workbook up to SheetJS. */
class Unsure extends Error {}

/** How a cell style shows numbers, as far as the cell text goes. */
const PLAIN = 0, DATE = 1, ZERO_PADDED = 2, UNKNOWN_FORMAT = 3;

interface CellContext {
  sst: (string | undefined)[];
  formats: (string | null)[];
  /** The kind (PLAIN, DATE, ...) of each style's format, filled as styles are met. */
  kinds: number[];
  date1904: boolean;
  /** Texts of plain numbers and of dates by their `<v>` text, so repeated values share one string. */
  plain: Map<string, string>;
  dates: Map<string, string>;
  /** Short inline texts, so a column repeating a few values (a state, a city) holds a few strings. */
  texts: Map<string, string>;
}

/** Distinct values remembered per kind; beyond that, new values are converted every time. */
const NUMBER_CACHE = 16_384;

/** The kind of number format of cell style `style` (-1: none). */
function formatKind(ctx: CellContext, style: number): number {
  if (style < 0 || style >= ctx.formats.length) return PLAIN;
  let kind = ctx.kinds[style];
  if (kind === undefined) {
    const z = ctx.formats[style];
    kind = z === null
      ? UNKNOWN_FORMAT
      : z === "General"
      ? PLAIN
      : isDateFormat(z)
      ? DATE
      : ZERO_PAD.test(z)
      ? ZERO_PADDED
      : PLAIN;
    ctx.kinds[style] = kind;
  }
  return kind;
}

/**
 * Whether `numberText(parseFloat(raw))` is `raw` itself: a plain decimal of at most 15 digits
 * without leading or trailing zeros and not below 1e-6 (such a decimal survives the trip
 * through a double, and JavaScript prints it back in the same form), so it needs no converting.
 */
function printsAsItself(raw: string): boolean {
  const len = raw.length;
  let i = raw.charCodeAt(0) === 45 ? 1 : 0;
  const intAt = i;
  let c = raw.charCodeAt(i);
  while (c >= 48 && c <= 57) c = raw.charCodeAt(++i);
  const intLen = i - intAt;
  if (intLen === 0 || intLen > 15) return false;
  const zero = intLen === 1 && raw.charCodeAt(intAt) === 48;
  if (intLen > 1 && raw.charCodeAt(intAt) === 48) return false; // "007" prints as "7"
  if (i === len) return !(zero && intAt === 1); // "-0" prints as "0"
  if (c !== 46) return false;
  const fracAt = ++i;
  c = raw.charCodeAt(i);
  while (c >= 48 && c <= 57) c = raw.charCodeAt(++i);
  if (i !== len || i === fracAt || intLen + i - fracAt > 15) return false;
  if (raw.charCodeAt(len - 1) === 48) return false; // "1.50" prints as "1.5"
  if (zero) {
    // 0.0000001 prints as 1e-7
    let z = fracAt;
    while (raw.charCodeAt(z) === 48) z++;
    if (z - fracAt > 5) return false;
  }
  return true;
}

/** Text of a numeric cell under its style's number format, as the SheetJS path gives it. */
function numberCell(raw: string, style: number, ctx: CellContext): string {
  const kind = formatKind(ctx, style);
  if (kind === UNKNOWN_FORMAT) throw new Unsure();
  // The output holds a string per cell; a quantity column repeats a few values many times.
  const cache = kind === DATE ? ctx.dates : ctx.plain;
  if (kind !== ZERO_PADDED) {
    const known = cache.get(raw);
    if (known !== undefined) return known; // only plain values are ever remembered
  }
  if (NOT_PLAIN.test(raw)) throw new Unsure();
  if (kind === ZERO_PADDED) {
    let w: string | undefined;
    try {
      w = XLSX.SSF.format(ctx.formats[style]!, parseFloat(raw));
    } catch { /* SheetJS leaves the display text out when the format fails */ }
    if (w) return w;
  }
  let text = cache.get(raw);
  if (text === undefined) {
    text = kind === DATE
      ? excelSerialToIso(parseFloat(raw), ctx.date1904)
      : printsAsItself(raw)
      ? raw
      : numberText(parseFloat(raw));
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

/** Text of a `t="str"` value (its `<v>` text). */
function strText(v: string): string {
  // Nothing to decode: the text as it is (the common case, checked without a regex).
  let plain = true;
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k);
    if (c === 38 || c === 95 || c === 13 || c === 60) {
      plain = false;
      break;
    }
  }
  if (plain) return own(v);
  // SheetJS decodes this text twice, the second time after reading it as UTF-8 bytes:
  // a reference or _x escape to a non-ASCII character would come out differently here.
  if (!asciiEscapes(v)) throw new Unsure();
  return own(unescapeXml(unescapeXml(v), true));
}

const PRESERVE = ' xml:space="preserve">';

/**
 * Text of an inline string (between `<is><t>` and `</t>`) as the general path gives it: SheetJS's
 * unescaping (unless `plain`: nothing to decode), `\r\n` → `\n`, then copied out of the block;
 * short texts are shared.
 */
function inlineText(v: string, plain: boolean, ctx: CellContext): string {
  if (!plain) return own(unescapeXml(v, true));
  // A cut of 13 characters or more points into the block: copied, not kept as a key.
  if (v.length >= 13) return own(v);
  const known = ctx.texts.get(v);
  if (known !== undefined) return known;
  if (ctx.texts.size < NUMBER_CACHE) ctx.texts.set(v, v);
  return v;
}

/** Text up to the first `<`, or a character SheetJS decodes (`&`, `_`, CR). */
const TEXT_RUN = /[^<&_\r]*/y;

/**
 * Text of one cell from its type (`t`), style (`s`, -1 for none) and its content (between
 * `<c ...>` and `</c>`), or undefined for a cell SheetJS leaves out (no value).
 */
function cellText(
  t: string | undefined,
  style: number,
  content: string,
  ctx: CellContext,
): string | undefined {
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
    return numberCell(v, style, ctx);
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
      return v === undefined ? "" : strText(v);
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

/** Collects rows into a grid, applying the caps; over a cap, SheetJS reports it. */
interface RowSink {
  rows: string[][];
  /** The row being read; each row is then copied out at its exact width. */
  scratch: string[];
  rowNumbers: number[];
  cells: number;
  /** Number of the last row with content (an empty `<row/>` does not count, as in SheetJS). */
  lastRow: number;
  /** When set, each row goes here instead of into `rows` (see readXlsxStreaming). */
  onRow?: (row: string[], rowNumber: number) => void;
}

/*
 * The scan below reads the sheet data character by character, and knows every tag it passes:
 * `<row>`, `<c>`, `<v>` and their ends. Anything else between them (comments, CDATA, prefixed
 * elements, text) gives the workbook up to SheetJS. Attributes are read as SheetJS reads them
 * (parsexmltag): a prefix is dropped (`x:r` is `r`), so is a tail after `_` (`r_x` is `r`), and
 * the name is matched in lower case too; any such spelling of `r`, `s` or `t` other than the
 * plain one, a repeated one, single quotes or spaces around `=` give up.
 */

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * The lower-cased letter of a one-letter attribute key as SheetJS files the attribute named
 * `s[at..end)`, or 0.
 */
function attrKey(s: string, at: number, end: number): number {
  let from = at, to = end;
  for (let k = at; k < end; k++) {
    if (s.charCodeAt(k) === 58) {
      from = k + 1;
      break;
    }
  }
  if (from === at) {
    for (let k = at + 1; k < end; k++) {
      if (s.charCodeAt(k) === 95) {
        to = k;
        break;
      }
    }
  }
  return to - from === 1 ? s.charCodeAt(from) | 0x20 : 0;
}

/** Unsigned decimal digits `s[at..end)` as a number; throws for anything else. */
function digits(s: string, at: number, end: number): number {
  if (end <= at || end - at > 9) throw new Unsure();
  let n = 0;
  for (let k = at; k < end; k++) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) throw new Unsure();
    n = n * 10 + d;
  }
  return n;
}

/** Whether `s[at..end)` holds `r=`, which SheetJS's cell reference pattern would take. */
function refLike(s: string, at: number, end: number): boolean {
  for (let k = at; k < end; k++) {
    if (s.charCodeAt(k) === 114 && s.charCodeAt(k + 1) === 61) return true;
  }
  return false;
}

const T_NUMBER = 0, T_SHARED = 1, T_STR = 2, T_OTHER = 3, T_INLINE = 4;

/** The attributes of the cell start tag just read; one object for all cells. */
const cellTag = {
  /** Where the value of `r` is, or -1. */
  rAt: -1,
  rEnd: -1,
  style: -1,
  type: T_NUMBER,
  /** The `t` text, undefined when there is none. */
  t: undefined as string | undefined,
};

/**
 * Reads the attributes of a start tag, `s[p..limit)` (after the element name): fills
 * {@link cellTag} for a cell, or returns the row number for a row (-1 without one).
 */
function readAttributes(s: string, p: number, limit: number, cell: boolean): number {
  let row = -1, seen = 0;
  if (cell) {
    cellTag.rAt = -1;
    cellTag.style = -1;
    cellTag.type = T_NUMBER;
    cellTag.t = undefined;
  }
  while (p < limit) {
    let c = s.charCodeAt(p);
    if (!isSpace(c)) throw new Unsure();
    do c = s.charCodeAt(++p); while (p < limit && isSpace(c));
    if (p >= limit) break;
    const nameAt = p;
    while (c !== 61) {
      if (c <= 32 || c === 34 || c === 39 || c === 47 || c === 60 || c === 62) throw new Unsure();
      if (++p >= limit) throw new Unsure();
      c = s.charCodeAt(p);
    }
    const nameEnd = p;
    if (nameEnd === nameAt || s.charCodeAt(p + 1) !== 34) throw new Unsure();
    const vAt = p + 2, vEnd = s.indexOf('"', vAt);
    if (vEnd < 0 || vEnd >= limit) throw new Unsure();
    p = vEnd + 1;
    // One-letter names (r, s, t) are the common case.
    const key = nameEnd - nameAt === 1 ? s.charCodeAt(nameAt) | 0x20 : attrKey(s, nameAt, nameEnd);
    const bit = key === 114 ? 1 : key === 115 ? 2 : key === 116 ? 4 : 0;
    if (bit !== 0) {
      // Only the plain spelling, once.
      if (seen & bit || nameEnd - nameAt !== 1 || s.charCodeAt(nameAt) !== key) {
        throw new Unsure();
      }
      seen |= bit;
    }
    if (!cell) {
      if (bit === 1) row = digits(s, vAt, vEnd);
      continue;
    }
    if (bit === 1) {
      cellTag.rAt = vAt;
      cellTag.rEnd = vEnd;
    } else if (bit === 2) {
      // SheetJS looks the style up by its text: "01" is no style, "" neither.
      if (vEnd > vAt + 1 && s.charCodeAt(vAt) === 48) throw new Unsure();
      cellTag.style = vEnd === vAt ? -1 : digits(s, vAt, vEnd);
    } else if (bit === 4) {
      const len = vEnd - vAt, c0 = s.charCodeAt(vAt);
      if (len === 1 && c0 === 115) {
        cellTag.type = T_SHARED;
        cellTag.t = "s";
      } else if (len === 1 && c0 === 110) cellTag.t = "n";
      else if (len === 3 && c0 === 115 && s.startsWith("str", vAt)) {
        cellTag.type = T_STR;
        cellTag.t = "str";
      } else if (len === 9 && c0 === 105 && s.startsWith("inlineStr", vAt)) {
        cellTag.type = T_INLINE;
        cellTag.t = "inlineStr";
      } else {
        cellTag.type = T_OTHER;
        cellTag.t = s.slice(vAt, vEnd);
      }
    } else if (refLike(s, nameAt, vEnd)) {
      throw new Unsure(); // SheetJS would take it for the cell reference
    }
  }
  return row;
}

/** 0-based column of the reference `s[at..end)` ("AB12"), which must be in row `row`. */
function refColumn(s: string, at: number, end: number, row: number): number {
  let col = 0, i = at;
  for (; i < end; i++) {
    const c = s.charCodeAt(i) - 64;
    if (c < 1 || c > 26) break;
    col = col * 26 + c;
  }
  if (i === at || i > at + 3 || digits(s, i, end) !== row) throw new Unsure();
  return col - 1;
}

/** A cell's content the scan does not know: markup SheetJS reads its own way, or no end. */
const ODD_CONTENT = /<!|<\/?[A-Za-z_][\w.-]*:|<c[\s/>]|<\/?row[\s/>]/;

/** Reads one cell at `s[cs]` (`<c`) into the row; returns where it ends. */
function scanCell(
  s: string,
  cs: number,
  row: number,
  ctx: CellContext,
  state: { n: number; col: number; scratch: string[] },
): number {
  // SheetJS takes `<c` for a cell only before a space, `/` or `>`.
  const next = s.charCodeAt(cs + 2);
  if (next !== 32 && next !== 62 && next !== 47) throw new Unsure();
  const te = s.indexOf(">", cs + 2);
  if (te < 0) throw new Unsure();
  const closed = s.charCodeAt(te - 1) === 47;
  readAttributes(s, cs + 2, closed ? te - 1 : te, true);
  const hasRef = cellTag.rAt >= 0;
  let col = state.col + 1;
  if (hasRef) {
    col = refColumn(s, cellTag.rAt, cellTag.rEnd, row);
    if (col < state.col + 1) throw new Unsure();
  }
  state.col = col;
  let text: string | undefined;
  let end = -1;
  // An inline string as streaming writers (openpyxl, POI's SXSSF, XlsxWriter's constant-memory
  // mode) write every text cell: <c ... t="inlineStr"><is><t>text</t></is></c>, read in place.
  if (cellTag.type === T_INLINE) {
    if (!closed && s.startsWith("<is><t", te + 1)) {
      let a = te + 7;
      if (s.charCodeAt(a) === 62) a++;
      else if (s.startsWith(PRESERVE, a)) a += PRESERVE.length;
      else a = -1;
      let b = -1, plain = false;
      if (a > 0) {
        // One native scan to the first character that is markup or needs decoding.
        TEXT_RUN.lastIndex = a;
        TEXT_RUN.test(s);
        b = TEXT_RUN.lastIndex;
        plain = s.charCodeAt(b) === 60;
        if (!plain) b = s.indexOf("<", b);
      }
      if (b >= 0 && s.startsWith("</t></is></c>", b) && (hasRef || !refLike(s, a, b))) {
        text = b === a ? "" : inlineText(s.slice(a, b), plain, ctx);
        end = b + 13;
      }
    }
  } else if (
    !closed && cellTag.type !== T_OTHER && s.charCodeAt(te + 1) === 60 &&
    s.charCodeAt(te + 2) === 118 && s.charCodeAt(te + 3) === 62
  ) {
    const a = te + 4, b = s.indexOf("<", a);
    if (b >= 0 && s.startsWith("</v></c>", b) && (hasRef || !refLike(s, a, b))) {
      if (cellTag.type === T_SHARED) {
        if (b === a) end = b + 8;
        else {
          let i = 0, k = a;
          for (; k < b && k < a + 9; k++) {
            const d = s.charCodeAt(k) - 48;
            if (d < 0 || d > 9) break;
            i = i * 10 + d;
          }
          if (k === b) {
            if (i >= ctx.sst.length) throw new Unsure();
            text = ctx.sst[i] ?? "";
            end = b + 8;
          }
        }
      } else if (cellTag.type === T_STR) {
        text = b === a ? "" : strText(s.slice(a, b));
        end = b + 8;
      } else {
        if (b > a) text = numberCell(s.slice(a, b), cellTag.style, ctx);
        end = b + 8;
      }
    }
  }
  if (end < 0) {
    let content = "";
    if (closed) end = te + 1;
    else {
      const close = s.indexOf("</c>", te);
      if (close < 0) throw new Unsure();
      content = s.slice(te + 1, close);
      if (ODD_CONTENT.test(content) || (!hasRef && refLike(content, 0, content.length))) {
        throw new Unsure();
      }
      end = close + 4;
    }
    text = cellText(cellTag.t, cellTag.style, content, ctx);
  }
  if (text !== undefined) {
    const scratch = state.scratch;
    let n = state.n;
    while (n < col) scratch[n++] = "";
    scratch[n++] = text;
    state.n = n;
  }
  return end;
}

/**
 * Scans the rows of `s` from `at` into the sink; returns where `</sheetData>` ends, or -1
 * when the block is used up (blocks end after a `</row>`, so no row is cut).
 */
function scanRows(
  s: string,
  at: number,
  ctx: CellContext,
  sink: RowSink,
  limits: FileLimits,
): number {
  const len = s.length;
  const state = { n: 0, col: -1, scratch: sink.scratch };
  let i = at;
  for (;;) {
    let c = s.charCodeAt(i);
    while (isSpace(c)) c = s.charCodeAt(++i);
    if (i >= len) return -1;
    if (c !== 60) throw new Unsure();
    if (s.charCodeAt(i + 1) === 47) {
      if (s.startsWith("</sheetData>", i)) return i + 12;
      throw new Unsure();
    }
    // SheetJS reads the attributes of a row only after a space or a line break.
    c = s.charCodeAt(i + 4);
    if (
      s.charCodeAt(i + 1) !== 114 || s.charCodeAt(i + 2) !== 111 || s.charCodeAt(i + 3) !== 119 ||
      !(c === 32 || c === 10 || c === 13 || c === 62 || c === 47)
    ) {
      throw new Unsure();
    }
    const te = s.indexOf(">", i + 4);
    if (te < 0) throw new Unsure();
    const closed = s.charCodeAt(te - 1) === 47;
    let r = readAttributes(s, i + 4, closed ? te - 1 : te, false);
    i = te + 1;
    // An empty row (<row r="5"/>) holds nothing.
    if (closed) continue;
    // Without a number, a row follows the last one (SheetJS).
    if (r < 0) r = sink.lastRow + 1;
    if (r <= sink.lastRow || r > limits.maxRows) throw new Unsure();
    sink.lastRow = r;
    state.n = 0;
    state.col = -1;
    for (;;) {
      c = s.charCodeAt(i);
      while (isSpace(c)) c = s.charCodeAt(++i);
      if (c !== 60) throw new Unsure();
      c = s.charCodeAt(i + 1);
      if (c === 99) i = scanCell(s, i, r, ctx, state);
      else if (c === 47 && s.startsWith("</row>", i)) {
        i += 6;
        break;
      } else throw new Unsure();
    }
    const n = state.n;
    if (n === 0) continue;
    if (n > limits.maxColumns) throw new Unsure();
    // An array grown by push keeps spare room; the copy holds just the cells.
    const row = sink.scratch.slice(0, n);
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

/** Reads the worksheet's `<sheetData>` piece by piece; null when it is not the usual shape. */
async function scanSheet(
  pieces: AsyncIterable<Uint8Array>,
  ctx: CellContext,
  limits: FileLimits,
  onRow?: (row: string[], rowNumber: number) => void,
): Promise<RowSink | null> {
  const sink: RowSink = { rows: [], scratch: [], rowNumbers: [], cells: 0, lastRow: 0, onRow };
  let started = false;
  for await (const block of xmlBlocks(pieces, "</row>")) {
    let at = 0;
    if (!started) {
      const root = /<worksheet[\s>]/.exec(block);
      const open = /<sheetData\b[^<>]*>/.exec(block);
      if (!root || !open) return null;
      // Comments, CDATA or a DTD before the cells: SheetJS knows them.
      if (block.lastIndexOf("<!", open.index) >= 0) return null;
      if (open[0].endsWith("/>")) return block.indexOf("<!") >= 0 ? null : sink; // no cells
      at = open.index + open[0].length;
      started = true;
    }
    const end = scanRows(block, at, ctx, sink, limits);
    if (end >= 0) return block.indexOf("<!", end) >= 0 ? null : sink;
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
 * `checkInflatedSizes` (and its last bytes in `tails`, for `checkPartsClosed`: a sheet whose XML
 * stops early reads as null here, the caller refuses it). `zipEntries` are the container's entries when the caller has listed
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
  tails?: Map<ZipEntry, Uint8Array>,
): Promise<Grid | null> {
  const inflate = (entry: ZipEntry) => inflateCounted(bytes, entry, sizes, tails);
  const entryText = (entry: ZipEntry | undefined): Promise<string | null> =>
    entry ? xmlText(inflate(entry)) : Promise.resolve(null);
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
      const read = await sharedStrings(inflate(e));
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
      kinds: [],
      date1904: book.date1904,
      plain: new Map(),
      texts: new Map(),
      dates: new Map(),
    };
    const sink = await scanSheet(inflate(sheetEntry), ctx, limits, onRow);
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
