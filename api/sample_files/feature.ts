/**
 * Sample files: the preview behind the column pickers of the inventory, order tracking and vendor
 * forms (issue 24). No data of its own; users with a flag and administrators use it.
 */
import { defineFeature } from "../feature.ts";
import { sampleFileDocs } from "./docs.ts";
import { sampleFileRoutes } from "./routes.ts";

/** The sample file preview feature. */
export const sampleFiles = defineFeature({
  name: "sample_files",
  flag: "anyFlag",
  routes: [{ path: "/api/sample-files", router: sampleFileRoutes }],
  docs: sampleFileDocs,
});
