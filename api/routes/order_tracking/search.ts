/**
 * The order list search (DESIGN.md section 6): six case-insensitive substring terms combined with
 * AND or OR, an ordered multi-column sort over a whitelist, 1-based pages. Every term is an
 * `ilike` on a column of `orders` with a trigram index, so PostgreSQL combines the indexes with a
 * BitmapAnd/BitmapOr instead of reading every order.
 */
import type { Db } from "../../db/client.ts";
import { snakeCase } from "../../db/names.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  type Order,
  ORDER_FIELDS,
  type OrderListRequest,
  type OrderListResult,
} from "../../../shared/contract/order_tracking.ts";
import { badRequest } from "../../http/errors.ts";
import { attachTrackingNumbers, contractOrder, ORDER_COLUMNS } from "./order_rows.ts";

/** Which columns each search parameter looks in. */
const SEARCH_COLUMNS: Record<string, string[]> = {
  PoNumberParam: ["customer_po_number"],
  ItemNumberParam: ["item_number"],
  ShipToNameParam: ["customer_name", "ship_to_name"],
  SupplierNameParam: ["supplier_name"],
  BrandNameParam: ["brand_name"],
  TrackingNumberParam: ["tracking_search"],
};

const plainFields = new Set<string>([...DATE_FIELDS, ...NUMBER_FIELDS]);

/** Sortable column (lower case) → SQL expression. Text sorts ignore case. */
const SORTABLE: Map<string, string> = new Map([
  ["id", "o.id"],
  ["lastupdated", "o.last_updated"],
  ...ORDER_FIELDS.map((field): [string, string] => {
    const column = field === "trackingNumbers" ? "tracking_search" : snakeCase(field);
    return [field.toLowerCase(), plainFields.has(field) ? `o.${column}` : `lower(o.${column})`];
  }),
  ["notes", "lower(o.notes)"],
]);

/** The sortable column names, for error messages and the client. */
export const SORTABLE_COLUMNS = ["id", ...ORDER_FIELDS, "notes", "lastUpdated"];

/** A `like` pattern matching `term` anywhere, its wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * The where clause and parameters of a search. Blank terms are ignored; no terms means every
 * live order.
 */
export function searchWhere(
  request: OrderListRequest,
): { sql: string; params: unknown[]; terms: number } {
  const params: unknown[] = [];
  const terms: string[] = [];
  for (const [key, columns] of Object.entries(SEARCH_COLUMNS)) {
    const term = request[key as keyof OrderListRequest];
    if (typeof term !== "string" || term.trim() === "") continue;
    params.push(containsPattern(term.trim()));
    const n = params.length;
    const matches = columns.map((column) => `o.${column} ilike $${n}`);
    terms.push(matches.length > 1 ? `(${matches.join(" or ")})` : matches[0]);
  }
  const joiner = request.AndOrParam ? " and " : " or ";
  const sql = terms.length
    ? `not o.deleted_status and (${terms.join(joiner)})`
    : "not o.deleted_status";
  return { sql, params, terms: terms.length };
}

/**
 * The order by clause for `SortParams`, in the map's order, ending with the id so that pages
 * never overlap. Without a sort, newest first.
 *
 * @throws 400 naming an unknown column
 */
export function sortClause(sort: OrderListRequest["SortParams"]): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const [name, ascending] of Object.entries(sort ?? {})) {
    const key = name.trim().toLowerCase();
    const expression = SORTABLE.get(key);
    if (!expression) {
      throw badRequest(
        `Unknown sort column "${name}". Sortable columns: ${SORTABLE_COLUMNS.join(", ")}.`,
      );
    }
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(`${expression} ${ascending ? "asc" : "desc"} nulls last`);
  }
  if (!seen.has("id")) parts.push(parts.length ? "o.id asc" : "o.id desc");
  return parts.join(", ");
}

/**
 * One page of the order list and the number of matching orders.
 *
 * With search terms the matches are found once (one BitmapAnd/BitmapOr over the trigram
 * indexes), kept in a CTE, and both counted and paged from there. Without terms every live
 * order matches: counting and paging stay separate, so the page can follow an index.
 *
 * @example
 * await searchOrders(db, { PageSize: 10, PageIndex: 1, PoNumberParam: "PO-1", AndOrParam: false });
 */
export async function searchOrders(db: Db, request: OrderListRequest): Promise<OrderListResult> {
  const order = sortClause(request.SortParams);
  const { sql: where, params, terms } = searchWhere(request);
  const offset = (request.PageIndex - 1) * request.PageSize;
  const page = `order by ${order} limit ${request.PageSize} offset ${offset}`;
  let count: number;
  let rows: (Omit<Order, "trackingNumbers"> & { total?: number })[];
  if (terms > 0) {
    rows = await db.query(
      `with o as materialized (select * from orders o where ${where})
       select ${ORDER_COLUMNS}, (select count(*) from o)::int as total from o ${page}`,
      params,
    );
    count = rows[0]?.total ?? (offset === 0 ? 0 : await countOrders(db, where, params));
  } else {
    count = await countOrders(db, where, params);
    if (count === 0 || offset >= count) return { orders: [], totalRecordCount: count };
    rows = await db.query(`select ${ORDER_COLUMNS} from orders o where ${where} ${page}`, params);
  }
  for (const row of rows) delete row.total;
  const orders = await attachTrackingNumbers(db, rows);
  return { orders: orders.map(contractOrder), totalRecordCount: count };
}

async function countOrders(db: Db, where: string, params: unknown[]): Promise<number> {
  const [{ count }] = await db.query<{ count: number }>(
    `select count(*)::int as count from orders o where ${where}`,
    params,
  );
  return count;
}
