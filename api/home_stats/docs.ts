/** The OpenAPI description of the home page statistics (spec part 1, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { updateStatsRow } from "../../shared/contract/home_stats.ts";

export const homeStatsDocs = routeDocs([
  {
    method: "GET",
    path: "/api/order-tracking/list/update-stats",
    summary: "Orders updated and deleted in the past 24 hours, per source",
    response: z.array(updateStatsRow),
    description: "Spec part 1, section 7.",
  },
]);
