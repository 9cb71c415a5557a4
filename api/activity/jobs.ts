/**
 * The daily removal of activity entries older than ACTIVITY_RETENTION_DAYS (docs/activity.md);
 * the activity feature (`./feature.ts`) hands it and its schedule to the job runner.
 */
import type { JobHandler, ScheduleSource } from "../jobs/handlers.ts";
import { syncSchedules } from "../jobs/schedules.ts";
import { pruneActivity } from "./queries.ts";

/** The job kind of the daily removal. */
export const PRUNE_ACTIVITY_JOB = "activity-prune";

/** Removes the entries past the retention. */
export const pruneActivityJob: JobHandler = {
  async run(deps) {
    await pruneActivity(deps.db, deps.config.ACTIVITY_RETENTION_DAYS, new Date());
  },
};

/** Once a day; a day missed while no process ran is caught up once at the next tick. */
export const pruneActivitySchedule: ScheduleSource = async (deps) => {
  await syncSchedules(deps.db, PRUNE_ACTIVITY_JOB, [{
    name: PRUNE_ACTIVITY_JOB,
    kind: PRUNE_ACTIVITY_JOB,
    payload: {},
    everySeconds: 86_400,
  }]);
};
