/**
 * Encryption of stored secrets (mailbox, SFTP and MSAL passwords) with AES-256-GCM. A stored
 * value reads `v1.<keyId>.<base64 iv+ciphertext>`, so a changed key is detected, not misread.
 */
import { decodeBase64, encodeBase64 } from "../shared/base64.ts";
import { badRequest } from "./http/errors.ts";
import type { SecretBox } from "./deps.ts";

export type { SecretBox };

/** What the API returns in place of a stored secret; saving it back keeps the secret. */
export const SECRET_PLACEHOLDER = "********";

/**
 * Builds a box from a 32-byte key (base64).
 *
 * @example
 * ```ts
 * const box = await secretBox(generateSecretKey());
 * await box.decrypt(await box.encrypt("hunter2")); // "hunter2"
 * ```
 */
export async function secretBox(keyBase64: string): Promise<SecretBox> {
  const raw = decodeBase64(keyBase64);
  if (raw.length !== 32) throw new Error("SECRET_KEY must be 32 bytes in base64");
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  const keyId = Array.from(digest.slice(0, 4), (b) => b.toString(16).padStart(2, "0")).join("");
  return {
    keyId,
    async encrypt(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plain)),
      );
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return `v1.${keyId}.${encodeBase64(out)}`;
    },
    async decrypt(stored) {
      const [version, id, data] = stored.split(".");
      if (version !== "v1" || !data) throw new Error("stored secret has an unknown format");
      if (id !== keyId) throw new Error(`stored secret was encrypted with key ${id}, not ${keyId}`);
      const bytes = decodeBase64(data);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: bytes.slice(0, 12) },
        key,
        bytes.slice(12),
      );
      return new TextDecoder().decode(plain);
    },
  };
}

/** A new random key, base64. */
export function generateSecretKey(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The key from `SECRET_KEY`, else from `<dataDir>/secret.key`, created (mode 600) on first start.
 * Without either (an in-memory test database) the key lives as long as the process.
 */
export async function loadSecretKey(
  configured: string | undefined,
  dataDir: string | undefined,
): Promise<string> {
  if (configured) return configured;
  if (!dataDir) return generateSecretKey();
  const path = `${dataDir}/secret.key`;
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const key = generateSecretKey();
  await Deno.writeTextFile(path, key + "\n", { mode: 0o600, createNew: true });
  return key;
}

/** The message of a save that keeps a stored secret while moving it to another endpoint. */
export const SECRET_REBIND_MESSAGE = "Enter the password again: the server or account changed.";

/**
 * What a stored secret is bound to: the endpoint(s) and account it was entered for, as labelled
 * values (e.g. `{ "incoming server": "imap.example.com:993 tls", username: "orders" }`). Values
 * are compared as given; the caller normalises them (effective host, port and security mode).
 */
export type SecretBinding = Record<string, string>;

/**
 * The one rule that keeps a stored secret at its endpoint (DESIGN.md section 8, docs/outbound.md):
 * a save that keeps the stored secret (`keepsSecret`, the placeholder was sent back) must not
 * change anything the secret is bound to, otherwise "Check now" or a test send would hand the
 * secret to a server of the editor's choosing. Throws a 400 naming the changed parts; a save that
 * enters a new secret, or changes nothing bound, passes. Used by e-mail sources today, and by
 * SFTP servers and vendors' send-from mailboxes as they arrive.
 *
 * @example
 * requireSecretForRebind(true, { host: "a:993" }, { host: "b:993" }); // throws 400
 */
export function requireSecretForRebind(
  keepsSecret: boolean,
  before: SecretBinding,
  after: SecretBinding,
  field = "password",
): void {
  if (!keepsSecret) return;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...keys].filter((key) => (before[key] ?? "") !== (after[key] ?? ""));
  if (!changed.length) return;
  throw badRequest(`${SECRET_REBIND_MESSAGE} Changed: ${changed.join(", ")}.`, {
    [field]: [SECRET_REBIND_MESSAGE],
  });
}
