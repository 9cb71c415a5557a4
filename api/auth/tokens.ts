/** Random bearer tokens and their stored form. */
import { encodeBase64Url } from "../../shared/base64.ts";

/** A new 256-bit random token, base64url. */
export function randomToken(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of a token, hex: what the database keeps instead of the token. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
