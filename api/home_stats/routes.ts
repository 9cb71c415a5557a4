/**
 * GET /api/order-tracking/list/update-stats: per order tracking source, the orders updated and
 * deleted in the past 24 hours (the home page). Every logged-in user may read it.
 * Each feature with a `homeStats` contributes its rows (order tracking: `orderUpdateStats`).
 */
import { Hono } from "hono";
import type { UpdateStatsRow } from "../../shared/contract/home_stats.ts";
import type { AppEnv } from "../deps.ts";
import type { Db } from "../db/client.ts";
import { requireUser } from "../auth/guards.ts";
import { homeStatsSources } from "../feature.ts";

/** The home page rows: every feature's, in the feature list's order. */
export async function updateStats(db: Db): Promise<UpdateStatsRow[]> {
  const lists = await Promise.all(homeStatsSources().map((source) => source(db)));
  return lists.flat();
}

export const homeStatsRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => c.json(await updateStats(c.var.deps.db)));
