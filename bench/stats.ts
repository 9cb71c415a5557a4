/** Figures the benchmarks report. */

/**
 * The q-th quantile (0..1) of `values`, taken as the value at that rank (no interpolation);
 * NaN for no values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quantile } from "./stats.ts";
 *
 * assert.equal(quantile([3, 1, 2], 0.5), 2);
 * ```
 */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}
