/**
 * The durable job table (docs/design.md section 7): jobs are rows; a worker claims due rows with
 * `FOR UPDATE SKIP LOCKED` under a lease, so two processes never run one job at once, and a job
 * whose worker died is claimed again when its lease runs out.
 */
import type { Db } from "../db/client.ts";

/** A claimed job as a handler sees it. */
export interface Job {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** 1 on the first run. */
  attempts: number;
  maxAttempts: number;
}

/** What to enqueue. */
export interface NewJob {
  kind: string;
  payload?: Record<string, unknown>;
  /** While a job with this key is queued or running, enqueueing another is a no-op. */
  dedupeKey?: string;
  /** Default now. */
  runAt?: Date;
  maxAttempts?: number;
}

/** Enqueues a job and returns its id, or null when one with the same key is already waiting. */
export async function enqueueJob(db: Db, job: NewJob): Promise<number | null> {
  const rows = await db.query<{ id: number }>(
    `insert into jobs (kind, payload, dedupe_key, run_at, max_attempts)
     values ($1, $2::text::jsonb, $3, coalesce($4::timestamptz, now()), $5)
     on conflict (dedupe_key) where status in ('queued', 'running') do nothing
     returning id`,
    [
      job.kind,
      JSON.stringify(job.payload ?? {}),
      job.dedupeKey ?? null,
      job.runAt?.toISOString() ?? null,
      job.maxAttempts ?? 5,
    ],
  );
  return rows[0]?.id ?? null;
}

/**
 * Claims up to `limit` due jobs for `worker`: queued ones whose time has come, and running ones
 * whose lease expired (their worker died). Each claim counts as an attempt.
 */
export async function claimJobs(
  db: Db,
  options: {
    worker: string;
    leaseSeconds: number;
    limit?: number;
    kinds?: string[];
    ids?: number[];
  },
): Promise<Job[]> {
  return await db.query<Job>(
    `update jobs set status = 'running', locked_by = $1,
       locked_until = now() + make_interval(secs => $2), attempts = attempts + 1,
       started_at = now()
     where id in (
       select id from jobs
        where ((status = 'queued' and run_at <= now())
               or (status = 'running' and locked_until < now()))
          and ($4::text[] is null or kind = any($4::text[]))
          and ($5::bigint[] is null or id = any($5::bigint[]))
        order by run_at, id
        limit $3
        for update skip locked)
     returning id, kind, payload, attempts, max_attempts as "maxAttempts"`,
    [
      options.worker,
      options.leaseSeconds,
      options.limit ?? 10,
      options.kinds ?? null,
      options.ids ?? null,
    ],
  );
}

/** Extends the lease of a job still running under `worker`; false when it was lost. */
export async function extendLease(
  db: Db,
  id: number,
  worker: string,
  leaseSeconds: number,
): Promise<boolean> {
  const rows = await db.query(
    `update jobs set locked_until = now() + make_interval(secs => $3)
      where id = $1 and locked_by = $2 and status = 'running' returning id`,
    [id, worker, leaseSeconds],
  );
  return rows.length > 0;
}

/** Marks a job done (only while `worker` still holds it). */
export async function completeJob(db: Db, id: number, worker: string): Promise<void> {
  await db.query(
    `update jobs set status = 'succeeded', finished_at = now(), locked_by = null,
       locked_until = null, last_error = null
      where id = $1 and locked_by = $2 and status = 'running'`,
    [id, worker],
  );
}

/** Seconds to wait before attempt `attempts + 1`: 30 s doubling per attempt, at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);
}

/**
 * A job failure that trying again cannot mend until a person acts (a refused login, a changed
 * host key): the job fails for good at once instead of using its attempts, which against a
 * server that bans addresses after a few failed logins would only make things worse.
 */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentJobError";
  }
}

/**
 * Records a failed attempt: the job is queued again after the back-off, or failed for good once
 * it has used its attempts or when `permanent`. Returns true when it gave up.
 */
export async function failJob(
  db: Db,
  job: Job,
  worker: string,
  error: string,
  permanent = false,
): Promise<boolean> {
  const giveUp = permanent || job.attempts >= job.maxAttempts;
  await db.query(
    `update jobs set status = $3, last_error = $4, locked_by = null, locked_until = null,
       run_at = case when $3 = 'queued' then now() + make_interval(secs => $5) else run_at end,
       finished_at = case when $3 = 'failed' then now() else null end
      where id = $1 and locked_by = $2 and status = 'running'`,
    [
      job.id,
      worker,
      giveUp ? "failed" : "queued",
      error.slice(0, 2000),
      retryDelaySeconds(job.attempts),
    ],
  );
  return giveUp;
}

/**
 * Gives back the jobs `worker` holds (a process shutting down before its job finished): queued
 * again at once, the attempt not counted, so another process takes them without waiting for the
 * lease to run out.
 *
 * @returns the ids released
 */
export async function releaseJobs(db: Db, worker: string): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `update jobs set status = 'queued', locked_by = null, locked_until = null, run_at = now(),
       attempts = greatest(attempts - 1, 0), started_at = null
      where locked_by = $1 and status = 'running' returning id`,
    [worker],
  );
  return rows.map((row) => Number(row.id));
}
