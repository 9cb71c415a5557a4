/**
 * A run's result in plain words (issue 22: "2 new orders, 1 row for an unknown vendor, 1 e-mail
 * queued"), for the run history, the run page and the CLI. The names of the counts come from the
 * feeds (api/<area>/feed); a count without a phrase here reads as its label from
 * display_names.ts, so a count a feed adds later still reads as words.
 */
import { countLabel } from "./display_names.ts";

/** Singular and plural of what a count counts. Zero counts are left out. */
const PHRASES: Record<string, readonly [string, string]> = {
  // order tracking
  inserted: ["new order", "new orders"],
  updated: ["order updated", "orders updated"],
  restored: ["order restored", "orders restored"],
  unchanged: ["order unchanged", "orders unchanged"],
  stillDeleted: ["order still deleted", "orders still deleted"],
  skipped: ["row skipped", "rows skipped"],
  duplicates: ["duplicate row", "duplicate rows"],
  // order submission
  newRows: ["new order", "new orders"],
  alreadySentRows: ["order already sent", "orders already sent"],
  unmatchedRows: ["row for an unknown vendor", "rows for an unknown vendor"],
  heldRows: ["row waiting for its batch", "rows waiting for their batch"],
  queuedEmails: ["e-mail queued for a vendor", "e-mails queued for vendors"],
  vendors: ["vendor", "vendors"],
  // inventory
  items: ["item", "items"],
  active: ["active", "active"],
  inactive: ["inactive", "inactive"],
  flips: ["item changing state", "items changing state"],
};

const ORDER = Object.keys(PHRASES);
const rank = (key: string) => ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length;

// Counts that repeat what another says, or that the row-error groups say better.
const LEFT_OUT = new Set(["rows", "totalRows", "rowErrors"]);

/**
 * The counts of a run as a sentence fragment; "" when nothing was counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultText } from "./run_words.ts";
 * assert.equal(
 *   resultText({ newRows: 2, unmatchedRows: 1, queuedEmails: 1, heldRows: 0 }),
 *   "2 new orders, 1 row for an unknown vendor, 1 e-mail queued for a vendor",
 * );
 * assert.equal(resultText({ rows: 3, inserted: 1, updated: 2 }), "1 new order, 2 orders updated");
 * ```
 */
export function resultText(counts: Record<string, number> | null | undefined): string {
  return Object.entries(counts ?? {})
    .filter(([key, value]) => value !== 0 && !LEFT_OUT.has(key))
    // In the phrases' order (what was added first), whatever order the feed counted in.
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => {
      const phrase = PHRASES[key];
      const n = value.toLocaleString("en-US");
      if (phrase) return `${n} ${value === 1 ? phrase[0] : phrase[1]}`;
      return `${countLabel(key).toLowerCase()}: ${n}`;
    })
    .join(", ");
}

/** "1 row error" / "3 row errors". */
export function rowErrorsText(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "row error" : "row errors"}`;
}

/**
 * The whole result line of a run: its counts, its row errors, or why it failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runResultLine } from "./run_words.ts";
 * assert.equal(
 *   runResultLine({ counts: { rows: 4, inserted: 3 }, rowErrorCount: 1, error: null }),
 *   "3 new orders, 1 row error",
 * );
 * assert.equal(runResultLine({ counts: {}, rowErrorCount: 0, error: "Bad file" }), "Bad file");
 * ```
 */
export function runResultLine(
  run: { counts: Record<string, number> | null; rowErrorCount: number; error: string | null },
): string {
  const parts = [resultText(run.counts)];
  if (run.rowErrorCount > 0) parts.push(rowErrorsText(run.rowErrorCount));
  const text = parts.filter(Boolean).join(", ");
  if (run.error) return text ? `${run.error} (${text})` : run.error;
  return text || "Nothing counted";
}
