/**
 * A bound on how many rows of one kind exist (issue 28, finding 4: sources per area,
 * docs/limits.md, "Sources per area"). The count and the insert run in one transaction under an
 * advisory lock per table, so parallel creations, in one process or several on one PostgreSQL,
 * cannot pass the bound together.
 */
import type { Db } from "./client.ts";
import { invalid } from "./errors.ts";

/** What is bounded: a table, which of its rows count, the bound and how to name it. */
export interface RowBound {
  /** The table (an identifier from code, never from a request). */
  table: string;
  /** SQL condition of the rows that count, e.g. `not deleted_status` (soft-deleted ones do not). */
  counts: string;
  /** At most this many counting rows. */
  limit: number;
  /** Plural name for the message: "e-mail sources". */
  noun: string;
  /** The variable that sets `limit` (api/config.ts). */
  variable: string;
}

// Advisory lock class of the row bounds (7243001 migrations, 7243004 order upserts, 7243028 sends).
const LOCK_CLASS = 7243029;

/**
 * Runs `create` in a transaction when fewer than `bound.limit` rows count, else throws 400
 * naming the limit. With `bound` null (an update, not a creation) it just runs `create`.
 *
 * @example
 * ```ts ignore
 * const id = await createWithinBound(db, input.id === 0 ? bound : null, (tx) => save(tx, input));
 * ```
 */
export async function createWithinBound<T>(
  db: Db,
  bound: RowBound | null,
  create: (tx: Db) => Promise<T>,
): Promise<T> {
  if (!bound) return await create(db);
  return await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1, hashtext($2))", [LOCK_CLASS, bound.table]);
    const [row] = await tx.query<{ n: number }>(
      `select count(*)::int as n from ${bound.table} where ${bound.counts}`,
    );
    if (row.n >= bound.limit) throw invalid(boundMessage(bound));
    return await create(tx);
  });
}

/**
 * The message of a creation past the bound.
 *
 * @example
 * ```ts
 * import { boundMessage } from "./row_bound.ts";
 * boundMessage({ table: "t", counts: "true", limit: 200, noun: "e-mail sources", variable: "MAX_SOURCES_PER_AREA" });
 * // "There are already 200 e-mail sources, the limit (MAX_SOURCES_PER_AREA). Delete one that is no longer used, or ask the administrator to raise the limit."
 * ```
 */
export function boundMessage(bound: RowBound): string {
  return `There are already ${bound.limit} ${bound.noun}, the limit (${bound.variable}). ` +
    "Delete one that is no longer used, or ask the administrator to raise the limit.";
}
