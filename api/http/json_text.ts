/** A JSON answer whose text is already written. */
import type { Context, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";

/**
 * Answers 200 with `text`, a JSON text of a `T`, with the headers and the type for Hono's client
 * that `c.json(value)` of a `T` has: for an answer written from the database's JSON texts without
 * parsing them (the order list: api/order_tracking/order_rows.ts).
 *
 * @example
 * ```ts ignore
 * app.get("/n", (c) => jsonText<{ n: number }>(c, '{"n":1}'));
 * ```
 */
export function jsonText<T>(
  c: Context,
  text: string,
): Response & TypedResponse<JSONParsed<T>, 200, "json"> {
  const response: Response = c.body(text, 200, { "content-type": "application/json" });
  return response as Response & TypedResponse<JSONParsed<T>, 200, "json">;
}
