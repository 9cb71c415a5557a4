/**
 * Text of SpreadsheetML elements, decoded exactly as SheetJS decodes it, so the streaming XLSX
 * reader and the SheetJS fallback give the same cell texts (quirks included: `_x0041_` escapes,
 * `&AMP;` and `\r\n` → `\n`).
 */

const NAMED: Record<string, string> = {
  "&quot;": '"',
  "&apos;": "'",
  "&gt;": ">",
  "&lt;": "<",
  "&amp;": "&",
};
const ENTITY = /&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi;
const CODE = /_x([\da-fA-F]{4})_/gi;

function rawUnescape(text: string): string {
  const i = text.indexOf("<![CDATA[");
  if (i === -1) {
    return text.replace(
      ENTITY,
      (m, n) => NAMED[m] || String.fromCharCode(parseInt(n, m.indexOf("x") > -1 ? 16 : 10)) || m,
    ).replace(CODE, (_m, c) => String.fromCharCode(parseInt(c, 16)));
  }
  const j = text.indexOf("]]>");
  return rawUnescape(text.slice(0, i)) + text.slice(i + 9, j) + rawUnescape(text.slice(j + 3));
}

/**
 * Decodes XML entities and `_xHHHH_` escapes; `cellText` also turns `\r\n` into `\n`, as
 * SheetJS does for cell and shared-string text.
 */
export function unescapeXml(text: string, cellText = false): string {
  const out = text.indexOf("&") < 0 && text.indexOf("_") < 0 && text.indexOf("<") < 0
    ? text
    : rawUnescape(text);
  return cellText && out.indexOf("\r") >= 0 ? out.replace(/\r\n/g, "\n") : out;
}

const TAG =
  /<[\/\?]?[a-zA-Z0-9:_-]+(?:\s+[^"\s?<>\/]+\s*=\s*(?:"[^"]*"|'[^']*'|[^'"<>\s=]+))*\s*[\/\?]?>/mg;
const PLAIN_T = /^\s*<(?:\w+:)?t[^>]*>/;
const T_END = /<\/(?:\w+:)?t>/;
const RUN = /<(?:\w+:)?r\b[^<>]*>/;
const RUN_TEXT = /<(?:\w+:)?t\b[^<>]*>([^<]*)<\/(?:\w+:)?t>/g;
const PH_OPEN = /<(?:\w+:)?rPh\b[^<>]*>/g;
const PH_CLOSE = /<\/(?:\w+:)?rPh>/g;

/** Drops phonetic runs (`<rPh>`); null when one is not closed. */
function withoutPhonetic(x: string): string | null {
  const out: string[] = [];
  PH_OPEN.lastIndex = PH_CLOSE.lastIndex = 0;
  let ef = 0;
  let m: RegExpExecArray | null;
  while ((m = PH_OPEN.exec(x))) {
    out.push(x.slice(ef, m.index));
    PH_CLOSE.lastIndex = PH_OPEN.lastIndex;
    if (!PH_CLOSE.exec(x)) return null;
    ef = PH_CLOSE.lastIndex;
    PH_OPEN.lastIndex = PH_CLOSE.lastIndex;
  }
  out.push(x.slice(ef));
  return out.join("");
}

/**
 * The text of one string item (the inside of `<si>` or `<is>`): plain `<t>` text, or the runs
 * of rich text joined. `undefined` when the item holds neither (a cell then reads ""), and
 * null when it is malformed in a way the reader should not guess about.
 */
export function stringItemText(x: string): string | undefined | null {
  if (!x) return "";
  if (PLAIN_T.test(x)) {
    return unescapeXml(x.slice(x.indexOf(">") + 1).split(T_END)[0] || "", true);
  }
  if (RUN.test(x)) {
    const plain = withoutPhonetic(x);
    if (plain === null) return null;
    const runs = plain.match(RUN_TEXT) ?? [];
    return unescapeXml(runs.join("").replace(TAG, ""), true);
  }
  return undefined;
}

/**
 * The value of attribute `name` in a start tag, or undefined. Only double quotes are looked
 * for; callers refuse tags that use single quotes.
 */
export function attr(tag: string, name: string): string | undefined {
  const key = ` ${name}="`;
  let at = tag.indexOf(key);
  if (at < 0) {
    // Attributes may be separated by tabs or line breaks as well.
    if (!/[\t\n\r]/.test(tag)) return undefined;
    const m = new RegExp(`\\s${name}="`).exec(tag);
    if (!m) return undefined;
    at = m.index;
  }
  const start = at + key.length;
  const end = tag.indexOf('"', start);
  return end < 0 ? undefined : tag.slice(start, end);
}
