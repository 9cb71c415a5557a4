import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The import history of every feed (linked from the e-mail sources list). */
export const importRuns: Feature = {
  name: "import_runs",
  routes: [
    { path: "/import-runs", guard: "user", Page: lazy(() => import("./import_runs_page.tsx")) },
  ],
};
