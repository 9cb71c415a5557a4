/**
 * Import runs: the history of every feed's files, and the job that processes a queued run. Who
 * may read a run follows the flag of the feature whose feed it belongs to.
 */
import { defineFeature } from "../feature.ts";
import { importRunsDocs } from "./docs.ts";
import { IMPORT_RUN_JOB, importRunJob } from "../ingest/import_runs.ts";
import { importRunRoutes } from "./routes.ts";

/** The import runs feature. */
export const importRuns = defineFeature({
  name: "import_runs",
  flag: "any",
  routes: [{ path: "/api/import-runs", router: importRunRoutes }],
  jobHandlers: { [IMPORT_RUN_JOB]: importRunJob },
  docs: importRunsDocs,
});
