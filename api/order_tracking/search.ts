/**
 * The order list search (docs/design.md section 6): six case-insensitive substring terms combined with
 * AND or OR, an ordered multi-column sort over a whitelist, 1-based pages. Every term is a
 * condition on a column of `orders` with a trigram index, so PostgreSQL combines the indexes with
 * a BitmapAnd/BitmapOr instead of reading every order; which of the term's trigrams the index
 * reads is chosen from a sample of the column (trigram_choice.ts).
 */
import type { Db } from "../db/client.ts";
import { snakeCase } from "../db/names.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  type Order,
  ORDER_FIELDS,
  type OrderListRequest,
  type OrderListResult,
} from "../../shared/contract/order_tracking.ts";
import { invalid } from "../db/errors.ts";
import { attachTrackingNumbers, contractOrder, ORDER_COLUMNS } from "./order_rows.ts";
import {
  currentSearchSample,
  SEARCH_COLUMNS,
  type SearchedColumn,
  type SearchSample,
} from "./search_sample.ts";
import { choosePieces } from "./trigram_choice.ts";

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
 *
 * Without a sample each term is `column ilike '%term%'`, and the index reads every trigram of
 * the term. With one, the index reads only the trigrams chosen for that column
 * (`column ilike '%abc%' and ...`) and the whole term is checked on the rows they let through
 * (`strpos(lower(column), lower(term)) > 0`, which is what `ilike '%term%'` tests).
 */
export function searchWhere(
  request: OrderListRequest,
  sample: SearchSample | null = null,
): { sql: string; params: unknown[]; terms: number } {
  const params: unknown[] = [];
  const terms: string[] = [];
  for (const { term, columns } of searchTerms(request)) {
    const matches = columns.map((column) => {
      const pieces = sample ? choosePieces(term, sample[column]) : [];
      if (pieces.length === 0) return `o.${column} ilike ${param(params, containsPattern(term))}`;
      const reads = pieces.map((piece) => `o.${column} ilike ${param(params, `%${piece}%`)}`);
      return `(${reads.join(" and ")} and strpos(lower(o.${column}), lower(${
        param(params, term)
      })) > 0)`;
    });
    terms.push(matches.length > 1 ? `(${matches.join(" or ")})` : matches[0]);
  }
  const joiner = request.AndOrParam ? " and " : " or ";
  const sql = terms.length
    ? `not o.deleted_status and (${terms.join(joiner)})`
    : "not o.deleted_status";
  return { sql, params, terms: terms.length };
}

/** The request's non-blank terms, trimmed, with the columns each looks in. */
function searchTerms(
  request: OrderListRequest,
): { term: string; columns: readonly SearchedColumn[] }[] {
  return Object.entries(SEARCH_COLUMNS).flatMap(([key, columns]) => {
    const value = request[key as keyof OrderListRequest];
    return typeof value === "string" && value.trim() !== ""
      ? [{ term: value.trim(), columns }]
      : [];
  });
}

/** Adds a parameter and returns its placeholder, reusing an equal one already added. */
function param(params: unknown[], value: unknown): string {
  const index = params.indexOf(value);
  if (index >= 0) return `$${index + 1}`;
  params.push(value);
  return `$${params.length}`;
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
      throw invalid(
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
 * One page of the order list and the number of matching orders. `sample` chooses the trigrams
 * the indexes read (by default the current sample of `db`; null reads every trigram of each
 * term, as plain `ilike '%term%'` does).
 *
 * With search terms the matches are found once (one BitmapAnd/BitmapOr over the trigram
 * indexes), kept in a CTE, and both counted and paged from there. Without terms every live
 * order matches: counting and paging stay separate, so the page can follow an index.
 *
 * @example
 * ```ts ignore
 * await searchOrders(db, { PageSize: 10, PageIndex: 1, PoNumberParam: "PO-1", AndOrParam: false });
 * ```
 */
export async function searchOrders(
  db: Db,
  request: OrderListRequest,
  sample: SearchSample | null = searchTerms(request).length
    ? currentSearchSample(db) ?? null
    : null,
): Promise<OrderListResult> {
  const order = sortClause(request.SortParams);
  const { sql: where, params, terms } = searchWhere(request, sample);
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
