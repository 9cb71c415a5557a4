/**
 * Login names that look like what they are: normalised to NFKC (so full-width `ａｄｍｉｎ` is
 * `admin`), without control, bidirectional or zero-width characters, and written in one script
 * (Latin mixed with Cyrillic `а` is a look-alike of another name). Used by the contract schemas,
 * so the server and the web forms refuse the same names with the same messages.
 */

/** Trims and normalises a login name (NFKC); what is stored and what a login looks up. */
export function normaliseUsername(value: string): string {
  return value.normalize("NFKC").trim();
}

// Bidi embeddings/overrides/isolates and marks, zero-width characters and the BOM; every other
// format character (\p{Cf}, e.g. the soft hyphen) is invisible as well.
const INVISIBLE = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF\p{Cf}]/u;
const CONTROL = /[\p{Cc}]/u;

// Scripts a letter is checked against; a letter of none of them counts as a script of its own.
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Nko",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Georgian",
  "Hangul",
  "Ethiopic",
  "Cherokee",
  "Canadian_Aboriginal",
  "Ogham",
  "Runic",
  "Khmer",
  "Mongolian",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
  "Coptic",
  "Tifinagh",
  "Vai",
  "Lisu",
].map((name) => [name, new RegExp(`\\p{Script=${name}}`, "u")] as const);

// Mixtures that belong together in one writing system (Unicode TS #39, "highly restrictive").
const ALLOWED_MIXES = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

/** The scripts of the letters and digits of `value` (Common and Inherited ones left out). */
export function scriptsOf(value: string): Set<string> {
  const found = new Set<string>();
  for (const char of value) {
    if (!/[\p{L}\p{N}]/u.test(char) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(char)) {
      continue;
    }
    found.add(SCRIPTS.find(([, pattern]) => pattern.test(char))?.[0] ?? `other:${char}`);
  }
  return found;
}

/** True when the letters of `value` come from one script, or from one allowed mixture. */
export function isSingleScript(value: string): boolean {
  const scripts = scriptsOf(value);
  if (scripts.size <= 1) return true;
  return ALLOWED_MIXES.some((mix) => [...scripts].every((script) => mix.has(script)));
}

/**
 * Why `value` (already normalised) is not an acceptable new login name, or null when it is.
 *
 * @example
 * usernameProblem("alice"); // null
 * usernameProblem("\u0430dmin"); // "Username cannot mix scripts ..."
 */
export function usernameProblem(value: string): string | null {
  if (CONTROL.test(value)) return "Username cannot contain spaces or control characters";
  if (INVISIBLE.test(value)) {
    return "Username cannot contain invisible, zero-width or text-direction characters";
  }
  if (/\s/u.test(value)) return "Username cannot contain spaces or control characters";
  if (!isSingleScript(value)) {
    return "Username cannot mix letters from different scripts (such as Latin and Cyrillic)";
  }
  return null;
}
