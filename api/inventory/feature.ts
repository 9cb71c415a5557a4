/**
 * The inventory feature area (DESIGN.md section 4): its router, feed, job handlers and schedule
 * sources, and `registerInventory()` which hands them to today's registries.
 */
import { registerFeed } from "../ingest/feeds.ts";
import { registerJobHandler, registerScheduleSource } from "../jobs/handlers.ts";
import { inventoryFeed } from "./feed.ts";
import { inventoryJobHandlers, inventorySchedules } from "./jobs.ts";
import { inventoryRoutes } from "./routes.ts";

/** The feature object (the feature list of the restructured api/ picks it up). */
export const inventoryFeature = {
  name: "inventory",
  flag: "inventoryUser",
  mountPath: "/api/inventory-sources",
  routes: inventoryRoutes,
  feed: inventoryFeed,
  jobHandlers: inventoryJobHandlers,
  scheduleSources: [inventorySchedules],
} as const;

let registered = false;

/** Registers the feed, job handlers and schedule sources once (at module load of the app). */
export function registerInventory(): void {
  if (registered) return;
  registered = true;
  registerFeed(inventoryFeature.feed);
  for (const [kind, handler] of Object.entries(inventoryFeature.jobHandlers)) {
    registerJobHandler(kind, handler);
  }
  for (const source of inventoryFeature.scheduleSources) registerScheduleSource(source);
}

// Registration happens when the feature is imported (by api/app.ts), like the other feeds.
registerInventory();
