/** How an order row is selected and answered, shared by the list and the detail. */
import type { Db } from "../db/client.ts";
import { snakeCase } from "../db/names.ts";
import {
  DATE_FIELDS,
  type Order,
  ORDER_FIELDS,
  orderSchema,
  type TrackingNumber,
} from "../../shared/contract/order_tracking.ts";

const dateFields = new Set<string>(DATE_FIELDS);

/** The select list of an order (table alias `o`), with the contract's names; dates as ISO text. */
export const ORDER_COLUMNS = [
  `o.id`,
  ...ORDER_FIELDS.filter((field) => field !== "trackingNumbers").map((field) =>
    dateFields.has(field)
      ? `to_char(o.${snakeCase(field)}, 'YYYY-MM-DD"T"HH24:MI:SS') as "${field}"`
      : `o.${snakeCase(field)} as "${field}"`
  ),
  `o.notes as "notes"`,
].join(", ");

/** The answer's keys in the contract's order: the order schema lists them as the catalog does. */
const ORDER_KEYS = Object.keys(orderSchema.shape) as (keyof Order)[];

/**
 * The orders as the contract answers them: each row's `trackingNumbers` read (in the order they
 * were first seen) and its keys in the contract's order (trackingNumbers after
 * supplierOrderStatus). Other keys of a row (a page's seek columns) are left out. The rows come
 * from `ORDER_COLUMNS`, so their types are the schema's: they are copied by the schema's key list
 * rather than parsed with it (the parse of each row was 1.7 % of the server's CPU at capacity).
 */
export async function contractOrders(
  db: Db,
  rows: readonly (Omit<Order, "trackingNumbers">)[],
  signal?: AbortSignal,
): Promise<Order[]> {
  const byOrder = new Map<number, TrackingNumber[]>(rows.map((row) => [row.id, []]));
  if (rows.length > 0) {
    const found = await db.query<{ orderId: number; id: number; trackingNumber: string }>(
      `select order_id as "orderId", id, tracking_number as "trackingNumber"
         from tracking_numbers where order_id = any($1::bigint[]) order by order_id, id`,
      [rows.map((row) => row.id)],
      { signal, prepare: true },
    );
    for (const number of found) {
      byOrder.get(number.orderId)?.push({ id: number.id, trackingNumber: number.trackingNumber });
    }
  }
  return rows.map((row) => {
    const order: Record<string, unknown> = {};
    for (const key of ORDER_KEYS) {
      order[key] = key === "trackingNumbers" ? byOrder.get(row.id) ?? [] : row[key];
    }
    return order as Order;
  });
}
