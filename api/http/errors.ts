/**
 * The one error shape of the API: `{ message, errors? }` with the matching status.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { isForeignKeyViolation, isUniqueViolation } from "../db/client.ts";
import { ConflictError, DomainError, type FieldErrors, NotFoundError } from "../db/errors.ts";
import { logError } from "./log_error.ts";
import { writeLog } from "./log.ts";
import { currentRequestId } from "./request_id.ts";

export type { FieldErrors };

/** An error meant for the caller: its status and message are sent as they are. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: FieldErrors,
    /** Headers of the answer, such as a 429's `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 429 with `Retry-After` (whole seconds): a send limit was reached (docs/limits.md). */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });

/** 400 with a message. */
export const badRequest = (message: string, errors?: FieldErrors) =>
  new ApiError(400, message, errors);
/** 401: not logged in or the session ended. */
export const unauthorized = (message = "Not logged in.") => new ApiError(401, message);
/** 403: logged in, not allowed. */
export const forbidden = (message = "You do not have permission to do this.") =>
  new ApiError(403, message);
/** 404 naming what was not found. */
export const notFound = (what: string) => new ApiError(404, `${what} not found.`);
/** 409 for conflicts the handler detects itself. */
export const conflict = (message: string) => new ApiError(409, message);

/** Turns a zod error into field messages keyed by dotted path. */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "body";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** A 400 for an invalid payload, its message naming the first bad field. */
export function validationError(error: z.core.$ZodError): ApiError {
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join(".")}: ` : "";
  return badRequest(`Invalid request. ${where}${first?.message ?? ""}`.trim(), fieldErrors(error));
}

/** PostgreSQL's check_violation (SQLSTATE 23514). */
function isCheckViolation(
  error: unknown,
): error is { constraint?: string; constraint_name?: string } {
  return typeof error === "object" && error !== null &&
    (error as { code?: string }).code === "23514";
}

/**
 * Hono's onError: known errors keep their status and message, domain errors (`api/db/errors.ts`)
 * become 404 (not found), 409 (conflict) or 400 (invalid); a unique violation is a 409 whose
 * message carries the constraint name and the duplicate key text; a foreign-key violation is a
 * 400 naming the field (409 when a referenced row is removed); anything else is logged and
 * answered with a 500 that reveals nothing but the request's id (`{ message, requestId }`).
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) {
    return c.json(
      { message: error.message, ...(error.errors && { errors: error.errors }) },
      error.status,
      error.headers,
    );
  }
  if (error instanceof DomainError) {
    const status = error instanceof NotFoundError
      ? 404
      : error instanceof ConflictError
      ? 409
      : 400;
    return c.json(
      { message: error.message, ...(error.errors && { errors: error.errors }) },
      status,
    );
  }
  if (error instanceof z.ZodError) {
    const api = validationError(error);
    return c.json({ message: api.message, errors: api.errors }, 400);
  }
  if (error instanceof HTTPException) {
    return c.json({ message: error.message || "Request failed." }, error.status);
  }
  if (isUniqueViolation(error)) {
    // PGlite names the constraint `constraint`, postgres.js `constraint_name`.
    const constraint = error.constraint ?? error.constraint_name ?? "";
    const message = `duplicate key value violates unique constraint "${constraint}". ${
      error.detail ?? ""
    }`.trim();
    return c.json({ message }, 409);
  }
  if (isCheckViolation(error)) {
    // A stored row older than a limit (migration 0007 adds its checks NOT VALID) or a value no
    // schema bounded: the constraint names the column. Never `detail`: it quotes the whole row.
    const constraint = error.constraint ?? error.constraint_name ?? "";
    return c.json(
      { message: `A value breaks the check constraint "${constraint}".` },
      422,
    );
  }
  if (isForeignKeyViolation(error)) {
    // "Key (email_source_id)=(7) is not present in table ..." names the field; a delete of a row
    // still referenced reads "... is still referenced from table ...": a conflict.
    const detail = error.detail ?? "";
    const column = /Key \((\w+)\)=/.exec(detail)?.[1] ?? "";
    const field = column.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase());
    if (/still referenced/.test(detail)) {
      return c.json({ message: "This record is still in use and cannot be removed." }, 409);
    }
    const message = field
      ? `${field}: the referenced record does not exist.`
      : "A referenced record does not exist.";
    return c.json({ message, ...(field && { errors: { [field]: [message] } }) }, 400);
  }
  if (c.req.raw.signal.aborted) {
    // The client went away (the order list aborts its previous search as the user types) and
    // the statement was cancelled: nothing failed, and nobody reads this answer.
    writeLog("info", `${c.req.method} ${c.req.path} cancelled: the client went away`);
    return new Response(null, { status: 499 });
  }
  // Never the error object itself: database errors carry the query's parameters.
  logError(`${c.req.method} ${c.req.path}`, error);
  // The id finds the log line; nothing else about the failure leaves the server.
  const requestId = currentRequestId();
  return c.json({ message: "Internal server error.", ...(requestId && { requestId }) }, 500);
}
