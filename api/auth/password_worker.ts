/**
 * The Web Worker of the password pool (password.ts): Argon2id runs here so that a burst of logins
 * does not stall the server's event loop. One request at a time: `{ id, op, password, hash? }`.
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { argon2Check, argon2Hash } from "./argon2.ts";

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
      ? await argon2Hash(request.password)
      : await argon2Check(request.password, request.hash);
    self.postMessage({ id: request.id, result });
  } catch (error) {
    self.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
};
