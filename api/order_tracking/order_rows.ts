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

/** Fills `trackingNumbers` of each order, in the order they were first seen. */
export async function attachTrackingNumbers<T extends { id: number }>(
  db: Db,
  orders: T[],
  signal?: AbortSignal,
): Promise<(T & { trackingNumbers: TrackingNumber[] })[]> {
  const byOrder = new Map<number, TrackingNumber[]>(orders.map((order) => [order.id, []]));
  if (orders.length > 0) {
    const rows = await db.query<{ orderId: number; id: number; trackingNumber: string }>(
      `select order_id as "orderId", id, tracking_number as "trackingNumber"
         from tracking_numbers where order_id = any($1::bigint[]) order by order_id, id`,
      [orders.map((order) => order.id)],
      { signal, prepare: true },
    );
    for (const row of rows) {
      byOrder.get(row.orderId)?.push({ id: row.id, trackingNumber: row.trackingNumber });
    }
  }
  return orders.map((order) => ({ ...order, trackingNumbers: byOrder.get(order.id) ?? [] }));
}

/**
 * Puts the answer's keys in the contract's order (trackingNumbers after supplierOrderStatus): the
 * order schema, derived from the order catalog, lists them in that order.
 */
export function contractOrder(
  row: Omit<Order, "trackingNumbers"> & { trackingNumbers: TrackingNumber[] },
): Order {
  return orderSchema.parse(row);
}
