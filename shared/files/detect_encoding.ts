/** Text encodings the readers recognise; anything that is not valid UTF-8 is read as Windows-1252. */
export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** Decoded text of a delimited file and how it was decoded. */
export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** Whether the file started with a byte order mark (removed from `text`). */
  bom: boolean;
}

/**
 * Guesses UTF-16 without a BOM from the pattern of zero bytes: ASCII-heavy UTF-16 text has a
 * zero in every other byte, which UTF-8 and Windows-1252 text never has.
 */
function guessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0, oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return "utf-16le";
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return "utf-16be";
  return null;
}

/** Which encoding the bytes are in, and the BOM length to skip. */
export function detectEncoding(
  bytes: Uint8Array,
  checkUtf8 = true,
): { encoding: TextEncodingName; bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: "utf-8", bomLength: 3 };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", bomLength: 2 };
  const utf16 = guessUtf16(bytes);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  const utf8 = !checkUtf8 || isValidUtf8(bytes);
  return { encoding: utf8 ? "utf-8" : "windows-1252", bomLength: 0 };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes a delimited text file: BOM first, then a UTF-16 guess, then strict UTF-8, and
 * Windows-1252 when the bytes are not valid UTF-8 (the usual output of older Windows tools).
 *
 * @example
 * ```ts
 * decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])) // { text: "a", encoding: "utf-8", bom: true }
 * ```
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const { encoding, bomLength } = detectEncoding(bytes, false);
  const body = bytes.subarray(bomLength);
  if (encoding === "utf-8") {
    // One strict pass both validates and decodes; invalid UTF-8 means Windows-1252.
    try {
      return { text: strictUtf8.decode(body), encoding, bom: bomLength > 0 };
    } catch {
      if (bomLength > 0) {
        return { text: new TextDecoder("utf-8").decode(body), encoding, bom: true };
      }
      return {
        text: new TextDecoder("windows-1252").decode(body),
        encoding: "windows-1252",
        bom: false,
      };
    }
  }
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  return { text, encoding, bom: bomLength > 0 };
}

let cp1252Table: Map<number, number> | null = null;

/** Code point → byte for Windows-1252, built from the platform's own decoder. */
function windows1252Table(): Map<number, number> {
  if (cp1252Table) return cp1252Table;
  const all = new Uint8Array(256).map((_, i) => i);
  const chars = new TextDecoder("windows-1252").decode(all);
  cp1252Table = new Map();
  for (let i = 0; i < 256; i++) cp1252Table.set(chars.charCodeAt(i), i);
  return cp1252Table;
}

/**
 * Encodes text in one of the recognised encodings, for writing a file in the same encoding
 * as the template it came from. Returns null when Windows-1252 cannot represent a character.
 */
export function encodeText(
  text: string,
  encoding: TextEncodingName,
  bom: boolean,
): Uint8Array | null {
  if (encoding === "utf-8") {
    const body = new TextEncoder().encode(text);
    if (!bom) return body;
    const out = new Uint8Array(body.length + 3);
    out.set([0xef, 0xbb, 0xbf]);
    out.set(body, 3);
    return out;
  }
  if (encoding === "windows-1252") {
    const table = windows1252Table();
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const b = table.get(text.charCodeAt(i));
      if (b === undefined) return null;
      out[i] = b;
    }
    return out;
  }
  const start = bom ? 2 : 0;
  const out = new Uint8Array(start + text.length * 2);
  const le = encoding === "utf-16le";
  if (bom) out.set(le ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[start + 2 * i] = le ? c & 0xff : c >> 8;
    out[start + 2 * i + 1] = le ? c >> 8 : c & 0xff;
  }
  return out;
}
