/** The OpenAPI description of /api/activity (beyond the spec: issue 23, docs/activity.md). */
import { routeDocs } from "../http/route_docs.ts";
import { activityPage } from "../../shared/contract/activity.ts";

export const activityDocs = routeDocs([
  {
    method: "GET",
    path: "/api/activity",
    summary: "The activity log: who changed what, and sign-ins, newest first",
    description: "Filters: user (username), action, entityType, entityId, from and to (a date " +
      "or a time; a date `to` includes the whole day); page (from 1) and pageSize (at most " +
      "200). Secrets never appear: a changed password is listed as changed, without values.",
    response: activityPage,
    access: "admin",
  },
]);
