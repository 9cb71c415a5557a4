/**
 * The inventory feed's jobs: delivering a processed run, looking at SFTP inbox folders, and the
 * daily "Alert After (Days)" check. Registered through feature.ts.
 */
import type { Deps } from "../deps.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import { type Job, PermanentJobError } from "../jobs/queue.ts";
import { type Schedule, syncSchedules } from "../jobs/schedules.ts";
import { logError } from "../http/log_error.ts";
import { processRun } from "../ingest/import_runs.ts";
import { DELIVER_JOB, inventoryRecipients } from "./feed.ts";
import { deliverRun } from "./delivery.ts";
import { pullInbox } from "./sftp.ts";

export const SFTP_PULL_JOB = "inventory-sftp-pull";
export const SILENCE_JOB = "inventory-silence-check";

/** A source that has been silent for its Alert After (Days), and whether an alert went out. */
export interface SilenceAlert {
  sourceId: number;
  sourceName: string;
  since: string;
  sent: boolean;
}

/**
 * Sends one alert per silence: for each active source with daysUntilNoUpdateNotification whose
 * last usable file (any trigger but re-runs; else the source's creation) is at least that many
 * days before `now`, unless the alert for that silence was already sent. A new file starts a new
 * silence; a refused one (a run failed without a generated file: cut off, a column missing)
 * does not, so a supplier sending only half files is alerted about like one sending none. A run
 * whose file was processed but whose delivery failed still counts as a file.
 */
export async function checkSilences(deps: Deps, now: Date): Promise<SilenceAlert[]> {
  const silent = await deps.db.query<
    { sourceId: number; sourceName: string; since: Date; days: number }
  >(
    `select s.id as "sourceId", s.source_name as "sourceName",
        s.days_until_no_update_notification as days,
        coalesce((select max(r.received_at) from import_runs r
                   where r.feed = 'inventory' and r.source_id = s.id and r.trigger <> 'rerun'
                     and (r.status <> 'failed' or exists (
                       select 1 from inventory_runs ir
                        where ir.import_run_id = r.id and ir.output_bytes is not null))),
                 s.created_at) as since
       from inventory_sources s
      where s.active_status and not s.deleted_status
        and s.days_until_no_update_notification is not null`,
  );
  const alerts: SilenceAlert[] = [];
  for (const s of silent) {
    const since = new Date(s.since);
    if (now.getTime() - since.getTime() < s.days * 86_400_000) continue;
    const [done] = await deps.db.query(
      `select 1 from inventory_silence_alerts
        where inventory_source_id = $1 and silence_since = $2::timestamptz`,
      [s.sourceId, since.toISOString()],
    );
    if (done) continue;
    const to = await inventoryRecipients(deps.db);
    let sent = false;
    if (deps.mailer.configured && to.length) {
      try {
        await deps.mailer.send({
          to: to.join(", "),
          subject: `No inventory file from ${s.sourceName} for ${s.days} days`,
          text: `Inventory source "${s.sourceName}" has received no file since ${
            since.toISOString().slice(0, 16).replace("T", " ")
          } UTC (Alert After: ${s.days} days).\n`,
        });
        sent = true;
      } catch (error) {
        // Not recorded: the next daily check tries again.
        logError(`No-file alert of inventory source ${s.sourceId}`, error);
        continue;
      }
    }
    await deps.db.query(
      `insert into inventory_silence_alerts (inventory_source_id, silence_since, alerted_at)
       values ($1, $2, now()) on conflict (inventory_source_id) do update
         set silence_since = excluded.silence_since, alerted_at = now()`,
      [s.sourceId, since.toISOString()],
    );
    alerts.push({
      sourceId: s.sourceId,
      sourceName: s.sourceName,
      since: since.toISOString(),
      sent,
    });
  }
  return alerts;
}

/** The job handlers of the feed, by kind. */
export const inventoryJobHandlers: Record<string, JobHandler> = {
  [DELIVER_JOB]: {
    async run(deps: Deps, job: Job) {
      const outcome = await deliverRun(deps, Number(job.payload.runId));
      // A failed delivery is retried with the job's back-off, unless only a person can mend it:
      // a refused login tried five times may get the address banned by the server.
      if (outcome.error) {
        throw outcome.needsPerson ? new PermanentJobError(outcome.error) : new Error(outcome.error);
      }
    },
  },
  [SFTP_PULL_JOB]: {
    async run(deps: Deps, job: Job) {
      const sourceId = Number(job.payload.sourceId);
      let pulled;
      try {
        pulled = await pullInbox(deps, sourceId);
      } catch (error) {
        await recordSftpCheck(deps, sourceId, (error as Error).message).catch(() => {});
        throw error;
      }
      await recordSftpCheck(deps, sourceId, null);
      for (const runId of pulled.runIds) await processRun(deps, runId);
    },
  },
  [SILENCE_JOB]: {
    async run(deps: Deps) {
      await checkSilences(deps, new Date());
    },
  },
};

/** A source with an inbox folder, as the pull schedules need it. */
export interface SftpPullSource {
  id: number;
  /** The source's own interval; null = `INVENTORY_SFTP_POLL_SECONDS`. */
  sftpPollSeconds: number | null;
}

/**
 * The pull schedules: one per source, every the source's interval, else the default.
 *
 * @example
 * ```ts
 * import { sftpPullSchedules } from "./jobs.ts";
 * const [s] = sftpPullSchedules([{ id: 4, sftpPollSeconds: null }], 30);
 * console.assert(s.name === "inventory-sftp-pull:4" && s.everySeconds === 30);
 * ```
 */
export function sftpPullSchedules(
  sources: SftpPullSource[],
  defaultSeconds: number,
): Schedule[] {
  return sources.map((s) => ({
    name: `${SFTP_PULL_JOB}:${s.id}`,
    kind: SFTP_PULL_JOB,
    payload: { sourceId: s.id },
    everySeconds: s.sftpPollSeconds ?? defaultSeconds,
  }));
}

/** One SFTP pull schedule per active source with an inbox folder; the daily silence check. */
export async function inventorySchedules(deps: Deps): Promise<void> {
  const pulls = await deps.db.query<SftpPullSource>(
    `select id, sftp_poll_seconds as "sftpPollSeconds" from inventory_sources
      where active_status and not deleted_status and sftp_server_address <> ''
        and sftp_inbox_folder <> '' order by id`,
  );
  await syncSchedules(
    deps.db,
    SFTP_PULL_JOB,
    sftpPullSchedules(pulls, deps.config.INVENTORY_SFTP_POLL_SECONDS),
  );
  await syncSchedules(deps.db, SILENCE_JOB, [{
    name: SILENCE_JOB,
    kind: SILENCE_JOB,
    payload: {},
    everySeconds: 86_400,
  }]);
}

/** Records a look at a source's inbox folder (`error` null when it worked). */
export async function recordSftpCheck(
  deps: Deps,
  sourceId: number,
  error: string | null,
): Promise<void> {
  await deps.db.query(
    `insert into inventory_sftp_checks (inventory_source_id, checked_at, error)
     values ($1, now(), $2) on conflict (inventory_source_id)
       do update set checked_at = now(), error = excluded.error`,
    [sourceId, error?.slice(0, 2000) ?? null],
  );
}

/** How a source's inbox folder is watched (the source page's line); null without one. */
export async function sftpWatch(deps: Deps, sourceId: number): Promise<
  { everySeconds: number; lastCheckAt: string | null; lastCheckError: string | null } | null
> {
  const [row] = await deps.db.query<
    { seconds: number | null; checkedAt: Date | string | null; error: string | null }
  >(
    `select s.sftp_poll_seconds as seconds, c.checked_at as "checkedAt", c.error
       from inventory_sources s
       left join inventory_sftp_checks c on c.inventory_source_id = s.id
      where s.id = $1 and s.sftp_server_address <> '' and s.sftp_inbox_folder <> ''`,
    [sourceId],
  );
  if (!row) return null;
  return {
    everySeconds: row.seconds ?? deps.config.INVENTORY_SFTP_POLL_SECONDS,
    lastCheckAt: row.checkedAt ? new Date(row.checkedAt).toISOString() : null,
    lastCheckError: row.error,
  };
}
