/** Argon2id cost, the OWASP minimum (m=19456 KiB, t=2, p=1); stored hashes carry it in PHC form. */
export const ARGON2_PARAMETERS = {
  parallelism: 1,
  iterations: 2,
  memorySize: 19456,
  hashLength: 32,
} as const;
