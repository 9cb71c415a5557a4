/**
 * The one error shape of the API: `{ message, errors? }` with the matching status.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { isUniqueViolation } from "../db/client.ts";
import { ConflictError, DomainError, type FieldErrors, NotFoundError } from "../db/errors.ts";

export type { FieldErrors };

/** An error meant for the caller: its status and message are sent as they are. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }
}

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

/**
 * Hono's onError: known errors keep their status and message, domain errors (`api/db/errors.ts`)
 * become 404 (not found), 409 (conflict) or 400 (invalid); a unique violation is a 409 whose
 * message carries the constraint name and the duplicate key text; anything else is logged and
 * answered with a 500 that reveals nothing.
 */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof ApiError) {
    return c.json(
      { message: error.message, ...(error.errors && { errors: error.errors }) },
      error.status,
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
  console.error(`${c.req.method} ${c.req.path} failed:`, error);
  return c.json({ message: "Internal server error." }, 500);
}
