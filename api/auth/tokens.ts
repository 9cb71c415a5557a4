/** Random bearer tokens and their stored form. */
import { createHash } from "node:crypto";
import { encodeBase64Url } from "../../shared/base64.ts";

/** A new 256-bit random token, base64url. */
export function randomToken(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * SHA-256 of a token, hex: what the database keeps instead of the token. Synchronous: every
 * request hashes its token, and WebCrypto's asynchronous digest cost about 0.25 ms of the
 * request thread for 43 bytes (7 % of the server's CPU at full load; docs/benchmarks.md).
 *
 * @example
 * ```ts
 * hashToken("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export const hashToken = (token: string): string =>
  createHash("sha256").update(token).digest("hex");
