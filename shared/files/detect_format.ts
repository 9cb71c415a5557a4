import { FileRefusedError } from "./errors.ts";
import { hasZipEnd, truncated } from "./zip_guard.ts";

/** File formats the readers handle. "txt" is a delimited text file, read like CSV. */
export type FileFormat = "csv" | "txt" | "xlsx" | "xls";

/** What the first bytes say the content is. */
export type ContentKind =
  | "xlsx"
  | "xls"
  | "text"
  | "zip"
  | "ods"
  | "html"
  | "png"
  | "jpeg"
  | "gif"
  | "pdf"
  | "gzip"
  | "binary";

const KIND_LABEL: Record<ContentKind, string> = {
  xlsx: "an XLSX workbook",
  xls: "an XLS workbook",
  text: "a text file",
  zip: "a ZIP archive",
  ods: "an OpenDocument spreadsheet",
  html: "an HTML page",
  png: "a PNG image",
  jpeg: "a JPEG image",
  gif: "a GIF image",
  pdf: "a PDF document",
  gzip: "a gzip archive",
  binary: "a binary file",
};

const EXTENSIONS: Record<string, FileFormat> = {
  csv: "csv",
  txt: "txt",
  tsv: "txt",
  tab: "txt",
  xlsx: "xlsx",
  xlsm: "xlsx",
  xls: "xls",
};

/** "a CSV", "an XLSX": the article follows how the letters are spoken. */
function withArticle(format: FileFormat): string {
  return `${format.startsWith("x") ? "an" : "a"} ${format.toUpperCase()}`;
}

function startsWith(bytes: Uint8Array, sig: number[]): boolean {
  return sig.every((b, i) => bytes[i] === b);
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return new TextDecoder("latin1").decode(bytes.subarray(from, Math.min(to, bytes.length)));
}

/** Tells a workbook zip from other zips by the names of the entries in the first few KB. */
function zipKind(bytes: Uint8Array): ContentKind {
  // The central directory lists every name, but the first local headers almost always
  // include [Content_Types].xml or mimetype, which is enough to decide cheaply.
  const head = latin1(bytes, 0, 64 * 1024);
  if (head.includes("application/vnd.oasis.opendocument.spreadsheet")) return "ods";
  const tail = latin1(bytes, Math.max(0, bytes.length - 256 * 1024), bytes.length);
  if (/xl\/workbook\.xml|xl\/worksheets\//.test(head + tail)) return "xlsx";
  return "zip";
}

/**
 * Identifies content from its first bytes (magic numbers), so that a PNG named `.csv` or a
 * text file named `.xlsx` is refused instead of parsed into garbage.
 *
 * @example
 * ```ts
 * sniffContent(new TextEncoder().encode("a,b\n1,2")) // "text"
 * ```
 */
export function sniffContent(bytes: Uint8Array): ContentKind {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return zipKind(bytes);
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "xls";
  // BIFF2-5 files written by very old tools start directly with a BOF record.
  if (startsWith(bytes, [0x09, 0x08]) || startsWith(bytes, [0x09, 0x04])) return "xls";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "gif";
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return "pdf";
  if (startsWith(bytes, [0x1f, 0x8b])) return "gzip";
  if (
    startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]) ||
    startsWith(bytes, [0xef, 0xbb, 0xbf])
  ) return "text";
  const n = Math.min(bytes.length, 8192);
  let zeros = 0, controls = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) zeros++;
    else if (b < 9 || (b > 13 && b < 32 && b !== 26)) controls++;
  }
  // UTF-16 without a BOM has zeros in about half the bytes; anything else with zeros or
  // many control characters is not text.
  const utf16ish = zeros > n * 0.3 && zeros <= n * 0.55;
  if ((zeros > 0 && !utf16ish) || controls > n * 0.01 + 2) return "binary";
  const start = latin1(bytes, 0, 512).trimStart().toLowerCase();
  if (
    start.startsWith("<!doctype html") || start.startsWith("<html") || start.startsWith("<table")
  ) {
    return "html";
  }
  return "text";
}

/** The format a file name's extension declares, or null for an unknown extension. */
export function formatFromName(name: string): FileFormat | null {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null;
}

/**
 * Decides how to read the bytes: the declared format (from the type option or the name's
 * extension) must agree with the content. XLS and XLSX may stand in for each other, since
 * many systems name one the other; the content decides which reader runs.
 *
 * @throws {FileRefusedError} `content_mismatch`, `unsupported_type`, `binary_content` or
 *   `truncated_file` (a zip without its directory)
 */
export function resolveFormat(
  bytes: Uint8Array,
  declared: FileFormat | null,
  label: string,
): FileFormat {
  const kind = sniffContent(bytes);
  const isText = declared === "csv" || declared === "txt";
  if (kind === "xlsx" || kind === "xls") {
    if (declared === null || declared === "xlsx" || declared === "xls") return kind;
    throw new FileRefusedError(
      "content_mismatch",
      `${label} is ${KIND_LABEL[kind]}, not ${withArticle(declared)} file.`,
    );
  }
  if (kind === "text") {
    if (declared === null) return "csv";
    if (isText) return declared;
    throw new FileRefusedError(
      "content_mismatch",
      `${label} is not an Excel workbook: it contains plain text. Save it as ${declared.toUpperCase()} or upload it as CSV.`,
    );
  }
  // A zip whose entry names were not in its first bytes and that has no end: a workbook cut
  // off before its directory (which lists the names) could be read.
  if (kind === "zip" && declared !== "csv" && declared !== "txt" && !hasZipEnd(bytes)) {
    throw truncated("its zip directory is missing");
  }
  if (kind === "ods") {
    throw new FileRefusedError(
      "unsupported_type",
      `${label} is an OpenDocument spreadsheet; save it as XLSX, XLS or CSV.`,
    );
  }
  const expected = declared ? `${withArticle(declared)} file` : "a CSV, TXT, XLS or XLSX file";
  throw new FileRefusedError(
    kind === "binary" ? "binary_content" : "content_mismatch",
    `${label} is ${KIND_LABEL[kind]}, not ${expected}.`,
  );
}
