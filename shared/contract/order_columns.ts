/**
 * The order tracking columns a user can show or hide (spec part 1, section 3), in the spec's
 * order. The account page's column switches and the order list's column chooser both use it.
 */
export const ORDER_TRACKING_COLUMNS = [
  "accountNumber",
  "brandName",
  "customerName",
  "customerNumber",
  "customerPoNumber",
  "documentNumber",
  "estimatedArrivalDate",
  "itemNumber",
  "itemStatus",
  "lineStatus",
  "notes",
  "orderDate",
  "poDate",
  "qty",
  "qtyFulfilled",
  "shipToName",
  "shippedDate",
  "supplierName",
  "supplierOrderStatus",
  "trackingNumbers",
  "wildcard1",
  "wildcard2",
] as const;

/** One of the order tracking columns. */
export type OrderTrackingColumn = (typeof ORDER_TRACKING_COLUMNS)[number];

/** Column name → shown. */
export type EnabledColumns = Record<OrderTrackingColumn, boolean>;

/** Every column on: the account page's default. */
export function allColumnsEnabled(): EnabledColumns {
  return Object.fromEntries(ORDER_TRACKING_COLUMNS.map((name) => [name, true])) as EnabledColumns;
}
