/**
 * Trimming item descriptions with a vendor's regex (`vendorWantsTrimmedItemDescription`,
 * docs/order_submission.md "Item description regex"). The regex runs on a linear-time engine
 * (shared/patterns/linear_regex.ts), on at most the first 2,000 characters of a description;
 * a whole vendor's rows are trimmed in slices that give the event loop back between them, under
 * a time budget (docs/limits.md "Patterns"). A stored regex that cannot be used (saved before
 * the engine changed) fails the vendor's part with a reason staff can read.
 */
import { compileRegex, RegexError, type UserRegex } from "../patterns/linear_regex.ts";
import { type OrderRow, SubmissionError } from "./vendor_split.ts";

/** Longest item description the vendor's regex is run on. */
export const MAX_REGEX_INPUT = 2_000;

/** Longest time the trimming of one vendor's rows may take before its part fails. */
export const TRIM_BUDGET_MS = 30_000;

/** How long trimming runs before it lets other work (requests) in. */
const SLICE_MS = 20;

const compiled = new Map<string, UserRegex>();

/**
 * The vendor's item description regex, compiled (and kept: a file has many rows); null when
 * the pattern is empty.
 *
 * @throws {SubmissionError} `item_description_regex` when the pattern cannot be used
 */
export function itemDescriptionRegex(pattern: string): UserRegex | null {
  if (pattern.trim() === "") return null;
  const known = compiled.get(pattern);
  if (known) return known;
  let re: UserRegex;
  try {
    re = compileRegex(pattern);
  } catch (error) {
    if (!(error instanceof RegexError)) throw error;
    throw new SubmissionError(
      "item_description_regex",
      `The vendor's item description regex "${pattern.slice(0, 200)}" cannot be used: ${
        error.message.replace(/\.?$/, ".")
      } Edit the vendor's regex; its rows are sent on the next processing once it is fixed.`,
    );
  }
  if (compiled.size >= 32) compiled.clear(); // a few hundred kB each at worst
  compiled.set(pattern, re);
  return re;
}

/**
 * An item description trimmed by the vendor's regex: the first match is kept (its first capture
 * group when the pattern has one), trimmed; without a match, or with an empty pattern, the
 * description is only trimmed of surrounding spaces.
 *
 * @throws {SubmissionError} `item_description_regex` when the pattern cannot be used
 *
 * @example
 * ```ts
 * trimItemDescription("ABC-123 Blue widget, large", "^[^,]+"); // "ABC-123 Blue widget"
 * trimItemDescription("Widget (SKU 991)", "SKU (\\d+)"); // "991"
 * ```
 */
export function trimItemDescription(description: string, pattern: string | UserRegex): string {
  const text = description.trim();
  const re = typeof pattern === "string" ? itemDescriptionRegex(pattern) : pattern;
  if (!re) return text;
  const m = re.exec(text.slice(0, MAX_REGEX_INPUT));
  if (!m) return text;
  const kept = m.length > 1 && m[1] !== undefined ? m[1] : m[0] ?? "";
  return kept.trim() === "" ? text : kept.trim();
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The rows with their item descriptions trimmed by the vendor's regex (the rows themselves when
 * the vendor does not want trimming). Yields to the event loop every few milliseconds.
 *
 * @throws {SubmissionError} `item_description_regex` when the pattern cannot be used,
 *   `item_description_regex_slow` when trimming takes longer than `budgetMs`
 */
export async function trimDescriptions(
  rows: readonly OrderRow[],
  vendor: { vendorWantsTrimmedItemDescription: boolean; vendorRegexForItemDescription: string },
  budgetMs = TRIM_BUDGET_MS,
): Promise<OrderRow[]> {
  if (!vendor.vendorWantsTrimmedItemDescription) return [...rows];
  const re = itemDescriptionRegex(vendor.vendorRegexForItemDescription ?? "");
  if (!re) return [...rows];
  const started = performance.now();
  let sliceStarted = started;
  const out: OrderRow[] = [];
  for (const row of rows) {
    const description = row.fields.mapItemDescription;
    out.push(
      description === undefined || description === "" ? row : {
        ...row,
        fields: { ...row.fields, mapItemDescription: trimItemDescription(description, re) },
      },
    );
    const now = performance.now();
    if (now - started > budgetMs) {
      throw new SubmissionError(
        "item_description_regex_slow",
        `Trimming item descriptions with the vendor's regex took over ${
          Math.round(budgetMs / 1000)
        } s (${out.length} of ${rows.length} rows); simplify the regex.`,
      );
    }
    if (now - sliceStarted > SLICE_MS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
  }
  return out;
}
