import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The old import history's address: it now opens the run history (docs/runs.md). */
export const importRuns: Feature = {
  name: "import_runs",
  routes: [
    { path: "/import-runs", guard: "user", Page: lazy(() => import("./import_runs_redirect.tsx")) },
  ],
};
