/**
 * GET /api/order-tracking/list/update-stats: per order tracking source, the orders updated and
 * deleted in the past 24 hours (the home page). Every logged-in user may read it.
 * The counting lives with the order tracking queries (`orderUpdateStats`).
 */
import { Hono } from "hono";
import type { UpdateStatsRow } from "../../shared/contract/home_stats.ts";
import type { AppEnv } from "../deps.ts";
import type { Db } from "../db/client.ts";
import { requireUser } from "../auth/guards.ts";
import { orderUpdateStats } from "../order_tracking/queries.ts";

/** The home page rows: one per live order tracking source. */
export function updateStats(db: Db): Promise<UpdateStatsRow[]> {
  return orderUpdateStats(db);
}

export const homeStatsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => c.json(await updateStats(c.var.deps.db)));
