/** Random bearer tokens and their stored form. */
import { encodeBase64Url } from "../../shared/base64.ts";
import { sha256Hex } from "../../shared/sha256.ts";

/** A new 256-bit random token, base64url. */
export function randomToken(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of a token, hex: what the database keeps instead of the token. */
export const hashToken = (token: string): Promise<string> => sha256Hex(token);
