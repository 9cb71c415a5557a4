/**
 * Logging an unexpected error without what it carries (DESIGN.md section 8: logs never hold query
 * parameters, hashes, secrets or tokens). postgres.js and PGlite errors carry the query text and
 * its parameters (`parameters`, `query`, `args`), a constraint violation's `detail` quotes the
 * failing row, and some messages quote the offending value: none of that is logged, only the
 * error's class, SQLSTATE code, table, column and constraint names, its message (quoted values
 * replaced, shortened) and where in the code it was thrown.
 */

import { writeLog } from "./log.ts";

const MAX_MESSAGE = 300;
const MAX_FRAMES = 8;

type ErrorFields = {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  table?: unknown;
  table_name?: unknown;
  column?: unknown;
  column_name?: unknown;
  stack?: unknown;
  cause?: unknown;
};

const text = (value: unknown) => typeof value === "string" && value !== "" ? value : undefined;

// PostgreSQL quotes the offending value in some messages (`invalid input syntax for type integer:
// "<parameter>"`, `value "<parameter>" is out of range`): in a database error's message, every
// quoted part is replaced.
const QUOTED = /"(?:[^"]|"")*"?/g;

function shorten(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/**
 * One line (plus code locations) describing `error` with only what is safe to log: class, SQLSTATE
 * code, table, column and constraint names, the message (a database error's quoted values
 * replaced) cut to 300 characters, and stack frames.
 * A cause is described the same way, one level deep.
 *
 * @example
 * describeError(pgError)
 * // 'error: 23514 on users (constraint users_username_length): new row for relation "users" ...'
 */
export function describeError(error: unknown, depth = 0): string {
  if (!error || typeof error !== "object") return `thrown value of type ${typeof error}`;
  const e = error as ErrorFields;
  const name = text(e.name) ?? text(error.constructor?.name) ?? "Error";
  const parts = [name];
  const code = text(e.code);
  if (code) parts.push(code);
  const table = text(e.table) ?? text(e.table_name);
  if (table) {
    parts.push(
      `on ${table}${text(e.column) ?? text(e.column_name) ? "." : ""}${
        text(e.column) ?? text(e.column_name) ?? ""
      }`,
    );
  }
  const constraint = text(e.constraint) ?? text(e.constraint_name);
  if (constraint) parts.push(`(constraint ${constraint})`);
  const message = text(e.message) ?? "";
  // A SQLSTATE (five characters) marks a database error.
  const scrubbed = code && /^[0-9A-Z]{5}$/.test(code) ? message.replace(QUOTED, '"…"') : message;
  let line = `${parts.join(" ")}: ${shorten(scrubbed)}`;
  const stack = text(e.stack);
  if (stack) {
    const frames = stack.split("\n").filter((l) => /^\s+at /.test(l)).slice(0, MAX_FRAMES);
    if (frames.length) line += `\n${frames.join("\n")}`;
  }
  if (e.cause !== undefined && depth < 1) {
    line += `\n  caused by: ${describeError(e.cause, depth + 1)}`;
  }
  return line;
}

/**
 * Logs an unexpected error under `context` (for a request: method and route) without secrets:
 * by default one JSON line at level error (api/http/log.ts), with the request's or job's ids.
 */
export function logError(
  context: string,
  error: unknown,
  log: (line: string) => void = (line) => writeLog("error", line),
): void {
  log(`${context} failed: ${describeError(error)}`);
}
