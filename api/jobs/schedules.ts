/**
 * Recurring work. A schedule row says what to enqueue and how often; every tick enqueues the due
 * ones. A schedule missed while no process ran is caught up with one job (not one per missed
 * interval), and the intervals skipped are counted in `missed_runs`.
 */
import type { Db } from "../db/client.ts";

/** A recurring job. */
export interface Schedule {
  name: string;
  kind: string;
  payload: Record<string, unknown>;
  everySeconds: number;
}

/**
 * Makes the schedules of `kind` exactly `wanted`: new ones are due at once, changed intervals
 * apply from the next run, ones no longer wanted are dropped.
 */
export async function syncSchedules(db: Db, kind: string, wanted: Schedule[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const s of wanted) {
      await tx.query(
        `insert into job_schedules (name, kind, payload, every_seconds, next_run_at)
         values ($1, $2, $3::text::jsonb, $4, now())
         on conflict (name) do update set kind = excluded.kind, payload = excluded.payload,
           every_seconds = excluded.every_seconds,
           next_run_at = least(job_schedules.next_run_at,
             coalesce(job_schedules.last_enqueued_at, now())
               + make_interval(secs => excluded.every_seconds))
         where job_schedules.every_seconds <> excluded.every_seconds
            or job_schedules.payload <> excluded.payload`,
        [s.name, s.kind, JSON.stringify(s.payload), s.everySeconds],
      );
    }
    await tx.query(
      `delete from job_schedules where kind = $1 and not (name = any($2::text[]))`,
      [kind, wanted.map((s) => s.name)],
    );
  });
}

/**
 * Enqueues every due schedule once (claimed with SKIP LOCKED, so two processes ticking together
 * enqueue it once) and moves it to its next time. Returns the names enqueued.
 */
export async function enqueueDueSchedules(db: Db): Promise<string[]> {
  return await db.transaction(async (tx) => {
    const due = await tx.query<Schedule & { missed: number }>(
      `select name, kind, payload, every_seconds as "everySeconds",
         floor(extract(epoch from (now() - next_run_at)) / every_seconds)::int as missed
         from job_schedules where next_run_at <= now()
         order by next_run_at for update skip locked`,
    );
    for (const s of due) {
      // The schedule's name is the job's key: a poll still queued or running is not doubled.
      await tx.query(
        `insert into jobs (kind, payload, dedupe_key, max_attempts) values ($1, $2::text::jsonb, $3, 1)
         on conflict (dedupe_key) where status in ('queued', 'running') do nothing`,
        [s.kind, JSON.stringify(s.payload), s.name],
      );
      await tx.query(
        `update job_schedules set last_enqueued_at = now(), missed_runs = missed_runs + $2,
           next_run_at = now() + make_interval(secs => every_seconds)
          where name = $1`,
        [s.name, s.missed],
      );
    }
    return due.map((s) => s.name);
  });
}
