/**
 * Argon2id with the OWASP minimum (m=19456 KiB, t=2, p=1), in PHC string form
 * (`$argon2id$v=19$m=19456,t=2,p=1$...`). These run wherever they are called: the password pool
 * (password.ts) calls them inside its workers.
 */
import { argon2id, argon2Verify } from "hash-wasm";

/** Hashes `password` with a fresh 16-byte salt. */
export function argon2Hash(password: string): Promise<string> {
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

/** True when `password` matches the PHC string `hash`; false for a malformed hash. */
export function argon2Check(password: string, hash: string): Promise<boolean> {
  return argon2Verify({ password, hash }).catch(() => false);
}
