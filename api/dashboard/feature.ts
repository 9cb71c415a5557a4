/**
 * The dashboard (issue 22, docs/dashboard.md): every source's state on the home page
 * (`GET /api/dashboard`) and the incidents job that announces failing, held and stale sources
 * once per incident, and their recovery.
 */
import { defineFeature } from "../feature.ts";
import { dashboardDocs } from "./docs.ts";
import { dashboardRoutes } from "./routes.ts";
import { INCIDENTS_JOB, incidentsJob, incidentsSchedule } from "./incidents.ts";

/** Every signed-in user may call it; the lines follow the user's flags. */
export const dashboard = defineFeature({
  name: "dashboard",
  flag: "any",
  routes: [{ path: "/api/dashboard", router: dashboardRoutes }],
  jobHandlers: { [INCIDENTS_JOB]: incidentsJob },
  scheduleSources: [incidentsSchedule],
  docs: dashboardDocs,
});
