/** How many of the first rows the header is looked for in (a reader can stop buffering there). */
export const HEADER_SAMPLE_ROWS = 50;
const SAMPLE_ROWS = HEADER_SAMPLE_ROWS;
const NUMERIC = /^\s*[+-]?[$€£]?\d[\d,. ]*%?\s*$/;

function filledCells(row: readonly string[]): { filled: number; numeric: number } {
  let filled = 0, numeric = 0;
  for (const c of row) {
    if (c.trim() === "") continue;
    filled++;
    if (NUMERIC.test(c)) numeric++;
  }
  return { filled, numeric };
}

/**
 * Finds the header among the first rows of a grid (indexes into `rows`, which hold no blank
 * rows). The widest of the first 50 rows sets the table's width; the header is the first row
 * that fills at least 60% of that width with mostly non-numeric cells, which skips report
 * titles, dates and "Supplier: X" lines above it. Falls back to the first row.
 *
 * @example
 * ```ts
 * detectHeaderIndex([["Stock report"], ["Item", "Qty"], ["1", "5"]]) // 1
 * ```
 */
export function detectHeaderIndex(rows: readonly (readonly string[])[]): number {
  const n = Math.min(rows.length, SAMPLE_ROWS);
  let width = 0;
  const stats = [];
  for (let i = 0; i < n; i++) {
    const s = filledCells(rows[i]);
    stats.push(s);
    if (s.filled > width) width = s.filled;
  }
  const needed = Math.max(1, Math.ceil(width * 0.6));
  for (let i = 0; i < n; i++) {
    const { filled, numeric } = stats[i];
    if (filled >= needed && numeric * 2 < filled) return i;
  }
  return 0;
}
