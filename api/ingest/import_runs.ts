/**
 * The import-run engine: every processed file, whatever delivered it, is stored (by sha256) and
 * recorded as a run; the feed's `process` runs inside one transaction with the run's outcome, so
 * a crash at any point leaves the run queued (to be processed again) and never half-applied.
 */
import type { Db } from "../db/client.ts";
import { conditions } from "../db/conditions.ts";
import type { Deps } from "../deps.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { logError } from "../http/log_error.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import {
  feedByName,
  type FeedName,
  type ImportOutcome,
  type RowError,
  type RunTrigger,
} from "./feeds.ts";
import { readImportFile, storeImportFile } from "./import_files.ts";
import { batchTargetMs, nextBatchCount } from "./batch_pace.ts";
import type { ImportRunDetails, ImportRunSummary } from "../../shared/contract/email_sources.ts";

/** The job kind that processes one queued run. */
export const IMPORT_RUN_JOB = "import-run";

/** A file to record as a run. */
export interface NewRun {
  feed: FeedName;
  sourceId: number;
  trigger: RunTrigger;
  fileName: string;
  /** Null records a run that failed before there was a file (e.g. no matching attachment). */
  bytes: Uint8Array | null;
  receivedAt?: Date;
  mailMessageId?: number;
  rerunOf?: number;
  startedBy?: number;
  warnings?: string[];
  log?: string[];
  /** With `bytes: null`: why the run failed. */
  error?: string;
  /**
   * The caller processes the run at once (upload, CLI, re-run): its job waits this long, as the
   * safety net should this process stop, instead of processing the same run beside the caller.
   */
  jobAfterSeconds?: number;
}

/** A run as the API shows it (the shape lives in the shared contract). */
export type ImportRun = ImportRunSummary;
export type { ImportRunDetails };

/** The stored file of run `runId` (null: the run has none, or it is not stored yet). */
export async function runFile(db: Db, runId: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const [run] = await db.query<{ fileId: number | null }>(
    `select file_id as "fileId" from import_runs where id = $1`,
    [runId],
  );
  return run?.fileId ? await readImportFile(db, run.fileId) : null;
}

/**
 * Records a run inside `tx`: with bytes it is queued and a job to process it is enqueued (in the
 * same transaction, so a committed run always gets processed); without bytes it is failed with
 * `error` at once. Returns the run's id.
 */
export async function createRun(tx: Db, run: NewRun): Promise<number> {
  const fileId = run.bytes ? await storeImportFile(tx, run.bytes) : null;
  const [row] = await tx.query<{ id: number }>(
    `insert into import_runs (feed, source_id, trigger, status, file_id, file_name, received_at,
       mail_message_id, rerun_of, started_by, warnings, log, error, finished_at)
     values ($1, $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()), $8, $9, $10, $11::text::jsonb,
       $12::text::jsonb, $13, case when $4 = 'failed' then now() end)
     returning id`,
    [
      run.feed,
      run.sourceId,
      run.trigger,
      fileId ? "queued" : "failed",
      fileId,
      run.fileName,
      run.receivedAt?.toISOString() ?? null,
      run.mailMessageId ?? null,
      run.rerunOf ?? null,
      run.startedBy ?? null,
      JSON.stringify(run.warnings ?? []),
      JSON.stringify(run.log ?? []),
      fileId ? null : (run.error ?? "No file to process."),
    ],
  );
  if (fileId) {
    await enqueueJob(tx, {
      kind: IMPORT_RUN_JOB,
      payload: { runId: row.id },
      dedupeKey: `import-run:${row.id}`,
      runAt: run.jobAfterSeconds ? new Date(Date.now() + run.jobAfterSeconds * 1000) : undefined,
    });
  }
  return row.id;
}

interface QueuedRun {
  id: number;
  feed: FeedName;
  sourceId: number;
  trigger: RunTrigger;
  status: string;
  fileName: string;
  receivedAt: Date | string;
  log: string[];
  warnings: string[];
}

const errorText = (error: unknown) => error instanceof Error ? error.message : String(error);

/**
 * Processes a queued run: the feed's `process` and the run's outcome commit together. A run
 * that is no longer queued (another worker did it) is left alone. A feed that throws fails the
 * run with its message; the feed's writes are rolled back. Returns the run's status.
 * `bytes`, when the caller has just stored them as the run's file, saves reading them back (they
 * may move to a file worker: the caller gives them up).
 */
export async function processRun(
  deps: Deps,
  runId: number,
  bytes?: Uint8Array,
): Promise<ImportRun["status"]> {
  try {
    const [head] = await deps.db.query<{ feed: FeedName; status: string }>(
      "select feed, status from import_runs where id = $1",
      [runId],
    );
    if (head?.status === "queued" && feedByName(head.feed).prepare) {
      return await processBatched(deps, runId, bytes);
    }
    let afterCommit: ImportOutcome["afterCommit"];
    if (head && head.status !== "queued") return head.status as ImportRun["status"];
    // Read before the transaction, part by part (a stored file never changes).
    const file = bytes ?? await runFile(deps.db, runId);
    const status = await deps.db.transaction(async (tx) => {
      const [run] = await tx.query<QueuedRun>(
        `select r.id, r.feed, r.source_id as "sourceId", r.trigger, r.status,
           r.file_name as "fileName", r.received_at as "receivedAt", r.log, r.warnings
           from import_runs r where r.id = $1 for update of r`,
        [runId],
      );
      if (!run) throw new Error(`Import run ${runId} does not exist.`);
      if (run.status !== "queued") return run.status as ImportRun["status"];
      await tx.query("update import_runs set attempts = attempts + 1 where id = $1", [runId]);
      if (!file) throw new Error("The run's file is missing.");
      const outcome: ImportOutcome = await tx.transaction((inner) =>
        feedByName(run.feed).process(inner, deps, {
          runId,
          sourceId: run.sourceId,
          fileName: run.fileName,
          bytes: file,
          trigger: run.trigger,
          receivedAt: new Date(run.receivedAt),
        })
      );
      await writeOutcome(tx, runId, run.log, outcome);
      afterCommit = outcome.afterCommit;
      return outcome.status;
    });
    if (afterCommit) {
      await afterCommit(deps.db).catch((error) =>
        logError(`Run ${runId}'s after-commit work`, error)
      );
    }
    return status;
  } catch (error) {
    if (isInfrastructureError(error)) throw error;
    await failRun(deps.db, runId, errorText(error));
    return "failed";
  }
}

/** How long a run waits for an earlier run of its source that is between batches. */
const SOURCE_WAIT_MS = 10 * 60_000;

interface Ledger {
  status: string;
  batchesDone: number;
  batchCounts: Record<string, number>;
}

/**
 * A run of a feed with `prepare` (docs/architecture.md, "Batched imports"): the file is read
 * outside any transaction, then the batches commit with the run's ledger (`batches_done`,
 * `batch_counts`) under the run's row lock, a few in each transaction (`nextBatchCount`), so a
 * run resumed after a crash skips the batches already applied and applies each exactly once; the
 * last transaction writes the outcome. Runs of one source do not interleave: a run starts its
 * first batch only when no other run of the source is between batches (it waits, then the job
 * tries again later).
 */
async function processBatched(
  deps: Deps,
  runId: number,
  given?: Uint8Array,
): Promise<ImportRun["status"]> {
  const [run] = await deps.db.query<QueuedRun & { batchesDone: number }>(
    `select r.id, r.feed, r.source_id as "sourceId", r.trigger, r.status,
       r.file_name as "fileName", r.received_at as "receivedAt", r.log, r.warnings,
       r.batches_done as "batchesDone"
       from import_runs r where r.id = $1`,
    [runId],
  );
  const bytes = given ?? await runFile(deps.db, runId);
  if (!bytes) throw new Error("The run's file is missing.");
  const feed = feedByName(run.feed);
  const prepared = await feed.prepare!(deps.db, deps, {
    runId,
    sourceId: run.sourceId,
    fileName: run.fileName,
    bytes,
    trigger: run.trigger,
    receivedAt: new Date(run.receivedAt),
  });
  const started = Date.now();
  // Batches a transaction: as many as the target holds at the last transaction's pace.
  const { IMPORT_BATCH_MS, IMPORT_BATCH_BUSY_MS } = deps.config;
  let take = 1;
  let counted = false;
  let afterCommit: ImportOutcome["afterCommit"];
  for (;;) {
    const step = await deps.db.transaction(async (tx): Promise<string> => {
      const [ledger] = await tx.query<Ledger>(
        `select status, batches_done as "batchesDone", batch_counts as "batchCounts"
           from import_runs where id = $1 for update`,
        [runId],
      );
      if (ledger.status !== "queued") return ledger.status;
      // One run of a source at a time: the check and the first batch are one step for all.
      await tx.query("select pg_advisory_xact_lock(hashtext($1), $2)", [
        `import-run:${run.feed}`,
        run.sourceId,
      ]);
      if (ledger.batchesDone === 0) {
        const [other] = await tx.query(
          `select 1 from import_runs where feed = $1 and source_id = $2 and status = 'queued'
              and batches_done > 0 and id <> $3 limit 1`,
          [run.feed, run.sourceId, runId],
        );
        if (other) return "wait";
      }
      if (!counted) {
        await tx.query("update import_runs set attempts = attempts + 1 where id = $1", [runId]);
        counted = true;
      }
      if (ledger.batchesDone < prepared.batches) {
        const count = Math.min(take, prepared.batches - ledger.batchesDone);
        const applying = performance.now();
        const counts = await prepared.apply(tx, ledger.batchesDone, count);
        const targetMs = batchTargetMs(
          deps.db.othersActive(),
          IMPORT_BATCH_MS,
          IMPORT_BATCH_BUSY_MS,
        );
        take = nextBatchCount(count, performance.now() - applying, targetMs);
        const sum = { ...ledger.batchCounts };
        for (const [key, value] of Object.entries(counts)) sum[key] = (sum[key] ?? 0) + value;
        await tx.query(
          `update import_runs set batches_done = batches_done + $3,
             batch_counts = $2::text::jsonb where id = $1`,
          [runId, JSON.stringify(sum), count],
        );
        return "batch";
      }
      const outcome = await prepared.finish(tx, ledger.batchCounts);
      await writeOutcome(tx, runId, run.log, outcome);
      afterCommit = outcome.afterCommit;
      return outcome.status;
    }, { background: true }).catch(async (error) => {
      if (isInfrastructureError(error)) throw error;
      // Earlier batches stay written: the reason says how far the run got.
      const [ledger] = await deps.db.query<{ done: number }>(
        "select batches_done as done from import_runs where id = $1",
        [runId],
      );
      const done = ledger?.done ?? 0;
      const reason = done > 0
        ? `${errorText(error)} (${done} of ${prepared.batches} batches had been written.)`
        : errorText(error);
      await failRun(deps.db, runId, reason);
      if (done > 0) {
        await prepared.afterPartialFailure?.(deps.db).catch((error) =>
          logError(`Run ${runId}'s work after a partial failure`, error)
        );
      }
      return "failed";
    });
    if (step === "batch") continue;
    if (step !== "wait") {
      await afterCommit?.(deps.db).catch((error) =>
        logError(`Run ${runId}'s after-commit work`, error)
      );
      return step as ImportRun["status"];
    }
    if (Date.now() - started > SOURCE_WAIT_MS) {
      throw new RetryLaterError(
        "Another import of this source is still being written; trying again later.",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Stores a run's outcome and ends it. */
async function writeOutcome(tx: Db, runId: number, log: string[], outcome: ImportOutcome) {
  await tx.query(
    `update import_runs set status = $2, counts = $3::text::jsonb, row_errors = $4::text::jsonb,
       log = $5::text::jsonb, error = $6, finished_at = now() where id = $1`,
    [
      runId,
      outcome.status,
      JSON.stringify(outcome.counts),
      JSON.stringify(outcome.rowErrors),
      JSON.stringify([...log, ...outcome.log]),
      outcome.status === "failed" ? (outcome.log.at(-1) ?? "The file was rejected.") : null,
    ],
  );
}

/** A run that cannot go on now (not the file's fault): the job tries again later. */
class RetryLaterError extends Error {}

/** Errors of the database or the process itself: retried by the job, not blamed on the file. */
function isInfrastructureError(error: unknown): boolean {
  if (error instanceof RetryLaterError) return true;
  const code = (error as { code?: string })?.code ?? "";
  // SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention), 40 (rollback).
  return /^(08|53|57|40)/.test(code) || code === "ECONNREFUSED" || code === "CONNECTION_CLOSED";
}

/** Marks a queued run failed with `reason` (outside any feed transaction). */
export async function failRun(db: Db, runId: number, reason: string): Promise<void> {
  await db.query(
    `update import_runs set status = 'failed', error = $2,
       log = log || jsonb_build_array($2::text), finished_at = now()
      where id = $1 and status = 'queued'`,
    [runId, reason],
  );
}

/**
 * Stores a file, records a run and processes it at once (manual upload, CLI). Returns the run.
 *
 * @example
 * ```ts ignore
 * const run = await runImport(deps, { feed: "inventory", sourceId: 3, trigger: "upload",
 *   fileName: "stock.csv", bytes });
 * ```
 */
export async function runImport(deps: Deps, run: NewRun): Promise<ImportRunDetails> {
  if (run.bytes) await storeImportFile(deps.db, run.bytes);
  const runId = await deps.db.transaction((tx) =>
    createRun(tx, { ...run, jobAfterSeconds: deps.config.JOB_LEASE_SECONDS })
  );
  await processRun(deps, runId);
  // The job enqueued with the run finds it done and finishes without work.
  return await getRun(deps.db, runId);
}

/** Re-runs a run from its stored file as a new run (trigger `rerun`), processed at once. */
export async function rerunImport(
  deps: Deps,
  runId: number,
  startedBy?: number,
): Promise<ImportRunDetails> {
  const [old] = await deps.db.query<{ feed: FeedName; sourceId: number; fileName: string }>(
    `select feed, source_id as "sourceId", file_name as "fileName" from import_runs where id = $1`,
    [runId],
  );
  if (!old) throw new Error(`Import run ${runId} does not exist.`);
  const bytes = await runFile(deps.db, runId);
  if (!bytes) throw new Error(`Import run ${runId} has no stored file to run again.`);
  return await runImport(deps, {
    feed: old.feed,
    sourceId: old.sourceId,
    trigger: "rerun",
    fileName: old.fileName,
    bytes,
    rerunOf: runId,
    startedBy,
    log: [`Re-run of import run ${runId}.`],
  });
}

const RUN_COLUMNS = `r.id, r.feed, r.source_id as "sourceId", r.trigger, r.status,
  r.file_name as "fileName", f.size as "fileSize", f.sha256, r.received_at as "receivedAt",
  r.created_at as "createdAt", r.finished_at as "finishedAt",
  r.mail_message_id as "mailMessageId", r.rerun_of as "rerunOf", r.counts, r.warnings, r.error,
  r.row_error_count as "rowErrorCount"`;

type RunRow = Omit<ImportRun, "receivedAt" | "createdAt" | "finishedAt"> & {
  receivedAt: Date | string;
  createdAt: Date | string;
  finishedAt: Date | string | null;
};

const toRun = (row: RunRow): ImportRun => ({
  ...row,
  receivedAt: new Date(row.receivedAt).toISOString(),
  createdAt: new Date(row.createdAt).toISOString(),
  finishedAt: row.finishedAt === null ? null : new Date(row.finishedAt).toISOString(),
});

/**
 * Runs of some feeds (null: all) and a source, newest first. One statement text for each shape of
 * filter (a text whose filters hold "or $n is null" needs the values to be planned well). The
 * shapes without a source, read on every visit of the runs page, are kept prepared: PostgreSQL
 * saves postgres.js's describe round trip, PGlite the parse and plan (2.6–4.0 against 4.4–4.5 ms
 * for a user's feeds over 20,000 runs). A source's runs are not: one feed's generic plan walked
 * the newest runs of every source (10.4 ms on PGlite, 1.2 ms planned for the source).
 */
export async function listRuns(
  db: Db,
  filter: { feeds: string[] | null; sourceId?: number; limit?: number },
): Promise<ImportRun[]> {
  const where = conditions([filter.limit ?? 100]);
  if (filter.feeds) where.add("r.feed = any(?::text[])", filter.feeds);
  if (filter.sourceId !== undefined) where.add("r.source_id = ?", filter.sourceId);
  const rows = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from import_runs r left join import_files f on f.id = r.file_id
      ${where.where()}
      order by r.created_at desc, r.id desc limit $1`,
    where.params,
    { prepare: filter.sourceId === undefined },
  );
  return rows.map(toRun);
}

/** One run with its row errors and log; throws when it does not exist. */
export async function getRun(db: Db, runId: number): Promise<ImportRunDetails> {
  const [row] = await db.query<RunRow & { rowErrors: RowError[]; log: string[] }>(
    `select ${RUN_COLUMNS}, r.row_errors as "rowErrors", r.log
       from import_runs r left join import_files f on f.id = r.file_id where r.id = $1`,
    [runId],
  );
  if (!row) throw new Error(`Import run ${runId} does not exist.`);
  return { ...toRun(row), rowErrors: row.rowErrors, log: row.log };
}

/** The job that processes one queued run (registered by the import runs feature). */
export const importRunJob: JobHandler = {
  async run(deps, job) {
    await processRun(deps, Number(job.payload.runId));
  },
  async onGiveUp(deps, job, error) {
    await failRun(deps.db, Number(job.payload.runId), `Processing failed repeatedly: ${error}`);
  },
};
