/** The order list's columns: labels, default visibility, how a cell is shown. */
import {
  ORDER_TRACKING_COLUMNS,
  type OrderTrackingColumn,
} from "../../../../shared/contract/order_columns.ts";
import type { Order } from "../../../../shared/contract/order_tracking.ts";
import { FIELD_LABELS } from "./source_form.ts";

export { ORDER_TRACKING_COLUMNS, type OrderTrackingColumn };

/** Column headers. */
export const COLUMN_LABELS: Record<OrderTrackingColumn, string> = {
  ...FIELD_LABELS,
  notes: "Notes",
};

const DATE_COLUMNS = new Set<string>([
  "estimatedArrivalDate",
  "orderDate",
  "poDate",
  "shippedDate",
]);

/**
 * The visible columns. Never saved (id 0) or unknown: every column but poDate (spec part 1,
 * section 3). Saved: the columns switched on, or every column when none is (section 7).
 */
export function initialColumns(
  settings: { id: number; enabledColumns: Record<string, boolean | null> } | null,
): Set<OrderTrackingColumn> {
  if (!settings || !settings.id) {
    return new Set(ORDER_TRACKING_COLUMNS.filter((column) => column !== "poDate"));
  }
  const chosen = ORDER_TRACKING_COLUMNS.filter((column) =>
    settings.enabledColumns[column] === true
  );
  return new Set(chosen.length > 0 ? chosen : ORDER_TRACKING_COLUMNS);
}

/**
 * An ISO date (`2024-03-05` or `2024-03-05T10:00:00`) in US form, read as written: the file's
 * date, not shifted by the browser's time zone.
 *
 * @example usDate("2024-03-05T00:00:00") // "3/5/2024"
 */
export function usDate(iso: string | null): string {
  const match = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  if (!match) return iso ?? "";
  return `${Number(match[2])}/${Number(match[3])}/${match[1]}`;
}

/** The text of one cell: tracking numbers joined by commas, dates in US form. */
export function cellText(order: Order, column: OrderTrackingColumn): string {
  if (column === "trackingNumbers") {
    return order.trackingNumbers.map((number) => number.trackingNumber).join(", ");
  }
  const value = order[column];
  if (value === null || value === undefined) return "";
  if (DATE_COLUMNS.has(column)) return usDate(String(value));
  return String(value);
}
