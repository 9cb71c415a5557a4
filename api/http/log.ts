/**
 * The one logger (docs/operations.md, "Logs"): JSON lines with `time`, `level`, `msg` and the
 * context of the work in hand, read from AsyncLocalStorage, so that code deep inside a request
 * or a job logs with its ids without passing them along: `requestId`, `method`, `path` in a
 * request; `worker`, `jobId`, `jobKind`, `runId` in a job. Levels below `LOG_LEVEL` are dropped.
 *
 * Nothing secret is logged: callers log messages and ids, never request bodies, headers or error
 * objects (`describeError` in log_error.ts); as a last guard, fields whose name says password,
 * secret, token, cookie, authorization or key are written as "[redacted]".
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";
const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** What every line written inside a request or a job carries. */
export interface LogContext {
  requestId?: string;
  method?: string;
  path?: string;
  worker?: string;
  jobId?: number;
  jobKind?: string;
  runId?: number;
}

const storage = new AsyncLocalStorage<LogContext>();
let minimum: LogLevel = "info";
let sink: ((line: string, level: LogLevel) => void) | null = null;

/** Sets the lowest level written (from `LOG_LEVEL`, at start). */
export function setLogLevel(level: LogLevel): void {
  minimum = level;
}

/** The lowest level written now. */
export function logLevel(): LogLevel {
  return minimum;
}

/**
 * Sends lines somewhere else than the console (tests); null restores the console: debug and info
 * to stdout, warn and error to stderr.
 */
export function setLogSink(next: ((line: string, level: LogLevel) => void) | null): void {
  sink = next;
}

/** The context of the work in hand, if any. */
export function logContext(): LogContext | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` with `context` added to the current one: every line logged inside, however deep and
 * however asynchronous, carries it.
 *
 * @example
 * ```ts
 * import { logContext, withLogContext } from "./log.ts";
 * await withLogContext({ jobId: 7 }, async () => {
 *   if (logContext()?.jobId !== 7) throw new Error();
 * });
 * ```
 */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

const SECRET_KEY = /pass(word)?|secret|token|cookie|authori[sz]ation|api[-_]?key|^key$/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SECRET_KEY.test(key) ? "[redacted]" : value;
  }
  return out;
}

/** Writes one line at `level` if the level is on. */
export function writeLog(level: LogLevel, msg: string, fields: Record<string, unknown> = {}) {
  if (RANK[level] < RANK[minimum]) return;
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg,
    ...storage.getStore(),
    ...redact(fields),
  });
  if (sink) sink(line, level);
  else if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

/** The logger: `log.info("message", { field })`. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => writeLog("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => writeLog("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => writeLog("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => writeLog("error", msg, fields),
};
