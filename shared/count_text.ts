/**
 * A count with its noun, the count written the en-US way: `countText(1, "row")` is "1 row",
 * `countText(1200, "row")` is "1,200 rows".
 *
 * @example
 * ```ts
 * import { countText } from "./count_text.ts";
 * countText(2, "e-mail"); // "2 e-mails"
 * countText(1, "order updated", "orders updated"); // "1 order updated"
 * ```
 */
export function countText(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
