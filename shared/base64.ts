/** Base64 helpers (std is not reachable from here, and these are three lines each). */

const ALPHABET = new TextEncoder().encode(
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
);
const PAD = 61; // "="

/**
 * Bytes to standard base64. Written straight into the output's ASCII bytes: a binary string
 * for `btoa` would hold the input a second time, and a 1.3 MB inventory output is encoded on
 * every manual run (docs/benchmarks.md, "Inventory").
 */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ALPHABET[n >>> 18];
    out[o++] = ALPHABET[(n >>> 12) & 63];
    out[o++] = ALPHABET[(n >>> 6) & 63];
    out[o++] = ALPHABET[n & 63];
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const n = (bytes[whole] << 16) | (two ? bytes[whole + 1] << 8 : 0);
    out[o++] = ALPHABET[n >>> 18];
    out[o++] = ALPHABET[(n >>> 12) & 63];
    out[o++] = two ? ALPHABET[(n >>> 6) & 63] : PAD;
    out[o++] = PAD;
  }
  return LATIN1.decode(out);
}

// Base64 is ASCII: any single-byte decoder gives it back as is, with no UTF-8 validation pass.
const LATIN1 = new TextDecoder("latin1");

/** Standard base64 to bytes; throws on malformed input. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** Bytes to unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
