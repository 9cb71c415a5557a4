/**
 * Order tracking (spec part 1): the order list and details (`/api/order-tracking`), its sources
 * (`/api/order-tracking-sources`), the feed that imports order files, the daily deletion of
 * orders no file lists any more, and the home page's update statistics.
 */
import { defineFeature } from "../feature.ts";
import { orderTrackingDocs } from "./docs.ts";
import {
  DELETE_STALE_ORDERS_JOB,
  deleteStaleOrdersJob,
  deleteStaleOrdersSchedule,
} from "./feed/deletion_job.ts";
import { orderTrackingFeed } from "./feed/feed.ts";
import { ANALYZE_ORDERS_JOB, analyzeOrdersJob } from "./feed/statistics_job.ts";
import { orderUpdateStats } from "./queries.ts";
import { orderTrackingRoutes } from "./routes.ts";
import { orderTrackingSourceRoutes } from "./sources/routes.ts";

/** The order tracking feature. */
export const orderTracking = defineFeature({
  name: "order_tracking",
  flag: "orderUser",
  routes: [
    { path: "/api/order-tracking", router: orderTrackingRoutes },
    { path: "/api/order-tracking-sources", router: orderTrackingSourceRoutes },
  ],
  feed: orderTrackingFeed,
  jobHandlers: {
    [DELETE_STALE_ORDERS_JOB]: deleteStaleOrdersJob,
    [ANALYZE_ORDERS_JOB]: analyzeOrdersJob,
  },
  scheduleSources: [deleteStaleOrdersSchedule],
  homeStats: (db) => orderUpdateStats(db),
  docs: orderTrackingDocs,
});
