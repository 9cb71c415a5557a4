import { parseStatusList } from "./items.ts";

/**
 * The quantity rule: active when the quantity is at least `minItemsToBeActive`, or above 0 when
 * that is unset (null).
 *
 * @example isActiveByQuantity(3, 5) // false
 * @example isActiveByQuantity(1, null) // true
 */
export function isActiveByQuantity(quantity: number, minItemsToBeActive: number | null): boolean {
  return minItemsToBeActive === null ? quantity > 0 : quantity >= minItemsToBeActive;
}

/** What a status cell says under Status Supersedes Quantity. */
export type StatusVerdict = "available" | "out_of_stock" | null;

/** The two status lists of a source, parsed once. */
export interface StatusLists {
  available: Set<string>;
  outOfStock: Set<string>;
}

/** Parses a source's comma-separated status lists. */
export function statusLists(available: string, outOfStock: string): StatusLists {
  return { available: parseStatusList(available), outOfStock: parseStatusList(outOfStock) };
}

/**
 * The verdict of a status value: in the available list, in the out-of-stock list (trimmed,
 * case-insensitive; the available list wins when a value is in both), or null when neither,
 * and the quantity rule decides.
 *
 * @example statusVerdict(" IN STOCK ", statusLists("in stock", "discontinued")) // "available"
 */
export function statusVerdict(status: string, lists: StatusLists): StatusVerdict {
  const value = status.trim().toLowerCase();
  if (value === "") return null;
  if (lists.available.has(value)) return "available";
  if (lists.outOfStock.has(value)) return "out_of_stock";
  return null;
}
