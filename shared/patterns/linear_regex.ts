/**
 * Regular expressions typed by users (a vendor's item description regex), run on RE2 semantics
 * (`re2js`, pure JavaScript, in the server and the browser): matching time grows linearly with
 * the text, whatever the pattern, so no pattern can hold the event loop (issue 28, finding 2;
 * docs/limits.md "Patterns"). Features RE2 cannot match in linear time (backreferences,
 * lookahead, lookbehind) are refused with a message saying so.
 *
 * Patterns were written for JavaScript's `RegExp` (no flags). The few JavaScript spellings RE2
 * reads differently are translated before compiling: `\uXXXX`, `\s`/`\S` (JavaScript's `\s`
 * includes the no-break space and the other Unicode spaces), `[]` and `[^]`. The remaining
 * differences are listed in docs/order_submission.md.
 */
import { RE2JS, RE2JSSyntaxException } from "re2js";

/** The longest pattern accepted: matching costs up to (pattern length × text length) steps. */
export const MAX_REGEX_CHARS = 1_000;

/** Why a pattern was refused. */
export type RegexProblem = "invalid" | "too_long" | "backreference" | "lookaround" | "unsupported";

/** A pattern that cannot be used; `message` is worded for the person who typed it. */
export class RegexError extends Error {
  readonly problem: RegexProblem;
  constructor(problem: RegexProblem, message: string) {
    super(message);
    this.name = "RegexError";
    this.problem = problem;
  }
}

/** A compiled user pattern. */
export interface UserRegex {
  /** The pattern as the user typed it. */
  readonly source: string;
  /**
   * The first match in `text`: `[whole match, group 1, ...]`, a group that took no part being
   * `undefined` (as `RegExp.prototype.exec`); null when nothing matches.
   */
  exec(text: string): (string | undefined)[] | null;
  /** True when the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

// JavaScript's `\s` (ECMAScript WhiteSpace and LineTerminator), as the inside of an RE2 class.
const JS_SPACES = String.raw`\t\n\x0B\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}` +
  String.raw`\x{202F}\x{205F}\x{3000}\x{FEFF}`;
const NOTHING = String.raw`[^\x00-\x{10FFFF}]`;
const ANYTHING = String.raw`[\x00-\x{10FFFF}]`;

const BACKREFERENCE_MESSAGE =
  "Backreferences (\\1, \\k<name>) are not supported: patterns are matched by a linear-time engine (RE2 syntax).";
const LOOKAROUND_MESSAGE =
  "Lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: patterns are matched by a linear-time engine (RE2 syntax).";

/**
 * The RE2 spelling of a JavaScript pattern, or the refusal of a feature RE2 cannot match in
 * linear time. A small scanner, aware of escapes and character classes.
 */
export function toRe2Source(pattern: string): string {
  let out = "";
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "\\") {
      const n = pattern[i + 1];
      if (n === undefined) {
        out += c; // RE2 reports the trailing backslash
        i += 1;
      } else if (n === "u" && /^[0-9A-Fa-f]{4}$/.test(pattern.slice(i + 2, i + 6))) {
        out += `\\x{${pattern.slice(i + 2, i + 6)}}`;
        i += 6;
      } else if (!inClass && (/[1-9]/.test(n) || pattern.startsWith("k<", i + 1))) {
        throw new RegexError("backreference", BACKREFERENCE_MESSAGE);
      } else if (n === "s") {
        out += inClass ? JS_SPACES : `[${JS_SPACES}]`;
        i += 2;
      } else if (n === "S" && !inClass) {
        out += `[^${JS_SPACES}]`;
        i += 2;
      } else {
        out += c + n;
        i += 2;
      }
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      i += 1;
      continue;
    }
    if (c === "[") {
      // JavaScript closes a class at its first `]`: `[]` matches nothing, `[^]` anything.
      if (pattern.startsWith("[]", i)) {
        out += NOTHING;
        i += 2;
        continue;
      }
      if (pattern.startsWith("[^]", i)) {
        out += ANYTHING;
        i += 3;
        continue;
      }
      inClass = true;
      const negated = pattern[i + 1] === "^";
      out += negated ? "[^" : "[";
      i += negated ? 2 : 1;
      continue;
    }
    if (c === "(" && /^\(\?(?:=|!|<=|<!)/.test(pattern.slice(i, i + 4))) {
      throw new RegexError("lookaround", LOOKAROUND_MESSAGE);
    }
    out += c;
    i += 1;
  }
  return out;
}

function jsAccepts(pattern: string): boolean {
  try {
    new RegExp(pattern); // compiling never runs the pattern: no risk here
    return true;
  } catch {
    return false;
  }
}

/**
 * Compiles a user's pattern (JavaScript syntax, no slashes) for linear-time matching.
 * `ignoreCase` matches letters of either case, as the `i` flag.
 *
 * @throws {RegexError} when the pattern is invalid, too long, or uses a feature RE2 lacks
 *
 * @example
 * ```ts
 * compileRegex("SKU (\\d+)").exec("Widget (SKU 991)"); // ["SKU 991", "991"]
 * ```
 */
export function compileRegex(pattern: string, options: { ignoreCase?: boolean } = {}): UserRegex {
  if (pattern.length > MAX_REGEX_CHARS) {
    throw new RegexError(
      "too_long",
      `The pattern is longer than ${MAX_REGEX_CHARS.toLocaleString("en-US")} characters.`,
    );
  }
  const source = toRe2Source(pattern);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const detail = error.message.replace(/^error parsing regexp: /, "");
    throw jsAccepts(pattern)
      ? new RegexError(
        "unsupported",
        `This pattern is not supported by the linear-time engine (RE2 syntax): ${detail}`,
      )
      : new RegexError("invalid", `Invalid regular expression: ${detail}`);
  }
  return {
    source: pattern,
    exec(text) {
      const m = re.exec(text);
      return m ? Array.from(m as (string | undefined)[]) : null;
    },
    test: (text) => re.test(text),
  };
}

/**
 * The error of a user's pattern, or null when it can be used.
 *
 * @example
 * ```ts
 * regexError("^[^,]+"); // null
 * regexError("(a)\\1"); // "Backreferences (\\1, \\k<name>) are not supported: ..."
 * ```
 */
export function regexError(pattern: string): string | null {
  try {
    compileRegex(pattern);
    return null;
  } catch (error) {
    if (error instanceof RegexError) return error.message;
    throw error;
  }
}
