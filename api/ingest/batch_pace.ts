/**
 * How many of an import's batches one transaction writes (docs/architecture.md, "Batched
 * imports"). A batch of `IMPORT_BATCH_ROWS` is the ledger's unit; a transaction writes as many
 * as fit in `IMPORT_BATCH_MS` at the pace of the one before, so a file of unchanged orders (a
 * supplier's open-order list mailed again) is not paced by the fixed cost of a transaction per
 * 100 rows, while a batch of new or changed orders still holds PGlite's one connection no longer
 * than a single batch does.
 */

/**
 * The time the next transaction of an import aims at: `normalMs` (IMPORT_BATCH_MS), or the
 * shorter `busyMs` (IMPORT_BATCH_BUSY_MS) while people use a database whose statements wait for
 * the transaction (`Db.othersActive`: PGlite's one connection), so that one of their statements
 * waits at most about that long. Never longer than `normalMs` (0 keeps one batch a transaction).
 *
 * @example
 * batchTargetMs(false, 50, 10) // 50
 * batchTargetMs(true, 50, 10) // 10
 */
export function batchTargetMs(othersActive: boolean, normalMs: number, busyMs: number): number {
  return othersActive ? Math.min(normalMs, busyMs) : normalMs;
}

/**
 * At most this many batches a transaction, whatever the pace: the stage's arrays stay small
 * (3,200 rows of the default IMPORT_BATCH_ROWS).
 */
export const MOST_BATCHES_A_TRANSACTION = 128;

/**
 * The batches the next transaction writes, after one of `count` batches took `ms`: as many as
 * `targetMs` holds at that pace, at least one, at most twice `count` (one fast transaction is not
 * yet a pace) and `MOST_BATCHES_A_TRANSACTION`. A target of 0 writes one batch a transaction.
 *
 * @example
 * nextBatchCount(1, 20, 50) // 2: twice as many, no more
 * nextBatchCount(4, 80, 50) // 2: the pace fits two in 50 ms
 * nextBatchCount(1, 70, 50) // 1: never fewer than one
 */
export function nextBatchCount(count: number, ms: number, targetMs: number): number {
  if (targetMs <= 0) return 1;
  const fit = Math.floor(count * targetMs / Math.max(ms, 0.001));
  return Math.max(1, Math.min(fit, count * 2, MOST_BATCHES_A_TRANSACTION));
}
