/**
 * GET /api/order-tracking/list/update-stats: per order tracking source, the orders updated and
 * deleted in the past 24 hours (the home page). Every logged-in user may read it.
 *
 * Until the order tracking feed exists there are no sources, so the answer is an empty array; the
 * order tracking feed replaces `updateStats` with its query over order_tracking_sources and orders.
 */
import { Hono } from "hono";
import type { UpdateStatsRow } from "../../../shared/contract/home_stats.ts";
import type { AppEnv } from "../../deps.ts";
import type { Db } from "../../db/client.ts";
import { requireUser } from "../../auth/guards.ts";

/** The home page rows; filled in by the order tracking feed. */
export function updateStats(_db: Db): Promise<UpdateStatsRow[]> {
  return Promise.resolve([]);
}

export const homeStatsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => c.json(await updateStats(c.var.deps.db)));
