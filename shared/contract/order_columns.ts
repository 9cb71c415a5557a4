/**
 * The order tracking columns a user can show or hide (spec part 1, section 3), in the spec's
 * order. The account page's column switches and the order list's column chooser both use it.
 * Derived from the order catalog (`shared/catalog/orders.ts`).
 */
import { columnsOf } from "../catalog/catalog.ts";
import { ORDER_CATALOG } from "../catalog/orders.ts";
export const ORDER_TRACKING_COLUMNS: readonly OrderTrackingColumn[] = columnsOf(ORDER_CATALOG);

/** One of the order tracking columns. */
export type OrderTrackingColumn = keyof typeof ORDER_CATALOG;

/** Column name → shown. */
export type EnabledColumns = Record<OrderTrackingColumn, boolean>;

/** Every column on: the account page's default. */
export function allColumnsEnabled(): EnabledColumns {
  return Object.fromEntries(ORDER_TRACKING_COLUMNS.map((name) => [name, true])) as EnabledColumns;
}
