/** The OpenAPI description of /api/runs, the run history (beyond the spec: issue 22, docs/runs.md). */
import { routeDocs } from "../http/route_docs.ts";
import { runDetails, runList, runSeries, runSources } from "../../shared/contract/runs.ts";

export const runsDocs = routeDocs([
  {
    method: "GET",
    path: "/api/runs",
    summary: "The run history of the caller's areas, newest first, in words",
    description: "Filters: area (order-tracking, inventory, order-submission, vendor-sends), " +
      "sourceId (with area), state (succeeded, row-errors, failed, held, running), from and to " +
      "(a date or a time; a date `to` includes the whole day), limit (at most 500). Vendor " +
      "e-mails are listed with kind `send`. An area the caller's flags do not include is 403.",
    response: runList,
    access: "anyFlag",
  },
  {
    method: "GET",
    path: "/api/runs/daily",
    summary: "Runs per day by state, rows per day, and orders or e-mails per day where they apply",
    description: "The last `days` UTC days (30 unless told, at most 90), oldest first, today " +
      "included, for the caller's areas or one area (and one source). newOrders/updatedOrders " +
      "come with order tracking, emailsSent with vendor e-mails.",
    response: runSeries,
    access: "anyFlag",
  },
  {
    method: "GET",
    path: "/api/runs/sources",
    summary: "The sources and vendors of the caller's areas, for the history's Source filter",
    response: runSources,
    access: "anyFlag",
  },
  {
    method: "GET",
    path: "/api/runs/:id",
    summary: "One import run in words: result, row errors grouped by reason, log",
    description: "canRelease is true for a held inventory run when the caller has the " +
      "inventory flag (release with POST /api/inventory-sources/runs/{id}/release).",
    response: runDetails,
    access: "anyFlag",
  },
]);
