/**
 * A PDF rendering of a vendor's order rows (`vendorWantsPDF`): a title, then a table with the
 * header repeated on every page, landscape US Letter, Helvetica. Columns share the page width in
 * proportion to their content (each at least 36 pt); a cell wraps onto at most three lines and
 * is cut with "…" beyond. Characters Helvetica cannot encode (WinAnsi) are written as "?".
 */
import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import type { CellValue } from "../files/mod.ts";

/** What to render. */
export interface OrderPdfInput {
  title: string;
  headers: readonly string[];
  rows: readonly (readonly CellValue[])[];
  /** Numbers are right aligned unless everything is left aligned (`vendorWantsAllAlignedLeft`). */
  allLeft?: boolean;
  /** Fixed creation date, for reproducible output in tests. */
  createdAt?: Date;
}

const PAGE_WIDTH = 792;
const PAGE_HEIGHT = 612;
const MARGIN = 36;
const FONT_SIZE = 8;
const LINE_HEIGHT = 10;
const PADDING = 3;
const MAX_LINES = 3;
const MIN_COLUMN = 36;
const MAX_COLUMN = 220;

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value).replace(/\s+/g, " ").trim();
}

/** Replaces characters the standard font cannot encode. */
function encodable(font: PDFFont, text: string, cache: Map<string, boolean>): string {
  let out = "";
  for (const ch of text) {
    let ok = cache.get(ch);
    if (ok === undefined) {
      try {
        font.encodeText(ch);
        ok = true;
      } catch {
        ok = false;
      }
      cache.set(ch, ok);
    }
    out += ok ? ch : "?";
  }
  return out;
}

/** Breaks text into lines of at most `width` points, at most `maxLines`, the last cut with "…". */
export function wrapText(
  text: string,
  width: number,
  measure: (s: string) => number,
  maxLines = MAX_LINES,
): string[] {
  if (text === "") return [""];
  const lines: string[] = [];
  let rest = text;
  while (rest !== "" && lines.length < maxLines) {
    if (measure(rest) <= width) {
      lines.push(rest);
      rest = "";
      break;
    }
    // The longest prefix that fits, preferring a break at a space.
    let lo = 1, hi = rest.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (measure(rest.slice(0, mid)) <= width) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const space = rest.lastIndexOf(" ", lo);
    if (space > 0 && rest[lo] !== undefined) cut = rest[lo] === " " ? lo : space;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== "") {
    let last = lines[lines.length - 1];
    while (last !== "" && measure(last + "…") > width) last = last.slice(0, -1);
    lines[lines.length - 1] = last + "…";
  }
  return lines;
}

/** The widest word (run without spaces) of a text, in points. */
function widestWord(text: string, measure: (s: string) => number): number {
  let widest = 0;
  for (const word of text.split(/\s+/)) if (word) widest = Math.max(widest, measure(word));
  return widest;
}

/**
 * The columns' widths on the usable page width. Each column wants its natural width (its
 * widest cell, capped); when they do not all fit, every column first gets room for its widest
 * word, so cells wrap at spaces and an item number such as "ACME-WIDGET-120" is not cut in two
 * (issue 24), and the rest of the width is shared by what the columns want beyond that. Only
 * when even the words do not fit are all columns scaled down alike.
 */
export function columnWidths(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  measureHeader: (s: string) => number,
  measure: (s: string) => number,
  usable = PAGE_WIDTH - 2 * MARGIN,
): number[] {
  const natural = headers.map((h, c) => {
    let w = measureHeader(h);
    for (const r of rows) w = Math.max(w, measure(r[c].slice(0, 80)));
    return Math.min(Math.max(w + 2 * PADDING, MIN_COLUMN), MAX_COLUMN);
  });
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= usable) return natural;
  const words = headers.map((h, c) => {
    let w = widestWord(h, measureHeader);
    for (const r of rows) w = Math.max(w, widestWord(r[c].slice(0, 80), measure));
    return Math.min(natural[c], Math.max(w + 2 * PADDING, MIN_COLUMN));
  });
  const wordTotal = words.reduce((a, b) => a + b, 0);
  if (wordTotal > usable) {
    return natural.map((w) =>
      Math.max((w / total) * usable, Math.min(MIN_COLUMN, usable / headers.length))
    );
  }
  const wanted = natural.map((w, c) => w - words[c]);
  const wantedTotal = wanted.reduce((a, b) => a + b, 0);
  const spare = usable - wordTotal;
  return words.map((w, c) => w + (wantedTotal > 0 ? (wanted[c] / wantedTotal) * spare : 0));
}

/**
 * Renders the rows as a PDF table and returns its bytes.
 *
 * @example const pdf = await renderOrderPdf({ title: "Acme orders", headers: ["PO"], rows: [["1"]] });
 */
export async function renderOrderPdf(input: OrderPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(input.title);
  doc.setProducer("source manager");
  doc.setCreator("source manager");
  const when = input.createdAt ?? new Date();
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const cache = new Map<string, boolean>();
  const boldCache = new Map<string, boolean>();

  const headers = input.headers.map((h) => encodable(bold, cellText(h), boldCache));
  const width = Math.max(headers.length, ...input.rows.map((r) => r.length), 1);
  while (headers.length < width) headers.push("");
  const rows = input.rows.map((r) => {
    const out: string[] = [];
    for (let c = 0; c < width; c++) out.push(encodable(font, cellText(r[c]), cache));
    return out;
  });
  const numeric = Array.from({ length: width }, (_, c) =>
    !input.allLeft && rows.length > 0 &&
    rows.every((r) => r[c] === "" || /^-?\d+(\.\d+)?$/.test(r[c])));

  const widths = columnWidths(
    headers,
    rows,
    (t) => bold.widthOfTextAtSize(t, FONT_SIZE),
    (t) => font.widthOfTextAtSize(t, FONT_SIZE),
  );

  const layout = (cells: string[], f: PDFFont) =>
    cells.map((t, c) =>
      wrapText(t, widths[c] - 2 * PADDING, (s) => f.widthOfTextAtSize(s, FONT_SIZE))
    );
  const headerLines = layout(headers, bold);
  const headerHeight = Math.max(...headerLines.map((l) => l.length)) * LINE_HEIGHT + 2 * PADDING;

  let page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;
  const drawRow = (lines: string[][], f: PDFFont, height: number, shade: boolean) => {
    let x = MARGIN;
    if (shade) {
      page.drawRectangle({
        x,
        y: y - height,
        width: widths.reduce((a, b) => a + b, 0),
        height,
        color: rgb(0.9, 0.9, 0.9),
      });
    }
    lines.forEach((cell, c) => {
      cell.forEach((line, i) => {
        const w = f.widthOfTextAtSize(line, FONT_SIZE);
        const tx = numeric[c] && f === font ? x + widths[c] - PADDING - w : x + PADDING;
        page.drawText(line, {
          x: tx,
          y: y - PADDING - (i + 1) * LINE_HEIGHT + 2,
          size: FONT_SIZE,
          font: f,
        });
      });
      x += widths[c];
    });
    page.drawLine({
      start: { x: MARGIN, y: y - height },
      end: { x, y: y - height },
      thickness: 0.3,
      color: rgb(0.6, 0.6, 0.6),
    });
    y -= height;
  };
  const startPage = (first: boolean) => {
    if (!first) {
      page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
      y = PAGE_HEIGHT - MARGIN;
    }
    const title = encodable(bold, input.title, boldCache);
    page.drawText(title, { x: MARGIN, y: y - 12, size: 12, font: bold });
    y -= 20;
    drawRow(headerLines, bold, headerHeight, true);
  };
  startPage(true);
  for (const row of rows) {
    const lines = layout(row, font);
    const height = Math.max(...lines.map((l) => l.length)) * LINE_HEIGHT + 2 * PADDING;
    if (y - height < MARGIN + 14) startPage(false);
    drawRow(lines, font, height, false);
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    p.drawText(`Page ${i + 1} of ${pages.length}`, {
      x: PAGE_WIDTH - MARGIN - 60,
      y: MARGIN - 20,
      size: 7,
      font,
    });
  });
  return await doc.save({ useObjectStreams: false });
}
