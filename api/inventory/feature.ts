/**
 * The inventory feature area: sources and manual processing (`/api/inventory-sources`), the
 * inventory feed (mail, SFTP pull, upload), deliveries, the guard and the no-file alerts
 * (docs/inventory.md).
 */
import { defineFeature } from "../feature.ts";
import { inventoryDocs } from "./docs.ts";
import { inventoryFeed } from "./feed.ts";
import { inventoryJobHandlers, inventorySchedules } from "./jobs.ts";
import { inventoryRoutes } from "./routes.ts";
import { inventoryItemRoutes } from "./items_routes.ts";

/** Its users, and the readers of its import runs, need inventoryUser. */
export const inventory = defineFeature({
  name: "inventory",
  flag: "inventoryUser",
  routes: [
    { path: "/api/inventory-sources", router: inventoryRoutes },
    // The item view (issue 23): its own router, under the same prefix.
    { path: "/api/inventory-sources", router: inventoryItemRoutes },
  ],
  feed: inventoryFeed,
  jobHandlers: inventoryJobHandlers,
  scheduleSources: [inventorySchedules],
  docs: inventoryDocs,
});
