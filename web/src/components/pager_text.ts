/**
 * What a list says about its size when the server's count may stop at a bound
 * (docs/order_tracking.md, "Order list at scale": `countCapped` means "more than").
 */

/** The number of pages, at least 1 (with a capped count: the pages counted so far). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "Page 3 of 12", or "Page 3 of more than 200" when the count stopped at its bound. */
export function pageText(pageIndex: number, pages: number, capped: boolean): string {
  const of = `${capped ? "more than " : ""}${pages.toLocaleString("en-US")}`;
  return `Page ${pageIndex.toLocaleString("en-US")} of ${of}`;
}

/** "1 order", "523 orders", or "More than 10,000 orders" when the count stopped at its bound. */
export function totalText(total: number, capped: boolean, noun = "order"): string {
  const n = total.toLocaleString("en-US");
  if (capped) return `More than ${n} ${noun}s`;
  return `${n} ${total === 1 ? noun : `${noun}s`}`;
}
