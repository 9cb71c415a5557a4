/**
 * Logging an unexpected error without what it carries (DESIGN.md section 8: logs never hold query
 * parameters, hashes, secrets or tokens). postgres.js and PGlite errors carry the query text and
 * its parameters (`parameters`, `query`, `args`), and a constraint violation's `detail` quotes the
 * failing row: none of that is logged, only the error's class, SQLSTATE code, constraint, its
 * message (shortened) and where in the code it was thrown.
 */

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

function shorten(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/**
 * One line (plus code locations) describing `error` with only what is safe to log: class, SQLSTATE
 * code, table, column and constraint names, the message cut to 300 characters, and stack frames.
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
  let line = `${parts.join(" ")}: ${shorten(text(e.message) ?? "")}`;
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

/** Logs an unexpected error under `context` (for a request: method and route) without secrets. */
export function logError(
  context: string,
  error: unknown,
  log: (line: string) => void = console.error,
): void {
  log(`${context} failed: ${describeError(error)}`);
}
