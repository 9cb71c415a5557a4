/**
 * Building blocks every contract schema uses, so that each string has a maximum length and no
 * control characters, and each id fits the database's `integer` (docs/design.md section 8: no input
 * makes the server answer 500).
 */
import { z } from "zod";
import { UPLOAD_LIMITS } from "../files/limits.ts";

/** The largest id the database's `integer` columns hold. */
export const MAX_ID = 2_147_483_647;

/** Maximum lengths by kind of field; the migrations use the same numbers. */
export const MAX_LENGTH = {
  /** login names of users */
  username: 100,
  /** first and last names of users */
  personName: 100,
  /** source names, column names, search terms, sort keys, tokens, MSAL ids */
  name: 200,
  /** e-mail subjects and the subject and attachment-name patterns a source matches */
  subject: 500,
  /** file names */
  fileName: 255,
  /** e-mail addresses (254: RFC 5321's 256-character path less its angle brackets) */
  email: 254,
  /** host names */
  host: 253,
  /** secrets: passwords, client secrets */
  secret: 1_000,
  /** free text on one line: patterns, lists of statuses, regexes, lists of addresses */
  text: 4_000,
  /** multi-line text: e-mail bodies, notes, item number lists */
  longText: 1_000_000,
  /** a file sent inside JSON as base64 (a `data:` URL prefix allowed): the manual upload cap */
  base64File: Math.ceil(UPLOAD_LIMITS.maxBytes / 3) * 4 + 200,
} as const;

/** The message of a string refused for its control characters. */
export const CONTROL_CHARACTERS_MESSAGE = "Control characters are not allowed";

// Tab, line feed and carriage return are ordinary text; every other C0 control, DEL and the C1
// range are not (a NUL breaks PostgreSQL's text type).
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when `value` holds a control character other than tab, line feed or carriage return. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/**
 * A string of at most `max` characters without control characters (tab and line breaks allowed).
 *
 * @example
 * ```ts
 * import { boundedString, MAX_LENGTH } from "./fields.ts";
 * boundedString(MAX_LENGTH.name).parse("Acme"); // "Acme"
 * boundedString(3).safeParse("Acme").success; // false
 * ```
 */
export function boundedString(max: number, message = `Use at most ${max} characters`) {
  return z.string().max(max, message).refine(
    (value) => !hasControlCharacters(value),
    CONTROL_CHARACTERS_MESSAGE,
  );
}

/** Free text that may come as null or be absent: stored as "". */
export function optionalText(max: number) {
  return boundedString(max).trim().nullish().transform((value) => value ?? "");
}

/**
 * A database id: a whole number from 0 (new) to `MAX_ID`; numeric strings are accepted. Add
 * `.min(1, ...)` where 0 has no meaning.
 */
export const dbId = z.coerce.number({ message: "Expected an id" }).int("Expected an id").min(
  0,
  "Expected an id",
).max(MAX_ID, "Expected an id");
