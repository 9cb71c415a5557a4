/**
 * The messages between the main thread and the PGlite worker (api/db/pglite_worker.ts), and how
 * an error crosses between them with its fields.
 */

/** A request to the worker; `tx` is the transaction's id, null outside one. */
export type Request =
  | { id: number; type: "open"; dataDir: string }
  | { id: number; type: "close" }
  | {
    id: number;
    type: "query";
    sql: string;
    params: readonly unknown[];
    tx: number | null;
    /** Keep the statement parsed and planned under a name of its own (`QueryOptions.prepare`). */
    prepare?: boolean;
  }
  | { id: number; type: "exec"; sql: string; tx: number | null }
  | { id: number; type: "begin" | "commit" | "rollback"; tx: number };

/** The worker's answer to the request `id`: `rows` for a query, `error` when it failed. */
export interface Reply {
  id: number;
  rows?: Record<string, unknown>[];
  error?: Record<string, unknown>;
}

/**
 * The cloneable fields of an error: its message, name and stack and every own field a database
 * error carries (`code`, `constraint`, `detail`, `table`, …).
 *
 * @example
 * errorFields(new Error("boom")) // { message: "boom", name: "Error", stack: "..." }
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error), name: "Error" };
  const fields: Record<string, unknown> = {
    message: error.message,
    name: error.name,
    stack: error.stack,
  };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
      fields[key] = value;
    }
  }
  return fields;
}

/**
 * An Error rebuilt on this side from `errorFields`: same message, name and fields; the stack is
 * the caller's (where the statement was sent) so a log points at the query site.
 */
export function errorFrom(fields: Record<string, unknown>, origin?: Error): Error {
  const error = new Error(String(fields.message ?? "Database error"));
  const frames = origin?.stack?.split("\n").slice(1).join("\n");
  if (frames) error.stack = `${fields.name ?? "Error"}: ${error.message}\n${frames}`;
  for (const [key, value] of Object.entries(fields)) {
    if (key !== "message" && key !== "stack") {
      Object.defineProperty(error, key, { value, enumerable: key !== "name", writable: true });
    }
  }
  return error;
}
