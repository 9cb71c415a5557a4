/**
 * The activity log (docs/activity.md): GET /api/activity for Admin, the daily removal of old
 * entries. The entries are written by `recordActivity` (./middleware.ts), which `api/app.ts`
 * registers once for the whole app.
 */
import { defineFeature } from "../feature.ts";
import { activityDocs } from "./docs.ts";
import { PRUNE_ACTIVITY_JOB, pruneActivityJob, pruneActivitySchedule } from "./jobs.ts";
import { activityRoutes } from "./routes.ts";

/** Admin only. */
export const activity = defineFeature({
  name: "activity",
  flag: "admin",
  routes: [{ path: "/api/activity", router: activityRoutes }],
  jobHandlers: { [PRUNE_ACTIVITY_JOB]: pruneActivityJob },
  scheduleSources: [pruneActivitySchedule],
  docs: activityDocs,
});
