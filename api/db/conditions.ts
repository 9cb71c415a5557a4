/**
 * A where clause built from optional filters: each condition's `?` becomes the next numbered
 * parameter, so the texts and their values never get out of step. One idiom for every list
 * filtered by what the request gave (the activity log, the runs, the imports, the inventory
 * items).
 */

/** Conditions and their parameters, numbered in the order they are added. */
export interface Conditions {
  /** The parameters so far, in placeholder order: pass them with the statement. */
  readonly params: unknown[];
  /** Adds `sql`, its one `?` standing for `value`. */
  add(sql: string, value: unknown): void;
  /** Adds a condition without a parameter. */
  addText(sql: string): void;
  /** A parameter outside the conditions (a limit, an offset): its placeholder. */
  param(value: unknown): string;
  /** `where a and b`, or nothing when no condition was added. */
  where(): string;
}

/**
 * Conditions starting from `params` already numbered (their placeholders are the caller's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const filter = conditions();
 * filter.add("r.source_id = ?", 7);
 * filter.addText("r.finished_at is null");
 * filter.add("r.created_at >= ?::timestamptz", "2026-11-01T00:00:00.000Z");
 * assert.equal(
 *   `${filter.where()} limit ${filter.param(50)}`,
 *   "where r.source_id = $1 and r.finished_at is null and r.created_at >= $2::timestamptz limit $3",
 * );
 * assert.deepEqual(filter.params, [7, "2026-11-01T00:00:00.000Z", 50]);
 * ```
 */
export function conditions(params: unknown[] = []): Conditions {
  const texts: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  return {
    params,
    add: (sql, value) => {
      const placeholder = param(value);
      texts.push(sql.replace("?", () => placeholder));
    },
    addText: (sql) => void texts.push(sql),
    param,
    where: () => texts.length ? `where ${texts.join(" and ")}` : "",
  };
}
