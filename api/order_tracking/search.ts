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
  beyondWindowMessage,
  DATE_FIELDS,
  NUMBER_FIELDS,
  ORDER_FIELDS,
  type OrderListRequest,
  type OrderListResult,
  RESULT_WINDOW,
} from "../../shared/contract/order_tracking.ts";
import { invalid } from "../db/errors.ts";
import { idsText, ORDER_COLUMNS, type OrderRow, ordersJson } from "./order_rows.ts";
import {
  currentSearchSample,
  sampledOrders,
  SEARCH_COLUMNS,
  type SearchedColumn,
  type SearchSample,
} from "./search_sample.ts";
import { choosePieces, type ColumnSample, mayContain } from "./trigram_choice.ts";
import { noticeListWrites } from "./list_versions.ts";
import {
  knownAbove,
  knownEnd,
  nearestPoint,
  noteDeepVisit,
  rememberAbove,
  rememberEnd,
  rememberPoints,
  REWALK_FROM,
  SEEK_STRIDE,
  seekGeneration,
  type SeekPoint,
  type SeekSearch,
} from "./page_seek.ts";

const plainFields = new Set<string>([...DATE_FIELDS, ...NUMBER_FIELDS]);

/**
 * The characters of a text value the list sorts by: its sort index (migration 0033) holds
 * `lower(left(column, 512))`, at most 2,048 bytes, inside a btree entry's 2,704 whatever the
 * characters. Values equal in their first 512 characters sort by id.
 */
export const SORT_PREFIX = 512;

/** The sort expression of a text column: its first SORT_PREFIX characters, ignoring case. */
const textSort = (column: string) => `lower(left(o.${column}, ${SORT_PREFIX}))`;

/** Sortable column (lower case) → SQL expression. Text sorts ignore case. */
const SORTABLE: Map<string, string> = new Map([
  ["id", "o.id"],
  ["lastupdated", "o.last_updated"],
  ...ORDER_FIELDS.map((field): [string, string] => {
    const column = field === "trackingNumbers" ? "tracking_search" : snakeCase(field);
    return [field.toLowerCase(), plainFields.has(field) ? `o.${column}` : textSort(column)];
  }),
  ["notes", textSort("notes")],
]);

/** Sort expressions over columns that are never null: no nulls to place, no split needed. */
const NOT_NULL = new Set(["o.id", "o.last_updated", textSort("tracking_search")]);

/**
 * A count is exact up to this many matches; past it the answer says "more than" (countCapped).
 * Counting 10,001 rows costs about as much as reading 200 pages of 50: cheap at any table size.
 */
export const COUNT_CAP = 10_000;

/**
 * A search whose terms match at least this share of the sampled orders is broad: its page is
 * read in sort order with the terms as a filter (the plain `ilike`, cheaper per row than the
 * trigram pieces, which only help an index find few rows), and its count is bounded by cost.
 */
const BROAD_SHARE = 0.01;
/**
 * A broad search is counted over about this many orders at most: its bound is the matches
 * expected among them (share × budget, rounded down, at most COUNT_CAP), so the count costs
 * the same at 1M and 10M orders.
 */
const COUNT_ROWS_BUDGET = 10_000;

/**
 * A broad search's deep page with no seek point near it walks about (rows skipped) ÷ share orders
 * in the sort's order: every order of the table for page 200 of a search of 1 %. Gathering its
 * matches through the trigram indexes and sorting them reads its matches instead, each dearer
 * than a walked row (a heap page apiece, in no order): about this many walked rows a match.
 * Measured on PostgreSQL 15 at 1M orders, page 200 newest first: 0.42 µs a row walked (a 5.5 %
 * search, 181,000 rows, 76 ms), 3.8–6.3 µs a match gathered (10,000 matches 38 ms, 12,200 50 ms,
 * 55,000 345 ms). Walks in another sort's order read the table's pages out of order and cost
 * more a row, so this errs towards walking.
 */
const GATHERED_MATCH_COST = 10;
/** A deep page is gathered only for at most this many expected matches (sorted in memory). */
const DEEP_GATHER_MAX = 100_000;

/**
 * The share of the sampled orders that `request`'s terms match (1 without terms), or null
 * without a sample. The terms are checked as `ilike '%term%'` does, on lower-cased values
 * (an estimate: lower-casing beyond ASCII may differ slightly from the database's).
 */
export function sampleShare(request: OrderListRequest, sample: SearchSample | null): number | null {
  const searched = searchTerms(request);
  if (searched.length === 0) return 1;
  const size = sample?.customer_po_number.size ?? 0;
  if (!sample || size === 0) return null;
  const all = !!request.AndOrParam;
  // Staff page through and repeat the same searches: each sample works a search's share out once
  // (the scan of the sample was 6 % of the server's CPU at full load; docs/benchmarks.md).
  const key = JSON.stringify([
    searched.map(({ term, columns }) => [term.toLowerCase(), columns]),
    all,
  ]);
  let known = sharesOf.get(sample);
  if (!known) sharesOf.set(sample, known = new Map());
  const remembered = known.get(key);
  if (remembered !== undefined) return remembered;
  // Each term marks the sampled orders it is found in: the few values that hold its rarest piece,
  // else one scan of each column's joined values. A test of every value was 3 % of the server's
  // CPU at capacity, where staff's terms are mostly new (a PO number, a name) and most find
  // nothing (docs/benchmarks.md, session 17); the scan still took 0.35–0.7 ms a new search on a
  // slow machine, 0.03–0.12 ms now (session 31).
  const marks = searched.map(({ term, columns }) => {
    const found = new Uint8Array(size);
    const lower = term.toLowerCase();
    for (const column of columns) markFound(sample[column], lower, found);
    return found;
  });
  // AND: every term is found in the order; OR: one is.
  const matched = marks[0];
  for (const found of marks.slice(1)) {
    for (let i = 0; i < size; i++) matched[i] = all ? matched[i] & found[i] : matched[i] | found[i];
  }
  let hits = 0;
  for (let i = 0; i < size; i++) hits += matched[i];
  const share = hits / size;
  known.set(key, share);
  if (known.size > MAX_SHARES) known.delete(known.keys().next().value!);
  return share;
}

/** A column's sampled values joined by NUL (which no text value holds), and where each starts. */
interface Joined {
  text: string;
  starts: Int32Array;
}

const joinedOf = new WeakMap<readonly (string | null)[], Joined>();

function joinedValues(values: readonly (string | null)[]): Joined {
  let joined = joinedOf.get(values);
  if (!joined) {
    const starts = new Int32Array(values.length);
    let at = 0;
    values.forEach((value, i) => {
      starts[i] = at;
      at += (value?.length ?? 0) + 1;
    });
    joined = { text: values.map((value) => value ?? "").join("\0"), starts };
    joinedOf.set(values, joined);
  }
  return joined;
}

/** Sets `found[i]` for every sampled value `i` that contains `term` (lower case). */
function markFound(column: ColumnSample, term: string, found: Uint8Array): void {
  // No value holds NUL, and a term with one would match across two values.
  if (term.includes("\0")) return;
  const candidates = mayContain(column, term);
  if (candidates) {
    for (const list of candidates) {
      for (const i of list) if (column.values[i]?.includes(term)) found[i] = 1;
    }
    return;
  }
  const { text, starts } = joinedValues(column.values);
  let at = text.indexOf(term);
  while (at >= 0) {
    // The value the match starts in: the last one starting at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= at) low = middle;
      else high = middle - 1;
    }
    found[low] = 1;
    at = low + 1 < starts.length ? text.indexOf(term, starts[low + 1]) : -1;
  }
}

/** The shares worked out per sample (a sample never changes; a new one starts afresh). */
const sharesOf = new WeakMap<SearchSample, Map<string, number>>();
/** Searches whose share a sample keeps, the oldest dropped first. */
const MAX_SHARES = 1024;

/** The count's bound for a broad search: share × budget, in round figures, at most COUNT_CAP. */
function broadBound(share: number): number {
  const expected = Math.min(COUNT_CAP, share * COUNT_ROWS_BUDGET);
  const unit = expected >= 1000 ? 1000 : 100;
  return Math.max(100, Math.floor(expected / unit) * unit);
}

/** The sortable column names, for error messages and the client. */
export const SORTABLE_COLUMNS = ["id", ...ORDER_FIELDS, "notes", "lastUpdated"];

/** A `like` pattern matching `term` anywhere, its wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * A term of one or two letters or digits: too short for a trigram, found through the index of
 * its characters spread between zeros (migration 0015). Letters and digits only, because
 * `like` would read `%`, `_` and `\` in the spread term as wildcards and the trigram index
 * skips every other character.
 */
const SHORT_TERM = /^[\p{L}\p{N}]{1,2}$/u;

/**
 * A term of ASCII digits, spaces and punctuation only ("12", "-0001"): lower-casing changes none
 * of its characters and turns no other character into one of them (it changes letters into
 * letters, one for one), so the column contains it exactly when the lower-cased column does, and
 * the broad filter skips `lower()`, most of its cost per row.
 */
const CASELESS_TERM = /^[\x20-\x40\x5b-\x60\x7b-\x7e]+$/;

/**
 * One ASCII letter ("a", "K"), the broadest term people type. In a column of ASCII characters
 * only, the lower-cased column contains the letter's lower case exactly when the column holds
 * its lower or upper case (each character is lower-cased alone, and only those two ASCII
 * characters have that lower case, in any locale: in a Turkish one `upper('i')` is `İ` and
 * `lower('I')` is `ı`, and the test follows the database's own `lower` and `upper`). So the
 * broad filter looks for the two cases first and lower-cases only a column that holds other
 * characters (`octet_length` ≠ `char_length`), where a Kelvin sign or an `İ` may lower-case into
 * the letter. The count of a one-letter search checks 10,000 orders: this made it about a third
 * cheaper on both databases (docs/order_tracking.md, "Broad terms filter").
 */
const ONE_LETTER = /^[A-Za-z]$/;

/**
 * The where clause and parameters of a search. Blank terms are ignored; no terms means every
 * live order.
 *
 * `filter` (a broad search, read in the sort's order with its terms as a filter): each term is
 * `strpos(lower(column), lower(term)) > 0`, which is what `ilike '%term%'` tests, at about two
 * thirds of its cost per row on PGlite (the bounded count checks up to 10,000 rows with it), and
 * which no trigram index serves, so the planner never trades the sort index's early stop for a
 * bitmap of most of the table; a term without letters is `strpos(column, term) > 0`
 * (`CASELESS_TERM`), and one ASCII letter looks for its two cases first (`ONE_LETTER`).
 *
 * Without a sample each term is `column ilike '%term%'`, and the index reads every trigram of
 * the term. With one, the index reads only the trigrams chosen for that column
 * (`column ilike '%abc%' and ...`) and the whole term is checked on the rows they let through
 * (`strpos(lower(column), lower(term)) > 0`, which is what `ilike '%term%'` tests). A term of
 * one or two letters or digits is looked for in the column's characters spread between zeros
 * (`SHORT_TERM`), which holds exactly when `ilike '%term%'` does.
 */
export function searchWhere(
  request: OrderListRequest,
  sample: SearchSample | null = null,
  { filter = false } = {},
): { sql: string; params: unknown[]; terms: number } {
  const params: unknown[] = [];
  const terms: string[] = [];
  for (const { term, columns } of searchTerms(request)) {
    const short = sample !== null && SHORT_TERM.test(term);
    const matches = columns.map((column) => {
      if (filter && CASELESS_TERM.test(term)) {
        return `strpos(o.${column}, ${param(params, term)}) > 0`;
      }
      if (filter && ONE_LETTER.test(term)) {
        const value = `o.${column}`;
        const letter = `${param(params, term)}::text`;
        return `(strpos(${value}, lower(${letter})) > 0 or strpos(${value}, upper(${letter})) > 0
                 or (octet_length(${value}) <> char_length(${value})
                     and strpos(lower(${value}), lower(${letter})) > 0))`;
      }
      if (filter) return `strpos(lower(o.${column}), lower(${param(params, term)})) > 0`;
      if (short) {
        return `order_search_spread(o.${column}) like ('%' || order_search_spread(${
          param(params, term)
        }) || '%')`;
      }
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

/** One sort key: its SQL expression and direction; empty values sort last either way. */
interface SortKey {
  expression: string;
  ascending: boolean;
}

/**
 * The sort keys of `SortParams`, in the map's order, without repeats and without the id
 * tie-break (see `orderBy`).
 *
 * @throws 400 naming an unknown column
 */
export function sortKeys(sort: OrderListRequest["SortParams"]): SortKey[] {
  const keys: SortKey[] = [];
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
    keys.push({ expression, ascending });
  }
  return keys;
}

/**
 * The order by clause of `keys`, ending with the id (in the first key's direction, so that a
 * one-column sort is exactly the order of that column's `(expression, id)` index, forwards or
 * backwards) so that pages never overlap. Without keys, newest first. `firstNullsFirst` writes
 * the first key descending with nulls first: the order of a backward index scan, used on the
 * two halves of a descending sort (non-empty values, then empty ones) where it changes nothing.
 * `named` sorts by the columns of `keyColumns` (`id`, `k0`, `k1`, …) instead of the expressions.
 */
function orderBy(keys: SortKey[], { firstNullsFirst = false, named = false } = {}): string {
  const id = named ? "id" : "o.id";
  if (keys.length === 0) return `${id} desc`;
  const parts = keys.map(({ expression, ascending }, i) => {
    const sorted = named ? `k${i}` : expression;
    if (NOT_NULL.has(expression)) return `${sorted} ${ascending ? "asc" : "desc"}`;
    if (i === 0 && firstNullsFirst && !ascending) return `${sorted} desc nulls first`;
    return `${sorted} ${ascending ? "asc" : "desc"} nulls last`;
  });
  if (!keys.some((key) => key.expression === "o.id")) {
    parts.push(`${id} ${keys[0].ascending ? "asc" : "desc"}`);
  }
  return parts.join(", ");
}

/** The id and the sort keys of a match, named for `orderBy`'s `named` form. */
function keyColumns(keys: SortKey[]): string {
  return ["o.id", ...keys.map(({ expression }, i) => `${expression} as k${i}`)].join(", ");
}

/** The order by clause for `SortParams` (see `orderBy`). @throws 400 naming an unknown column */
export function sortClause(sort: OrderListRequest["SortParams"]): string {
  return orderBy(sortKeys(sort));
}

/** The sort keys with the id's tie-break last, as `orderBy` orders (nothing after the id). */
function fullKeys(keys: SortKey[]): SortKey[] {
  const at = keys.findIndex((key) => key.expression === "o.id");
  if (at >= 0) return keys.slice(0, at + 1);
  return [...keys, { expression: "o.id", ascending: keys[0]?.ascending ?? false }];
}

/**
 * A seek point as a statement writes it: its id as SQL (a number, or a parameter such as
 * `$3::bigint` in a statement kept prepared), and which of its sort keys are empty.
 */
interface PointSql {
  id: string;
  nulls: boolean[];
}

/** The value of `expression` for the order `id` (SQL; a subquery the planner runs once). */
function valueAt(expression: string, id: string): string {
  if (expression === "o.id") return id;
  return `(select ${expression.replace(/\bo\./g, "b.")} from orders b where b.id = ${id})`;
}

/**
 * The orders after `point` in `keys`' order (empty values last, the id breaking ties), as a
 * condition: the lexicographic "after" over every key, written from which of the point's keys
 * are empty (an empty key has nothing after it but the empty ones with a later tie-break).
 */
function afterPoint(keys: SortKey[], point: PointSql): string {
  const alternatives: string[] = [];
  const equal: string[] = [];
  for (const [i, { expression, ascending }] of fullKeys(keys).entries()) {
    const nullable = !NOT_NULL.has(expression);
    const empty = nullable && point.nulls[i] === true;
    const value = valueAt(expression, point.id);
    if (!empty) {
      const later = `${expression} ${ascending ? ">" : "<"} ${value}`;
      alternatives.push(
        [...equal, nullable ? `(${later} or ${expression} is null)` : later].join(" and "),
      );
    }
    equal.push(empty ? `${expression} is null` : `${expression} = ${value}`);
  }
  return alternatives.length ? `(${alternatives.map((a) => `(${a})`).join(" or ")})` : "false";
}

/**
 * `afterPoint` for the orders whose first key is not empty, in a form the first key's
 * `(expression, id)` index seeks to: a row comparison for a one-column sort, else the first key
 * bounded from the point on plus the whole condition as a filter.
 */
function afterPointSeek(keys: SortKey[], point: PointSql): string {
  const full = fullKeys(keys);
  const [first, second] = full;
  if (full.length === 1) return afterPoint(keys, point);
  const value = valueAt(first.expression, point.id);
  if (full.length === 2 && second.expression === "o.id" && second.ascending === first.ascending) {
    return `(${first.expression}, o.id) ${first.ascending ? ">" : "<"} (${value}, ${point.id})`;
  }
  return `${first.expression} ${first.ascending ? ">=" : "<="} ${value} and ${
    afterPoint(keys, point)
  }`;
}

/**
 * The query of the ids and sort keys (`keyColumns`) of the first `depth` matches in `keys`'
 * order, after `point` when given.
 *
 * Each sortable column has an index on `(expression, id)` over the live orders (migration 0013),
 * which gives ascending order with empty values last going forwards, and descending order with
 * empty values FIRST going backwards. So a descending sort on a column that may be empty, and a
 * seek on one, are read in two halves, each one index scan that stops at `depth` rows: the
 * non-empty values (from the point on), then the empty ones; the outer sort merges at most twice
 * the depth. Whatever is sorted is only the ids and sort keys, never whole rows: sorting 10,000
 * whole orders for page 200 cost five times as much as reading them.
 */
function walkQuery(where: string, keys: SortKey[], depth: number, point: PointSql | null): string {
  const first = keys[0];
  const columns = keyColumns(keys);
  if (!first || NOT_NULL.has(first.expression) || (first.ascending && !point)) {
    const seek = point ? ` and ${afterPointSeek(keys, point)}` : "";
    return `select ${columns} from orders o where ${where}${seek}
             order by ${orderBy(keys)} limit ${depth}`;
  }
  const half = (condition: string, seek: string) =>
    `(select ${columns} from orders o
       where ${where} and ${first.expression} ${condition}${seek ? ` and ${seek}` : ""}
       order by ${orderBy(keys, { firstNullsFirst: true })} limit ${depth})`;
  const emptyPoint = point?.nulls[0] === true;
  const halves = [
    ...(emptyPoint ? [] : [half("is not null", point ? afterPointSeek(keys, point) : "")]),
    half("is null", emptyPoint ? afterPoint(keys, point!) : ""),
  ];
  return `select * from (${halves.join(" union all ")}) o
           order by ${orderBy(keys, { named: true })} limit ${depth}`;
}

/**
 * The statement of one page read in the sort's order from a seek point (`walkQuery`): the
 * `limit` rows after the first `skip` matches past the point, whole and formatted (after the
 * limit), with their id (`seekId`), row number (`seekRow`) and which sort keys are empty
 * (`seekNulls`, one "0" or "1" per key). The row just before the page, every `SEEK_STRIDE`-th
 * row skipped and the one row after the page (which tells whether there are more) come too, ids
 * only: the first two to be remembered as seek points. Every row carries the number of rows the
 * walk read (`seekWalked`), and the walk's last row always comes: fewer than it asked for means
 * the matches end there, which is the exact count. The point's id is written as `pointId` when
 * given (a parameter), else as its number; only the position's remainder by `SEEK_STRIDE` is
 * written, so a page read from a point has one text whatever the point and its depth.
 */
function pageStatement(
  where: string,
  keys: SortKey[],
  limit: number,
  skip: number,
  from: { position: number; point: SeekPoint | null },
  pointId?: string,
): string {
  const point = from.point && { id: pointId ?? String(from.point.id), nulls: from.point.nulls };
  const walk = walkQuery(where, keys, skip + limit + 1, point);
  // Row n of the walk is at position `from.position + n`: every SEEK_STRIDE-th one comes back.
  const phase = from.position % SEEK_STRIDE;
  const nulls = emptyKeyFlags(keys, "w.");
  return `select ${ORDER_COLUMNS}, w.id as "seekId", w.n::int as "seekRow", ${nulls} as "seekNulls",
                 w.m::int as "seekWalked"
            from (select w.*, row_number() over () as n, count(*) over () as m from (${walk}) w) w
            left join orders o on o.id = w.id and w.n > ${skip} and w.n <= ${skip + limit}
           where w.n >= ${skip} or (w.n + ${phase}) % ${SEEK_STRIDE} = 0 or w.n = w.m
           order by w.n`;
}

/**
 * Which sort keys of a row are empty, as SQL: one "0" or "1" per key (`k0`, `k1`, … of `keyColumns`,
 * after `prefix`), read back by `seekPoint`.
 */
function emptyKeyFlags(keys: SortKey[], prefix = ""): string {
  return keys.length
    ? keys.map((_, i) => `(${prefix}k${i} is null)::int::text`).join(" || ")
    : "''";
}

/** The seek point of a row read with its id and `emptyKeyFlags`. */
function seekPoint(id: number, flags: string): SeekPoint {
  return { id: Number(id), nulls: [...flags].map((c) => c === "1") };
}

/** The statements of a search (see `searchOrders`). */
export interface SearchPlan {
  /** The sort keys, without the id's tie-break. */
  keys: SortKey[];
  /** The search as seek points know it (`page_seek.ts`): its terms and order. */
  seek: SeekSearch;
  offset: number;
  /**
   * For a selective or rare search: the matches' ids and sort keys gathered once (at most
   * `bound + 1` of them, every one when rare), answering one row `{ id: null, total }` and the
   * page's ids. Null for a broad search or without a sample.
   */
  gather: string | null;
  /**
   * For a broad search's page past the first: its matches gathered through the trigram indexes
   * (at most `DEEP_GATHER_MAX` + 1, `deepGatherStatement`), with the matches the sample expects.
   * Read instead of the walk when the walk from the nearest seek point would cost more
   * (`gathersDeep`). Null otherwise.
   */
  deepGather: {
    matches: number;
    share: number;
    statement(): { sql: string; params: unknown[] };
  } | null;
  /** The page's orders by id (parameter 1: the ids), formatted, in page order. */
  byIds: string;
  where: string;
  params: unknown[];
  /** The count's bound: more matches answer "more than bound". */
  bound: number;
  rare: boolean;
  /**
   * A broad search (no terms count as one: their share is 1): its filter is served by no index, so
   * no plan depends on the terms' values, and its first page and count are kept prepared.
   */
  broad: boolean;
}

/** The statements of a search: see `SearchPlan` and `searchOrders`. */
export function searchPlan(request: OrderListRequest, sample: SearchSample | null): SearchPlan {
  const offset = (request.PageIndex - 1) * request.PageSize;
  if (offset >= RESULT_WINDOW) throw invalid(beyondWindowMessage(request.PageIndex));
  const keys = sortKeys(request.SortParams);
  const share = sampleShare(request, sample);
  const broad = share !== null && share >= BROAD_SHARE;
  const { sql: where, params } = broad
    ? searchWhere(request, null, { filter: true })
    : searchWhere(request, sample);
  // No sampled order matches: the matches are rare (under about 1 in 10,000 orders).
  const rare = share === 0;
  const bound = Math.max(broad ? broadBound(share) : COUNT_CAP, offset + request.PageSize);
  const byIds = `select ${ORDER_COLUMNS} from orders o where o.id = any($1::bigint[])
                 order by ${orderBy(keys)}`;
  // Rare matches are gathered whole (`offset 0`, no limit: found through the trigram indexes,
  // never by a plan that hopes to stop early and reads every order instead).
  const gathered = rare ? "offset 0" : `limit ${bound + 1}`;
  const gather = share === null || broad
    ? null
    : gatherStatement(where, keys, gathered, request.PageSize, offset);
  const orders = sample && broad && offset > 0 && share < 1 ? sampledOrders(sample) : undefined;
  const matches = orders === undefined ? Infinity : share! * orders;
  const deepGather = matches <= DEEP_GATHER_MAX
    ? {
      matches,
      share: share!,
      // Built only when chosen: most deep pages are read from a seek point.
      statement() {
        const trigrams = searchWhere(request, sample);
        const sql = deepGatherStatement(trigrams.sql, keys, request.PageSize, offset);
        return { sql, params: trigrams.params };
      },
    }
    : null;
  const seek = {
    key: JSON.stringify([searchTerms(request), !!request.AndOrParam, orderBy(keys)]),
    readsNotes: keys.some((key) => key.expression === SORTABLE.get("notes")),
  };
  return { keys, seek, offset, gather, deepGather, byIds, where, params, bound, rare, broad };
}

/**
 * The matches of `where` (at most as `gathered` says) with their sort keys, materialized once:
 * one row `{ id: null, total }` (how many were gathered), then the page's ids in sort order.
 */
function gatherStatement(
  where: string,
  keys: SortKey[],
  gathered: string,
  pageSize: number,
  offset: number,
): string {
  return `
    with m as materialized (select ${keyColumns(keys)} from orders o where ${where} ${gathered})
    select null::bigint as id, count(*)::int as total from m
    union all
    (select id, null from m order by ${orderBy(keys, { named: true })}
      limit ${pageSize} offset ${offset})`;
}

/**
 * A broad search's deep page gathered (`SearchPlan.deepGather`): its matches (at most
 * `DEEP_GATHER_MAX` + 1) with their sort keys, materialized once; one row
 * `{ id: null, total }`, then the sorted matches up to the page's end that are on the page
 * (`n` past `offset`) or are seek points (every `SEEK_STRIDE`-th, the one just before the page
 * and its last), with their row number `n` and which sort keys are empty (`nulls`, as
 * `pageStatement`'s `seekNulls`). So a second jump to the page, or to any page before it, is a
 * seek, as after a walk.
 */
function deepGatherStatement(
  where: string,
  keys: SortKey[],
  pageSize: number,
  offset: number,
): string {
  const nulls = emptyKeyFlags(keys);
  return `
    with m as materialized (select ${keyColumns(keys)} from orders o where ${where}
                             limit ${DEEP_GATHER_MAX + 1})
    select null::bigint as id, count(*)::int as total, null::int as n, null::text as nulls from m
    union all
    select id, null, n::int, ${nulls}
      from (select s.*, row_number() over () as n
              from (select * from m order by ${orderBy(keys, { named: true })}
                     limit ${offset + pageSize}) s) s
     where n >= ${offset} or n % ${SEEK_STRIDE} = 0`;
}

/**
 * One page of the order list and the number of matching orders. `sample` chooses the trigrams
 * the indexes read (by default the current sample of `db`; null reads every trigram of each
 * term, as plain `ilike '%term%'` does). `signal` skips the statements not yet started when the
 * client goes away; the running one finishes (api/db/db.ts).
 *
 * A selective search (the sample's share of matches under `BROAD_SHARE`) gathers its matches'
 * ids and sort keys once, up to the bound + 1 (every one when rare), and takes both the count
 * and the page from them (`gatherPage`). Otherwise, or when they turn out more than the bound,
 * the page is read in the sort's index order where one serves it, from the nearest seek point
 * before it (`seekPage`, `walkQuery`); the dates are formatted for the page's rows only, after
 * the limit. The count then follows from the page when the page is not full (the last one), or
 * from the one row read after a page that ends at the bound or past it; otherwise it is counted
 * up to the bound plus one: a number of matches above the bound answers
 * `totalRecordCount` = the bound and `countCapped: true`, meaning "more than". The bound is
 * `COUNT_CAP`, or, for a broad search (the sample's share of matches at least `BROAD_SHARE`),
 * the matches expected among `COUNT_ROWS_BUDGET` orders, so that counting never reads more
 * than about that many orders.
 *
 * @example
 * ```ts ignore
 * await searchOrders(db, { PageSize: 10, PageIndex: 1, PoNumberParam: "PO-1", AndOrParam: false });
 * ```
 */
export async function searchOrders(
  db: Db,
  request: OrderListRequest,
  sample?: SearchSample | null,
  signal?: AbortSignal,
): Promise<OrderListResult> {
  return JSON.parse(await searchOrdersJson(db, request, sample, signal));
}

/**
 * `searchOrders`' answer as the JSON text the list route sends: the orders are written from their
 * rows' JSON texts (`ordersJson`), never parsed and written again.
 */
export async function searchOrdersJson(
  db: Db,
  request: OrderListRequest,
  sample: SearchSample | null = searchTerms(request).length
    ? currentSearchSample(db) ?? null
    : null,
  signal?: AbortSignal,
): Promise<string> {
  const plan = searchPlan(request, sample);
  const gathered = plan.gather ? await gatherPage(db, plan, signal) : null;
  const { rows, count } = gathered?.rows
    ? { rows: gathered.rows, count: gathered.count }
    : await readPage(db, plan, request, gathered?.count ?? null, signal);
  const capped = count > plan.bound && !plan.rare;
  // One indexed query for the page's orders. (A json_agg subquery per row in the page query
  // saves this round trip on PostgreSQL but costs about 0.4 ms a row on PGlite.)
  const orders = await ordersJson(db, rows, signal);
  return capped
    ? `{"orders":${orders},"totalRecordCount":${plan.bound},"countCapped":true}`
    : `{"orders":${orders},"totalRecordCount":${count}}`;
}

/**
 * A selective search's matches gathered once, counted and paged together (the page and the count
 * each read them before). More than the bound (the sample promised fewer): no rows, and the
 * count as "more than" for `readPage`. Rare matches are gathered whole and always paged here.
 */
async function gatherPage(
  db: Db,
  plan: SearchPlan,
  signal?: AbortSignal,
): Promise<{ rows: OrderRow[] | null; count: number }> {
  const found = await db.query<{ id: number | null; total: number | null }>(
    plan.gather!,
    plan.params,
    { signal },
  );
  const total = found.find((row) => row.id === null)?.total ?? 0;
  if (!plan.rare && total > plan.bound) return { rows: null, count: total };
  const ids = found.flatMap((row) => row.id === null ? [] : [row.id]);
  return { rows: await ordersByIds(db, plan, ids, signal), count: total };
}

/** The orders of `ids`, whole, in the page's order. */
async function ordersByIds(
  db: Db,
  plan: SearchPlan,
  ids: number[],
  signal?: AbortSignal,
): Promise<OrderRow[]> {
  // One text per sort (a bounded set), its plan the same for any ids: kept prepared.
  return ids.length
    ? await db.query<OrderRow>(plan.byIds, [idsText(ids)], { signal, prepare: true })
    : [];
}

/**
 * A broad search's deep page gathered (`deepGatherStatement`), remembering its seek points as a
 * walk does; null when there were more matches than it gathers (the page is walked instead).
 */
async function deepGatherPage(
  db: Db,
  plan: SearchPlan,
  pageSize: number,
  signal?: AbortSignal,
): Promise<{ rows: OrderRow[]; count: number } | null> {
  const seen = seekGeneration();
  const { sql, params } = plan.deepGather!.statement();
  type Found = { id: number | null; total: number | null; n: number; nulls: string };
  const found = await db.query<Found>(sql, params, { signal });
  const total = found.find((row) => row.id === null)?.total ?? 0;
  if (total > DEEP_GATHER_MAX) return null;
  const end = plan.offset + pageSize;
  const points: [number, SeekPoint][] = [];
  // In any order: `byIds` sorts the page.
  const ids: number[] = [];
  for (const { id, n, nulls } of found) {
    if (id === null) continue;
    if (n % SEEK_STRIDE === 0 || n === plan.offset || n === end) {
      points.push([n, seekPoint(id, nulls)]);
    }
    if (n > plan.offset) ids.push(id);
  }
  rememberPoints(db, plan.seek, points, seen);
  rememberEnd(db, plan.seek, total, seen);
  return { rows: await ordersByIds(db, plan, ids, signal), count: total };
}

/**
 * The page in the sort's index order (`seekPage`), and the count: `known` when gathering told
 * it, else from the page when it is not full (the last one) or ends at the bound or past it,
 * else counted up to the bound + 1.
 */
async function readPage(
  db: Db,
  plan: SearchPlan,
  request: OrderListRequest,
  known: number | null,
  signal?: AbortSignal,
): Promise<{ rows: OrderRow[]; count: number }> {
  // Another process's write forgets the points it moved before they are used.
  await noticeListWrites(db);
  // A page past the matches' end, where a read found it: nothing to read. (Walked from the
  // last match, it reads the orders after it; gathered, every match again.)
  const total = knownEnd(db, plan.seek);
  if (total !== null && plan.offset >= total) return { rows: [], count: total };
  if (plan.deepGather && gathersDeep(plan, nearestPoint(db, plan.seek, plan.offset).position)) {
    const gathered = await deepGatherPage(db, plan, request.PageSize, signal);
    // More matches than the sample promised: walked after all.
    if (gathered) {
      if (plan.offset >= REWALK_FROM) {
        noteDeepVisit(db, plan.seek, plan.offset, () => deepGatherPage(db, plan, request.PageSize));
      }
      return gathered;
    }
  }
  const seen = seekGeneration();
  const count = () => countOrders(db, plan, plan.bound + 1, signal);
  const offset = plan.offset;
  // A page ending at the bound or past it (a deep one) needs no count: the one row read after
  // it tells "more than the bound" (the page's end) or "exactly the page's end". Counting there
  // read up to 10,000 matches, the dearest part of a deep page of a broad search.
  const peeks = offset + request.PageSize >= plan.bound;
  // A count that passed the bound since the last write that may remove matches still holds.
  const above = knownAbove(db, plan.seek) >= plan.bound;
  // On PostgreSQL the count runs beside the page, on another connection of the pool; its answer
  // is dropped when the page alone tells the count. PGlite runs one statement at a time.
  const counting = db.kind === "postgres" && known === null && !peeks && !above
    ? count().catch((e: Error) => e)
    : null;
  const { rows, end } = await seekPage(db, plan, request.PageSize, signal);
  if (plan.offset >= REWALK_FROM) {
    noteDeepVisit(db, plan.seek, plan.offset, () => seekPage(db, plan, request.PageSize));
  }
  if (known !== null) return { rows, count: known };
  // The matches end on this page or before it (a page past the last one): the exact count.
  if (end !== null) return { rows, count: end };
  // More matches follow the page: past a bound the page reaches, that is all the answer says.
  if (peeks || above) return { rows, count: plan.bound + 1 };
  const counted = await (counting ?? count());
  if (counted instanceof Error) throw counted;
  if (counted > plan.bound) rememberAbove(db, plan.seek, plan.bound, seen);
  return { rows, count: counted };
}

/**
 * Whether a broad search's page is cheaper gathered (`SearchPlan.deepGather`) than walked from
 * the seek point at `position`: the walk reads about (rows to the page's end) ÷ share orders, the
 * gathering its matches at `GATHERED_MATCH_COST` each. Page 200 of a search matching 1.2 % of 1M
 * orders walks about 830,000 of them (531 ms on PostgreSQL) and gathers about 12,000 (50 ms); page
 * 200 of one matching 5.5 % walks 181,000 (76 ms) and would gather 55,000 (345 ms), so it walks.
 *
 * @example
 * ```ts ignore
 * gathersDeep(searchPlan({ ...request, PageIndex: 200 }, sample), 0);
 * ```
 */
export function gathersDeep(plan: SearchPlan, position: number): boolean {
  if (!plan.deepGather) return false;
  const { matches, share } = plan.deepGather;
  const walked = (plan.offset - position + 1) / share;
  return matches * GATHERED_MATCH_COST < walked;
}

/**
 * The page read in the sort's order from the nearest seek point before it (`page_seek.ts`),
 * remembering the points the walk passed: the row before the page, every `SEEK_STRIDE`-th row
 * skipped, and the page's last row.
 */
async function seekPage(
  db: Db,
  plan: SearchPlan,
  limit: number,
  signal?: AbortSignal,
): Promise<{ rows: OrderRow[]; end: number | null }> {
  const seen = seekGeneration();
  const from = nearestPoint(db, plan.seek, plan.offset);
  const skip = plan.offset - from.position;
  // A broad search's page read from its start or from the point just before it (the next page,
  // any page visited before) is one text for every point, the point's id a parameter: kept
  // prepared, it is not planned again for each page (0.6–1 ms a plan at 200,000 orders).
  const prepare = plan.broad && skip === 0;
  const params = prepare && from.point ? [...plan.params, from.point.id] : plan.params;
  const pointId = prepare && from.point ? `$${params.length}::bigint` : undefined;
  const sql = pageStatement(plan.where, plan.keys, limit, skip, from, pointId);
  type Found = OrderRow & {
    seekId: number;
    seekRow: number;
    seekNulls: string;
    seekWalked: number;
  };
  const found = await db.query<Found>(sql, params, { signal, prepare });
  const points: [number, SeekPoint][] = [];
  const rows: OrderRow[] = [];
  // The rows keep their seek columns (`contractOrders` leaves them out): a rest pattern copying
  // the others was 8 % of the server's CPU under load.
  for (const row of found) {
    const { seekId, seekRow, seekNulls } = row;
    const position = from.position + seekRow;
    if (position % SEEK_STRIDE === 0 || seekRow === skip || seekRow === skip + limit) {
      points.push([position, seekPoint(seekId, seekNulls)]);
    }
    if (seekRow > skip && seekRow <= skip + limit) rows.push(row);
  }
  rememberPoints(db, plan.seek, points, seen);
  const walked = found[0]?.seekWalked ?? 0;
  // Fewer rows than asked for: the matches end `walked` rows after the point.
  const end = walked < skip + limit + 1 ? from.position + walked : null;
  if (end !== null) rememberEnd(db, plan.seek, end, seen);
  return { rows, end };
}

/** The number of matches, counting no further than `limit`. */
async function countOrders(
  db: Db,
  plan: SearchPlan,
  limit: number,
  signal?: AbortSignal,
): Promise<number> {
  // A broad search's bound is in round figures: a few texts per search shape.
  const sql = `select count(*)::int as count
                 from (select 1 from orders o where ${plan.where} limit ${limit}) m`;
  const [{ count }] = await db.query<{ count: number }>(sql, plan.params, {
    signal,
    prepare: plan.broad,
  });
  return count;
}
