/**
 * Home statistics: the home page's rows, gathered from every feature's `homeStats`. Listed before
 * order tracking, whose prefix its path shares (the first mount that answers wins).
 */
import { defineFeature } from "../feature.ts";
import { homeStatsDocs } from "./docs.ts";
import { homeStatsRoutes } from "./routes.ts";

/** The home statistics feature. */
export const homeStats = defineFeature({
  name: "home_stats",
  flag: "any",
  routes: [{ path: "/api/order-tracking/list/update-stats", router: homeStatsRoutes }],
  docs: homeStatsDocs,
});
