/** Argon2id password hashing with the OWASP minimum (m=19456 KiB, t=2, p=1). */
import { argon2id, argon2Verify } from "hash-wasm";

/**
 * Hashes a password into the PHC string form (`$argon2id$v=19$m=19456,t=2,p=1$...`).
 *
 * @example
 * ```ts
 * const hash = await hashPassword("correct horse");
 * await verifyPassword("correct horse", hash); // true
 * ```
 */
export function hashPassword(password: string): Promise<string> {
  return argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    parallelism: 1,
    iterations: 2,
    memorySize: 19456,
    hashLength: 32,
    outputType: "encoded",
  });
}

// Verified against when the account does not exist, so that an unknown username costs the same.
const dummyHash = hashPassword(crypto.randomUUID());

/** Checks a password against a stored hash; a missing hash still spends the same time. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const ok = await argon2Verify({ password, hash: hash ?? await dummyHash }).catch(() => false);
  return ok && hash !== null;
}
