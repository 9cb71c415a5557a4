/**
 * Choosing the download link of an order e-mail that carries no attachment
 * (`noAttachmentsNeedsLinkClick`, DESIGN.md section 6): the anchor whose text is the
 * spreadsheet or PDF download button text, or the URL that follows `linkClickPreceededByText`,
 * or a URL containing `linkClickAlwaysContainsText`. Only http(s) URLs are returned; fetching
 * them (time-out, size cap, private addresses, redirects) is the caller's job.
 *
 * The HTML is scanned with a small tokenizer (comments, scripts and styles skipped, entities
 * decoded), not a DOM: e-mail HTML is often malformed, and only anchors and visible text matter.
 */

/** The order submission source's link-click settings (contract field names). */
export interface LinkClickSettings {
  downloadSpreadsheet?: boolean;
  downloadPdf?: boolean;
  spreadsheetDownloadButtonText?: string | null;
  pdfDownloadButtonText?: string | null;
  linkClickPreceededByText?: string | null;
  linkClickAlwaysContainsText?: string | null;
}

/** One anchor of an HTML body, in document order. */
export interface Anchor {
  href: string;
  /** Visible text (image alt texts, title and aria-label included), whitespace collapsed. */
  text: string;
}

/** A chosen link and why it was chosen. */
export interface DownloadLink {
  url: string;
  kind: "spreadsheet" | "pdf" | "file";
  reason: "button_text" | "preceded_by_text" | "contains_text";
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  raquo: "»",
  laquo: "«",
};

/** Decodes the HTML entities e-mails use (named ones above, decimal and hex references). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (all, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return NAMED[ref.toLowerCase()] ?? all;
  });
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0\u200b\u200c\u200d\ufeff]+/g, " ").trim();
}

// One regex per attribute name (a constant of this module, never user input).
const ATTRIBUTES = new Map(
  ["href", "aria-label", "title", "alt"].map((name) => [
    name,
    new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"),
  ]),
);

function attribute(tag: string, name: "href" | "aria-label" | "title" | "alt"): string | null {
  const m = ATTRIBUTES.get(name)!.exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? "") : null;
}

/** HTML without comments, scripts, styles and the head. */
function stripNoise(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(-->|$)/g, " ")
    .replace(/<(script|style|head|title)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ");
}

/** A piece of the document in order: visible text, or an anchor. */
type Piece = { text: string } | { anchor: Anchor };

function pieces(html: string): Piece[] {
  const out: Piece[] = [];
  const clean = stripNoise(html);
  // The tag's name by regex, its end by indexOf: `<a\b[^>]*>` as one regex rescans the rest of
  // the body from every `<` when no `>` follows, quadratic on "<a<a<a…" (docs/limits.md).
  const tagRe = /<\/?([a-z][a-z0-9]*)\b/gi;
  let at = 0;
  let open: { href: string; parts: string[] } | null = null;
  const addText = (t: string) => {
    const text = decodeEntities(t);
    if (open) open.parts.push(text);
    else out.push({ text });
  };
  const close = () => {
    if (!open) return;
    out.push({ anchor: { href: open.href, text: collapse(open.parts.join(" ")) } });
    open = null;
  };
  for (let m = tagRe.exec(clean); m; m = tagRe.exec(clean)) {
    const end = clean.indexOf(">", tagRe.lastIndex);
    if (end < 0) break; // no tag closes after this one: the rest is text
    addText(clean.slice(at, m.index));
    at = end + 1;
    tagRe.lastIndex = at;
    const tag = clean.slice(m.index, at);
    const name = m[1].toLowerCase();
    const closing = tag[1] === "/";
    if (name === "a") {
      close(); // anchors do not nest: a new one (or its end) closes the open one
      if (!closing) {
        const href = attribute(tag, "href");
        open = { href: href === null ? "" : href.trim(), parts: [] };
        const label = attribute(tag, "aria-label") ?? attribute(tag, "title");
        if (label) open.parts.push(label);
      }
    } else if (name === "img" && open) {
      const alt = attribute(tag, "alt");
      if (alt) open.parts.push(alt);
    } else if (/^(br|p|div|tr|td|th|li|table|h\d)$/.test(name)) {
      addText(" ");
    }
  }
  addText(clean.slice(at));
  close();
  return out;
}

/** The anchors of an HTML body, in document order. */
export function extractAnchors(html: string): Anchor[] {
  return pieces(html).flatMap((p) => ("anchor" in p ? [p.anchor] : []));
}

/** The URL as an absolute http(s) URL, or null (mailto:, javascript:, relative, malformed). */
export function httpUrl(href: string): string | null {
  const trimmed = href.replace(/[\s\u00a0]+/g, "");
  if (!/^https?:\/\//i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

const BARE_URL = /https?:\/\/[^\s<>"'()\[\]{}]+/gi;

/** Bare http(s) URLs in plain text, trailing punctuation dropped. */
export function textUrls(text: string): string[] {
  return [...text.matchAll(BARE_URL)].map((m) => m[0].replace(/[.,;:!?]+$/, ""));
}

function fold(text: string): string {
  return collapse(text).toLocaleLowerCase("en-US");
}

/** The document as one stream of text and URLs, for "the URL following this text". */
function stream(html: string | undefined, text: string | undefined) {
  const items: ({ text: string } | { url: string; label: string })[] = [];
  if (html && html.trim() !== "") {
    for (const p of pieces(html)) {
      if ("anchor" in p) items.push({ url: p.anchor.href, label: p.anchor.text });
      else {
        let at = 0;
        for (const m of p.text.matchAll(BARE_URL)) {
          items.push({ text: p.text.slice(at, m.index) });
          items.push({ url: m[0].replace(/[.,;:!?]+$/, ""), label: "" });
          at = m.index! + m[0].length;
        }
        items.push({ text: p.text.slice(at) });
      }
    }
  } else if (text) {
    let at = 0;
    for (const m of text.matchAll(BARE_URL)) {
      items.push({ text: text.slice(at, m.index) });
      items.push({ url: m[0].replace(/[.,;:!?]+$/, ""), label: "" });
      at = m.index! + m[0].length;
    }
    items.push({ text: text.slice(at) });
  }
  return items;
}

/**
 * The download links of an e-mail, best first, without duplicates:
 *
 * 1. with `downloadSpreadsheet`, anchors whose text equals the spreadsheet button text
 *    (whitespace collapsed, case-insensitive), then anchors whose text contains it; the same for
 *    the PDF button with `downloadPdf`;
 * 2. the first URL after `linkClickPreceededByText` in the visible text (an anchor's own text
 *    counts as preceding text too: "Download: <a>here</a>"); when `linkClickAlwaysContainsText`
 *    is also set, the first such URL that contains it;
 * 3. every URL (anchors, then bare URLs of the text body) containing
 *    `linkClickAlwaysContainsText` (case-insensitive).
 *
 * Button texts also look at the text body ("Download spreadsheet: https://…"), for text-only
 * e-mails. Only http(s) URLs are returned.
 */
export function chooseDownloadLinks(
  email: { html?: string | null; text?: string | null },
  settings: LinkClickSettings,
): DownloadLink[] {
  const html = email.html ?? "";
  const text = email.text ?? "";
  const anchors = html.trim() !== "" ? extractAnchors(html) : [];
  const out: DownloadLink[] = [];
  const seen = new Set<string>();
  const add = (href: string, kind: DownloadLink["kind"], reason: DownloadLink["reason"]) => {
    const url = httpUrl(href);
    if (url && !seen.has(url)) {
      seen.add(url);
      out.push({ url, kind, reason });
    }
  };
  const always = fold(settings.linkClickAlwaysContainsText ?? "");

  const buttons: [boolean | undefined, string | null | undefined, "spreadsheet" | "pdf"][] = [
    [settings.downloadSpreadsheet, settings.spreadsheetDownloadButtonText, "spreadsheet"],
    [settings.downloadPdf, settings.pdfDownloadButtonText, "pdf"],
  ];
  // Without either download switch, a button text still names the link to use.
  const anyWanted = settings.downloadSpreadsheet || settings.downloadPdf;
  for (const [wanted, label, kind] of buttons) {
    const wantedText = fold(label ?? "");
    if (wantedText === "" || (anyWanted && !wanted)) continue;
    for (const a of anchors) if (fold(a.text) === wantedText) add(a.href, kind, "button_text");
    for (const a of anchors) {
      if (fold(a.text).includes(wantedText)) add(a.href, kind, "button_text");
    }
    for (const url of urlsAfter(stream(undefined, text), wantedText)) {
      add(url, kind, "button_text");
      break;
    }
  }

  const kind: DownloadLink["kind"] = settings.downloadPdf && !settings.downloadSpreadsheet
    ? "pdf"
    : settings.downloadSpreadsheet && !settings.downloadPdf
    ? "spreadsheet"
    : "file";
  const preceding = fold(settings.linkClickPreceededByText ?? "");
  if (preceding !== "") {
    const items = stream(html, text);
    for (const url of urlsAfter(items, preceding)) {
      if (always !== "" && !url.toLowerCase().includes(always)) continue;
      add(url, kind, "preceded_by_text");
      break;
    }
  }
  if (always !== "") {
    for (const a of anchors) {
      if (decodeEntities(a.href).toLowerCase().includes(always)) add(a.href, kind, "contains_text");
    }
    for (const url of textUrls(text)) {
      if (url.toLowerCase().includes(always)) add(url, kind, "contains_text");
    }
  }
  return out;
}

/** The http(s) URLs following the first occurrence of `wanted` (folded) in the stream. */
function urlsAfter(
  items: ({ text: string } | { url: string; label: string })[],
  wanted: string,
): string[] {
  // The end of the text seen so far, as long as `wanted`: enough to find it across pieces, and
  // each piece is folded once (refolding a long window per piece was slow on big bodies).
  let tail = "";
  let found = false;
  const urls: string[] = [];
  for (const item of items) {
    if (found) {
      if ("url" in item && httpUrl(item.url)) urls.push(item.url);
      continue;
    }
    const piece = fold("url" in item ? item.label : item.text);
    if (piece === "") continue;
    const seenText = tail === "" ? piece : `${tail} ${piece}`;
    tail = seenText.slice(-wanted.length);
    if (seenText.includes(wanted)) {
      found = true;
      // "Download: <a href=…>Download: here</a>": the anchor holding the text is the link.
      if ("url" in item && fold(item.label).includes(wanted) && httpUrl(item.url)) {
        urls.push(item.url);
      }
    }
  }
  return urls;
}
