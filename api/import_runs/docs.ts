/** The OpenAPI descriptions of the import history (beyond the contract). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { importRunDetails, importRunSummary } from "../../shared/contract/email_sources.ts";

export const importRunsDocs = routeDocs([
  {
    method: "GET",
    path: "/api/import-runs",
    summary: "Import runs of the feeds the caller may read, newest first",
    response: z.array(importRunSummary),
  },
  {
    method: "GET",
    path: "/api/import-runs/:id",
    summary: "One import run with its row errors and log",
    response: importRunDetails,
  },
  {
    method: "GET",
    path: "/api/import-runs/:id/file",
    summary: "The stored file of an import run",
    response: "file",
  },
  {
    method: "POST",
    path: "/api/import-runs/:id/rerun",
    summary: "Run the stored file again as a new run",
    response: importRunDetails,
  },
]);
