/**
 * Display names: the words staff read for the technical names the payloads carry (issue 24,
 * "nothing technical is shown to staff"). The field catalogue (orders.ts) holds the order
 * fields' labels; this file holds the rest: unique-column choices, notification source types and
 * the counts an import run records. Screens, e-mails and CLI tables read them from here.
 */
import { ORDER_CATALOG } from "./orders.ts";
import { columnsOf } from "./catalog.ts";

/**
 * The label of a unique-column choice ("QTYFulfilled" → "Qty Fulfilled"): the label of the order
 * field whose `unique` it is; an unknown value is shown as it is.
 */
export function uniqueColumnLabel(choice: string): string {
  const field = columnsOf(ORDER_CATALOG).find((f) =>
    (ORDER_CATALOG[f] as { unique?: string }).unique === choice
  );
  return field ? ORDER_CATALOG[field].label : choice;
}

/**
 * Source types in words. The keys are the names the payloads carry (spec part 2, section 3);
 * the vendor type takes the hub card's words ("Submission Vendor Sources").
 */
export const SOURCE_TYPE_LABELS = {
  Inventory: "Inventory",
  OrderSubmission: "Order Submission",
  OrderTracking: "Order Tracking",
  OrderVendor: "Submission Vendor",
} as const;

/** A source type in words; an unknown name is shown as it is. */
export function sourceTypeLabel(name: string): string {
  return (SOURCE_TYPE_LABELS as Record<string, string>)[name] ?? name;
}

/** The counts the feeds record on an import run, in words (api/<area>/feed). */
export const COUNT_LABELS: Record<string, string> = {
  rows: "Rows",
  inserted: "New",
  updated: "Updated",
  unchanged: "Unchanged",
  restored: "Restored",
  stillDeleted: "Still deleted",
  skipped: "Skipped",
  duplicates: "Duplicates",
  rowErrors: "Row errors",
  vendors: "Vendors",
  newRows: "New rows",
  alreadySentRows: "Rows already sent",
  unmatchedRows: "Rows without a vendor",
  heldRows: "Rows held",
  queuedEmails: "E-mails queued",
  items: "Items",
  active: "Active",
  inactive: "Inactive",
  flips: "Items changing state",
};

/**
 * A count's name in words: its entry in {@link COUNT_LABELS}, else the camelCase key split into
 * words ("fooBarCount" → "Foo bar count"), so a count a feed adds later still reads as words.
 */
export function countLabel(key: string): string {
  const known = COUNT_LABELS[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Rows: 120, New: 3" — a run's counts as one line of words. */
export function countsText(counts: Record<string, number> | null | undefined): string {
  return Object.entries(counts ?? {}).map(([k, v]) => `${countLabel(k)}: ${v}`).join(", ");
}
