/**
 * The Web Worker of the password pool (password.ts): Argon2id runs here so that a burst of logins
 * does not stall the server's event loop. One request at a time: `{ id, op, password, hash? }`.
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { argon2id, argon2Verify } from "hash-wasm";
import { ARGON2_PARAMETERS } from "./password_parameters.ts";

/** What the pool asks for. */
export type PasswordJob =
  | { op: "hash"; password: string }
  | { op: "verify"; password: string; hash: string };
/** A request from the pool: a job and the id its answer carries. */
export type PasswordRequest = PasswordJob & { id: number };

self.onmessage = async (event: MessageEvent<PasswordRequest>) => {
  const request = event.data;
  try {
    const result = request.op === "hash"
      ? await argon2id({
        ...ARGON2_PARAMETERS,
        password: request.password,
        salt: crypto.getRandomValues(new Uint8Array(16)),
        outputType: "encoded",
      })
      : await argon2Verify({ password: request.password, hash: request.hash }).catch(() => false);
    self.postMessage({ id: request.id, result });
  } catch (error) {
    self.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
};
