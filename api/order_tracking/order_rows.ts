/** How an order row is selected and answered, shared by the list and the detail. */
import type { Db } from "../db/client.ts";
import { snakeCase } from "../db/names.ts";
import {
  DATE_FIELDS,
  NUMBER_FIELDS,
  type Order,
  orderSchema,
  type TrackingNumber,
} from "../../shared/contract/order_tracking.ts";

const dateFields = new Set<string>(DATE_FIELDS);
const numberFields = new Set<string>(NUMBER_FIELDS);

/** The answer's keys in the contract's order: the order schema lists them as the catalog does. */
const ORDER_KEYS = Object.keys(orderSchema.shape) as (keyof Order)[];

/** Where an order's JSON text (`ORDER_COLUMNS`) leaves room for its tracking numbers. */
const TRACKING_PLACE = `"trackingNumbers" : []`;

/** A number column as JSON: numeric's NaN and infinities, which JSON cannot hold, as null. */
const jsonNumber = (column: string) =>
  `case when ${column} in ('NaN', 'Infinity', '-Infinity') then null else ${column} end`;

/**
 * The select list of an order (table alias `o`): its id, and the order as the contract answers it,
 * one JSON text (`json`: keys in the contract's order, dates as ISO text, the tracking numbers an
 * empty list that `ordersJson` fills). One text a row instead of 22 columns: the driver decoded
 * each column apart, 11.5 % of the server's CPU at capacity (docs/benchmarks.md, "Load and soak",
 * session 17); and the list's answer is written from these texts without parsing them, which
 * took a tenth of the time of parsing and writing the orders again (15 against 147 µs a page of
 * 50, session 26).
 */
export const ORDER_COLUMNS = `o.id as "id", json_build_object(${
  ORDER_KEYS.map((key) => {
    const value = key === "trackingNumbers"
      ? "'[]'::json"
      : dateFields.has(key)
      ? `to_char(o.${snakeCase(key)}, 'YYYY-MM-DD"T"HH24:MI:SS')`
      : numberFields.has(key)
      ? jsonNumber(`o.${snakeCase(key)}`)
      : `o.${snakeCase(key)}`;
    return `'${key}', ${value}`;
  }).join(", ")
})::text as "json"`;

/** An order's row as `ORDER_COLUMNS` selects it. */
export interface OrderRow {
  id: number;
  json: string;
}

/**
 * Ids as the text of a `bigint[]` parameter. The drivers' array writers escape each element; ids
 * are digits, and that escaping was 2 % of the server's CPU of a list request at capacity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(idsText([3, 10]), "{3,10}");
 * ```
 */
export function idsText(ids: readonly number[]): string {
  return `{${ids.join(",")}}`;
}

/**
 * The orders as the contract answers them, as one JSON text (an array): each row's
 * `trackingNumbers` read (in the order they were first seen) and put in its place. Other columns
 * of a row (a page's seek columns) are left out.
 */
export async function ordersJson(
  db: Db,
  rows: readonly OrderRow[],
  signal?: AbortSignal,
): Promise<string> {
  const byOrder = new Map<number, TrackingNumber[]>(rows.map((row) => [row.id, []]));
  if (rows.length > 0) {
    const found = await db.query<{ orderId: number; id: number; trackingNumber: string }>(
      `select order_id as "orderId", id, tracking_number as "trackingNumber"
         from tracking_numbers where order_id = any($1::bigint[]) order by order_id, id`,
      [idsText(rows.map((row) => row.id))],
      { signal, prepare: true },
    );
    for (const number of found) {
      byOrder.get(number.orderId)?.push({ id: number.id, trackingNumber: number.trackingNumber });
    }
  }
  return `[${rows.map((row) => withTracking(row.json, byOrder.get(row.id) ?? [])).join(",")}]`;
}

/**
 * An order's JSON text with its tracking numbers in their place. The place is found by its text:
 * inside a string value every quote is escaped, so only the key itself reads `"trackingNumbers" :`.
 * It is the third key from the end (the contract's order), so it is looked for from the end: half
 * the time of a page's 50 orders looked for from the start (session 31).
 */
function withTracking(json: string, numbers: TrackingNumber[]): string {
  const at = json.lastIndexOf(TRACKING_PLACE);
  return numbers.length === 0 || at < 0
    ? json
    : `${json.slice(0, at)}"trackingNumbers" : ${JSON.stringify(numbers)}${
      json.slice(at + TRACKING_PLACE.length)
    }`;
}

/** The orders as the contract answers them (`ordersJson`, read back). */
export async function contractOrders(
  db: Db,
  rows: readonly OrderRow[],
  signal?: AbortSignal,
): Promise<Order[]> {
  return JSON.parse(await ordersJson(db, rows, signal));
}
