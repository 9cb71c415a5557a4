/** The OpenAPI description of the dashboard (issue 22; docs/dashboard.md). */
import { routeDocs } from "../http/route_docs.ts";
import { dashboardAnswer } from "../../shared/contract/dashboard.ts";

export const dashboardDocs = routeDocs([
  {
    method: "GET",
    path: "/api/dashboard",
    summary: "Every source's state, last file, last result and next check, most urgent first",
    description: "One line per order tracking, inventory and order submission source, vendor " +
      "and mailbox, only of the areas the user's flags allow (mailboxes: any flag). States: " +
      "failing, held, stale (nothing for longer than the alert window), ok, inactive; failing, " +
      "held and stale first. Reads maintained state only: its cost grows with the number of " +
      "sources, not with orders or runs.",
    response: dashboardAnswer,
    access: "any",
  },
]);
