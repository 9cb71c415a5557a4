/**
 * The first middleware: every request gets an id, taken from a sane incoming `X-Request-Id` (a
 * proxy's, up to 128 letters, digits and `._:-`) or generated, answered in the `X-Request-Id`
 * header, carried by every log line of the request (AsyncLocalStorage, api/http/log.ts) and by
 * the answer of a 500. One line per request when it ends: method, path (never the query, which
 * may carry a reset token), status and duration in milliseconds. The duration is also answered
 * as `Server-Timing: app;dur=…` (what the browser's network panel and the load benchmark read:
 * the time inside the app, apart from the time on the way to it).
 */
import type { MiddlewareHandler } from "hono";
import { log, logContext, withLogContext } from "./log.ts";

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the request in hand (for the 500 answer), if any. */
export function currentRequestId(): string | undefined {
  return logContext()?.requestId;
}

/** The request-id and request-log middleware. */
export const requestId: MiddlewareHandler = (c, next) => {
  const incoming = c.req.header("x-request-id");
  const id = incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
  const started = performance.now();
  return withLogContext({ requestId: id, method: c.req.method, path: c.req.path }, async () => {
    try {
      await next();
    } finally {
      const duration = Math.round((performance.now() - started) * 10) / 10;
      try {
        c.res.headers.set("x-request-id", id);
        c.res.headers.set("server-timing", `app;dur=${duration}`);
      } catch {
        // A response with immutable headers (passed through as is) goes without the headers.
      }
      const status = c.res.status;
      // A 500's error line (logError) is already at level error; the request line says it ended.
      log[status >= 500 ? "warn" : "info"]("request", { status, duration });
    }
  });
};
