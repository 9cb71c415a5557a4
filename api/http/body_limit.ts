/**
 * Request body size limits (DESIGN.md section 8: every request body has a maximum size). One
 * middleware, applied to the whole app, reads at most {@link DEFAULT_BODY_LIMIT} bytes of a body;
 * a route that receives a file declares a larger limit with {@link allowBody} among its handlers,
 * and the app-wide middleware finds that declaration among the request's matched routes before
 * reading anything. A body over the limit is answered 413 `{ message }`.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import { formatBytes } from "../../shared/files/limits.ts";

/** Every body that does not carry a file: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * A body that carries one file of the manual upload cap (10 MB) as base64 in JSON, or in a
 * multipart form: base64 grows it by 4/3, plus 1 MiB for the JSON around it.
 */
export const FILE_BODY_LIMIT = Math.ceil(UPLOAD_LIMITS.maxBytes / 3) * 4 + DEFAULT_BODY_LIMIT;

const LIMIT = Symbol("bodyLimit");
type Declared = MiddlewareHandler & { [LIMIT]?: number };

/**
 * A no-op handler that declares the body limit of the route it sits in; the app-wide
 * {@link limitBodies} middleware applies it.
 *
 * @example
 * router.post("/send-test-email", allowBody(FILE_BODY_LIMIT), body("json", schema), handler);
 */
export function allowBody(maxBytes: number): MiddlewareHandler {
  const declared: Declared = (_c, next) => next();
  declared[LIMIT] = maxBytes;
  return declared;
}

/** The limit the matched routes of this request declare, else the default. */
export function declaredLimit(c: Context): number {
  let limit = DEFAULT_BODY_LIMIT;
  for (const route of matchedRoutes(c)) {
    const declared = (route.handler as Declared)[LIMIT];
    if (declared !== undefined) limit = Math.max(limit, declared);
  }
  return limit;
}

const limiters = new Map<number, MiddlewareHandler>();

function limiter(maxSize: number): MiddlewareHandler {
  let found = limiters.get(maxSize);
  if (!found) {
    found = bodyLimit({
      maxSize,
      onError: (c) =>
        c.json({ message: `The request body is larger than ${formatBytes(maxSize)}.` }, 413),
    });
    limiters.set(maxSize, found);
  }
  return found;
}

/**
 * App-wide middleware: bodies of at most the route's declared limit (by `Content-Length` before
 * reading, else by counting while reading), else 413.
 */
export const limitBodies: MiddlewareHandler = (c, next) => limiter(declaredLimit(c))(c, next);
