const STARTS_DANGEROUS = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Escapes a cell against formula injection (CSV/spreadsheet "DDE" attacks): text starting
 * with `= + - @`, tab or CR gets a leading apostrophe so spreadsheet programs show it as
 * text. Plain numbers such as "-5" or "+1.5e3" cannot run anything and are left alone.
 *
 * @example
 * ```ts
 * escapeFormula("=HYPERLINK(\"http://x\")") // "'=HYPERLINK(\"http://x\")"
 * ```
 * @example
 * ```ts
 * escapeFormula("-5") // "-5"
 * ```
 */
export function escapeFormula(text: string): string {
  if (text === "" || !STARTS_DANGEROUS.test(text) || PLAIN_NUMBER.test(text)) return text;
  return "'" + text;
}
