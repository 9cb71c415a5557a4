/** Spelling conversions between the contract's camelCase fields and the tables' snake_case. */

/**
 * The snake_case column of a camelCase field.
 *
 * @example
 * ```ts
 * snakeCase("customerPoNumber") // "customer_po_number"
 * ```
 * @example
 * ```ts
 * snakeCase("wildcard1") // "wildcard1"
 * ```
 */
export function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
