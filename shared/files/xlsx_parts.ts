/**
 * The small parts of an XLSX package the streaming reader needs: where the workbook, shared
 * strings and styles are ([Content_Types].xml), the sheets and their files (workbook.xml and
 * its rels), the 1904 date system, number formats (styles.xml) and the shared strings. Every
 * function returns null when the package is anything but the common transitional layout, so
 * the caller falls back to SheetJS rather than guess.
 */
import * as XLSX from "xlsx";
import { attr, stringItemText, unescapeXml } from "./xml_text.ts";
import { xmlBlocks } from "./xml_blocks.ts";

const CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types";
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const WORKBOOK_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
  "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
  "application/vnd.ms-excel.addin.macroEnabled.main+xml",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
]);
const OTHER_WORKBOOK_TYPE = "application/vnd.ms-excel.sheet.binary.macroEnabled.main";
const SST_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml",
  "application/vnd.ms-excel.sharedStrings",
]);
const STYLE_TYPES = new Set([
  "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml",
  "application/vnd.ms-excel.styles",
]);
const WORKSHEET_REL =
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

/** Start tags of an element, attribute values may hold `>`. */
function tags(xml: string, name: string): string[] {
  return xml.match(new RegExp(`<${name}(?=[\\s/>])(?:[^<>"']|"[^"]*"|'[^']*')*>`, "g")) ?? [];
}

/** XML the attribute reader cannot be trusted on: comments, CDATA, DTDs, single quotes. */
function odd(xml: string): boolean {
  return xml.indexOf("<!") >= 0 || xml.indexOf("'") >= 0 && /=\s*'/.test(xml);
}

/** Where the parts are, as SheetJS finds them from [Content_Types].xml. */
export interface PartNames {
  sst: string | null;
  styles: string | null;
}

/** Reads [Content_Types].xml; null unless the workbook is `xl/workbook.xml` in XML form. */
export function contentTypes(xml: string): PartNames | null {
  if (odd(xml)) return null;
  const root = tags(xml, "Types")[0];
  if (!root || attr(root, "xmlns") !== CT_NS) return null;
  let workbook: string | null = null, sst: string | null = null, styles: string | null = null;
  for (const tag of tags(xml, "Override")) {
    const type = attr(tag, "ContentType") ?? "", part = attr(tag, "PartName") ?? "";
    if (WORKBOOK_TYPES.has(type) || type === OTHER_WORKBOOK_TYPE) {
      if (workbook !== null) return null;
      workbook = WORKBOOK_TYPES.has(type) ? part : "";
    } else if (SST_TYPES.has(type)) sst ??= part;
    else if (STYLE_TYPES.has(type)) styles ??= part;
  }
  if (workbook !== "/xl/workbook.xml") return null;
  const path = (p: string | null) => (p === null ? null : p.replace(/^\//, ""));
  return { sst: path(sst), styles: path(styles) };
}

/** One sheet of the workbook and the file holding it (null when it is not a worksheet). */
export interface SheetEntry {
  name: string;
  path: string | null;
}

/** The sheets (in workbook order) and the date system, or null for an unusual workbook. */
export function workbookSheets(
  workbookXml: string,
  relsXml: string,
): { sheets: SheetEntry[]; date1904: boolean } | null {
  if (odd(workbookXml) || odd(relsXml)) return null;
  const root = tags(workbookXml, "workbook")[0];
  if (!root || attr(root, "xmlns") !== MAIN_NS) return null;
  const targets = new Map<string, string | null>();
  for (const rel of tags(relsXml, "Relationship")) {
    const id = attr(rel, "Id"), target = attr(rel, "Target"), type = attr(rel, "Type");
    if (id === undefined || target === undefined) return null;
    if (type !== WORKSHEET_REL) {
      targets.set(id, null);
      continue;
    }
    // SheetJS resolves "worksheets/x.xml" and "/xl/worksheets/x.xml" alike; anything else
    // (other folders, "..") is left to it.
    const m = /^(?:\/xl\/)?(worksheets\/[\w.-]+\.xml)$/.exec(unescapeXml(target));
    if (!m) return null;
    targets.set(id, `xl/${m[1]}`);
  }
  const sheets: SheetEntry[] = [];
  for (const tag of tags(workbookXml, "sheet")) {
    const name = attr(tag, "name"), id = attr(tag, "r:id");
    if (name === undefined || id === undefined || !targets.has(id)) return null;
    if (/\s\w+:id=/.test(tag.replace(/\sr:id=/, " "))) return null;
    sheets.push({ name: unescapeXml(name), path: targets.get(id) ?? null });
  }
  const pr = tags(workbookXml, "workbookPr")[0];
  const flag = pr === undefined ? undefined : attr(pr, "date1904");
  return { sheets, date1904: flag === "1" || flag === "true" };
}

/** SheetJS's number formats before any workbook adds its own: the built-in table. */
const BUILT_IN_FORMATS: Readonly<Record<number, string>> = { ...XLSX.SSF.get_table() };

/**
 * Number format of each cell style (index = the cell's `s`), from styles.xml: the file's own
 * numFmts over the built-in table; a null entry is a format SheetJS would only guess (the
 * reader gives such a number cell up). Null as a whole when a style needs the number format
 * remapping SheetJS does for ids beyond 392, or the part is unusual.
 */
export function styleFormats(xml: string | null): (string | null)[] | null {
  if (xml === null) return [];
  if (xml.indexOf("<!") >= 0 || !/<styleSheet[\s>]/.test(xml)) return null;
  const formats: Record<number, string> = { ...BUILT_IN_FORMATS };
  const numFmts = /<numFmts\b[^<>]*>([\s\S]*?)<\/numFmts>/.exec(xml);
  if (numFmts) {
    for (const tag of tags(numFmts[1], "numFmt")) {
      if (tag.indexOf("'") >= 0) return null;
      const id = parseInt(attr(tag, "numFmtId") ?? "", 10);
      const code = attr(tag, "formatCode");
      if (!(id >= 0) || id > 392 || code === undefined) return null;
      // SheetJS repairs one invalid format Google Sheets writes.
      const format = unescapeXml(code);
      if (id > 0) formats[id] = format === "d.m" ? "d\\.m" : format;
    }
  }
  const cellXfs = /<cellXfs\b[^<>]*>([\s\S]*?)<\/cellXfs>/.exec(xml);
  if (!cellXfs) return [];
  const out: (string | null)[] = [];
  for (const tag of tags(cellXfs[1], "xf")) {
    const raw = attr(tag, "numFmtId");
    if (raw === "") return null;
    const id = raw === undefined ? 0 : parseInt(raw, 10);
    if (id > 392) return null;
    // A format SheetJS does not know yet gets no format on its first cell and a guessed one
    // on later cells: not something to copy.
    out.push(Number.isNaN(id) ? "General" : id in formats ? formats[id] : null);
  }
  return out;
}

/**
 * A fresh copy of text cut from a large block, so the block is not kept alive through it.
 * V8 copies cuts shorter than 13 characters; longer ones point into the block. A JSON round
 * trip gives a flat string of exactly the text (lone surrogates too); the `(" " + t).slice(1)`
 * it replaces kept a second string object per cell, about 32 bytes more.
 */
export function own(text: string): string {
  return text.length < 13 ? text : JSON.parse(JSON.stringify(text));
}

const PRESERVED_T = '<t xml:space="preserve">';

/**
 * The text of an item that is one `<t>` holding text with nothing to decode (what Excel and
 * LibreOffice write for most strings), found without a regex; undefined for any other item.
 * `stringItemText` gives the same text for it.
 */
function plainItem(item: string): string | undefined {
  let at: number;
  if (item.startsWith("<t>")) at = 3;
  else if (item.startsWith(PRESERVED_T)) at = PRESERVED_T.length;
  else return undefined;
  const end = item.indexOf("<", at);
  if (end + 4 !== item.length || !item.startsWith("</t>", end)) return undefined;
  for (let k = at; k < end; k++) {
    const c = item.charCodeAt(k);
    if (c === 38 || c === 95 || c === 13) return undefined;
  }
  return item.slice(at, end);
}

/**
 * The shared strings, read piece by piece (`<si>` by `<si>`) as SheetJS reads them. Null for
 * a layout it would read differently.
 */
export async function sharedStrings(
  pieces: AsyncIterable<Uint8Array>,
): Promise<(string | undefined)[] | null> {
  const out: (string | undefined)[] = [];
  let started = false;
  for await (let block of xmlBlocks(pieces, "</si>")) {
    if (block.indexOf("<!") >= 0 || block.indexOf("<si/") >= 0) return null;
    if (!started) {
      const root = /<sst\b[^<>]*>/.exec(block);
      if (!root) return null;
      // An empty table written as one element (Apache POI: `<sst count="0" … />`).
      if (root[0].endsWith("/>")) return block.indexOf("<si", root.index) < 0 ? out : null;
      block = block.slice(root.index + root[0].length);
      started = true;
    }
    const end = block.indexOf("</sst>");
    if (end >= 0) block = block.slice(0, end);
    const items = block.replace(/<(?:\w+:)?(?:si|sstItem)>/g, "").split(
      /<\/(?:\w+:)?(?:si|sstItem)>/,
    );
    // Every block but the last ends with "</si>"; its empty tail is not an item.
    if (end < 0) items.pop();
    for (const item of items) {
      const text = plainItem(item) ?? stringItemText(item.trim());
      if (text === null) return null;
      out.push(text === undefined ? undefined : own(text));
    }
    if (end >= 0) return out;
  }
  return null;
}
