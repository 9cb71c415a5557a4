/**
 * What the order list says about its size (docs/order_tracking.md, "Order list at scale"):
 * past the count's bound the server answers `countCapped`, and the screen says "more than".
 */

/** The number of pages, at least 1 (with a capped count: the pages counted so far). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "Page 3 of 12", or "Page 3 of more than 200" when the count stopped at its bound. */
export function pageText(pageIndex: number, total: number, pageSize: number, capped: boolean) {
  const pages = pageCount(total, pageSize).toLocaleString("en-US");
  return `Page ${pageIndex.toLocaleString("en-US")} of ${capped ? "more than " : ""}${pages}`;
}

/** "1 order", "523 orders", or "More than 10,000 orders" when the count stopped at its bound. */
export function totalText(total: number, capped: boolean): string {
  const n = total.toLocaleString("en-US");
  if (capped) return `More than ${n} orders`;
  return `${n} ${total === 1 ? "order" : "orders"}`;
}
