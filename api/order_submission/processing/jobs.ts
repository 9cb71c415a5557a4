/**
 * The feed's jobs: sending one planned submission, and the hourly release of what became due
 * (a short batch once its day is over, non-daily vendors on their day), ticked by a schedule in
 * the job table.
 */
import type { Deps } from "../../deps.ts";
import type { JobHandler, ScheduleSource } from "../../jobs/handlers.ts";
import { syncSchedules } from "../../jobs/schedules.ts";
import { noteOnRuns, planDue, recordFailedVendor, SEND_JOB } from "./outbox.ts";
import { sendSubmission } from "./send.ts";
import { activeSubmissionSourceIds } from "./vendors.ts";

/** The job kind that releases due batches and vendors of every source. */
export const RELEASE_JOB = "order-submission-release";

/** How often the release runs: hourly, so a short batch goes out within an hour of midnight. */
export const RELEASE_EVERY_SECONDS = 3_600;

/**
 * Releases what is due now for every active source; returns the submissions planned. The send
 * jobs are enqueued with the plan.
 */
export async function releaseDue(deps: Deps, now = new Date()): Promise<number> {
  let planned = 0;
  for (const sourceId of await activeSubmissionSourceIds(deps.db)) {
    await deps.db.transaction(async (tx) => {
      const plan = await planDue(tx, sourceId, now);
      for (const p of plan.planned) {
        await noteOnRuns(tx, p.runIds, [
          `Vendor ${p.vendorName}: ${p.rows} row(s) queued for sending on ${
            now.toISOString().slice(0, 10)
          }.`,
        ]);
      }
      for (const f of plan.failed) await recordFailedVendor(tx, f);
      planned += plan.planned.length;
    });
  }
  return planned;
}

/** Sends the submission of the job's payload. */
export const sendJob: JobHandler = {
  async run(deps, job) {
    await sendSubmission(deps, Number(job.payload.submissionId));
  },
};

/** Releases due batches and vendors. */
export const releaseJob: JobHandler = {
  async run(deps) {
    await releaseDue(deps);
  },
};

/** One release schedule, hourly. */
export const releaseSchedule: ScheduleSource = async (deps) => {
  await syncSchedules(deps.db, RELEASE_JOB, [{
    name: RELEASE_JOB,
    kind: RELEASE_JOB,
    payload: {},
    everySeconds: RELEASE_EVERY_SECONDS,
  }]);
};

/** Job kind → handler. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  [SEND_JOB]: sendJob,
  [RELEASE_JOB]: releaseJob,
};
