/**
 * Domain errors: what data code throws when a record is missing, a write conflicts or an input is
 * invalid. They know nothing of HTTP; the one error handler (`api/http/errors.ts`) maps them to
 * 404, 409 and 400 (docs/conventions.md, "Errors").
 */

/** Field name → messages, for invalid inputs. */
export type FieldErrors = Record<string, string[]>;

/** Base of the domain errors: a message meant for the caller, optional field messages. */
export class DomainError extends Error {
  constructor(message: string, readonly errors?: FieldErrors) {
    super(message);
    this.name = new.target.name;
  }
}

/** A record that does not exist (or is deleted). */
export class NotFoundError extends DomainError {
  constructor(readonly what: string) {
    super(`${what} not found.`);
  }
}

/** A write that conflicts with the stored data. */
export class ConflictError extends DomainError {}

/** An input the data layer rejects (beyond what the contract's schema checks). */
export class InvalidError extends DomainError {}

/**
 * `NotFoundError` naming what was not found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notFound } from "./errors.ts";
 * assert.equal(notFound("Email source 7").message, "Email source 7 not found.");
 * ```
 */
export const notFound = (what: string): NotFoundError => new NotFoundError(what);

/** `ConflictError` with a message. */
export const conflict = (message: string): ConflictError => new ConflictError(message);

/** `InvalidError` with a message and optional field messages. */
export const invalid = (message: string, errors?: FieldErrors): InvalidError =>
  new InvalidError(message, errors);
