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
/** The keys read from the order's row, in `fields`' order (the tracking numbers come apart). */
const ROW_KEYS = ORDER_KEYS.filter((key) => key !== "trackingNumbers");

/**
 * The select list of an order (table alias `o`): its id, and its other values as one JSON array
 * in `ROW_KEYS` order (`fields`; dates as ISO text). One text a row instead of 22 columns: the
 * driver decoded each column apart, 11.5 % of the server's CPU at capacity (docs/benchmarks.md,
 * "Load and soak", session 17), where `JSON.parse` reads the array at once.
 */
export const ORDER_COLUMNS = `o.id as "id", json_build_array(${
  ROW_KEYS.map((key) =>
    dateFields.has(key)
      ? `to_char(o.${snakeCase(key)}, 'YYYY-MM-DD"T"HH24:MI:SS')`
      : `o.${snakeCase(key)}`
  ).join(", ")
})::text as "fields"`;

/** An order's row as `ORDER_COLUMNS` selects it. */
export interface OrderRow {
  id: number;
  fields: string;
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
 * The orders as the contract answers them: each row's `trackingNumbers` read (in the order they
 * were first seen) and its keys in the contract's order (trackingNumbers after
 * supplierOrderStatus). Other columns of a row (a page's seek columns) are left out.
 */
export async function contractOrders(
  db: Db,
  rows: readonly OrderRow[],
  signal?: AbortSignal,
): Promise<Order[]> {
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
  return rows.map((row) => {
    const values: unknown[] = JSON.parse(row.fields);
    const order: Record<string, unknown> = {};
    let i = 0;
    for (const key of ORDER_KEYS) {
      if (key === "trackingNumbers") {
        order[key] = byOrder.get(row.id) ?? [];
        continue;
      }
      const value = values[i++];
      // A numeric that JSON cannot hold (NaN) comes quoted; the driver's Number() read it so.
      order[key] = numberFields.has(key) && typeof value === "string" ? Number(value) : value;
    }
    return order as Order;
  });
}
