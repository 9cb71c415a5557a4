/**
 * The order list's state in query-string form (docs/web_decisions.md, "List state in the history entry"):
 * `?PoNumberParam=…&match=and&sort=orderDate,-poNumber&page=2&size=25`. Defaults are left out.
 */
import {
  lastWindowPage,
  PAGE_SIZES,
  SEARCH_FIELDS,
  type SearchParamKey,
} from "../../../../shared/contract/order_tracking.ts";
import type { ListStatePatch } from "../../components/use_list_state.ts";
import { ORDER_TRACKING_COLUMNS, type OrderTrackingColumn } from "./columns.ts";
import type { Sort } from "./orders_table.tsx";

/** The page size before the user picks one. */
export const DEFAULT_PAGE_SIZE = 10;

/** What the order list reads from the URL. */
export interface OrderListQuery {
  /** Non-empty search terms, in SEARCH_FIELDS order. */
  terms: Partial<Record<SearchParamKey, string>>;
  matchAll: boolean;
  sort: Sort;
  pageIndex: number;
  pageSize: number;
}

const COLUMNS = new Set<string>(ORDER_TRACKING_COLUMNS);

/** Reads the order list's state; unknown or bad values fall back to the defaults. */
export function readOrderListQuery(params: URLSearchParams): OrderListQuery {
  const terms: Partial<Record<SearchParamKey, string>> = {};
  for (const { key } of SEARCH_FIELDS) {
    const value = params.get(key)?.trim();
    if (value) terms[key] = value;
  }
  const sort: Sort = [];
  for (const part of (params.get("sort") ?? "").split(",")) {
    const column = part.replace(/^-/, "");
    if (COLUMNS.has(column) && !sort.some(([c]) => c === column)) {
      sort.push([column as OrderTrackingColumn, !part.startsWith("-")]);
    }
  }
  const size = Number(params.get("size"));
  const page = Number(params.get("page"));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
  return {
    terms,
    matchAll: params.get("match")?.toLowerCase() === "and",
    sort,
    // The server refuses pages past its result window: a link to one opens the deepest it serves.
    pageIndex: Number.isInteger(page) && page >= 1 ? Math.min(page, lastWindowPage(pageSize)) : 1,
    pageSize,
  };
}

/** The query-string change for a new state; changing the search or the size goes to page 1. */
export function orderListPatch(
  current: OrderListQuery,
  change: Partial<OrderListQuery>,
): ListStatePatch {
  const next = { ...current, ...change };
  const searchChanged = (change.terms !== undefined &&
    JSON.stringify(change.terms) !== JSON.stringify(current.terms)) ||
    (change.matchAll !== undefined && change.matchAll !== current.matchAll) ||
    (change.pageSize !== undefined && change.pageSize !== current.pageSize);
  if (searchChanged && change.pageIndex === undefined) next.pageIndex = 1;
  const patch: ListStatePatch = {};
  for (const { key } of SEARCH_FIELDS) patch[key] = next.terms[key] ?? null;
  patch.match = next.matchAll ? "and" : null;
  patch.sort = next.sort.map(([column, ascending]) => (ascending ? "" : "-") + column).join(",");
  patch.page = next.pageIndex === 1 ? null : String(next.pageIndex);
  patch.size = next.pageSize === DEFAULT_PAGE_SIZE ? null : String(next.pageSize);
  return patch;
}
