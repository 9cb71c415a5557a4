/**
 * The run history (issue 22, docs/runs.md): every area's runs in one list, one run in words, and
 * the per-day series of the charts. Reads only; the actions are the import runs' and inventory's.
 */
import { defineFeature } from "../feature.ts";
import { runsDocs } from "./docs.ts";
import { runRoutes } from "./routes.ts";

/** The run history feature. */
export const runs = defineFeature({
  name: "runs",
  flag: "anyFlag",
  routes: [{ path: "/api/runs", router: runRoutes }],
  docs: runsDocs,
});
