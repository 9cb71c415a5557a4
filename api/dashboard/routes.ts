/**
 * GET /api/dashboard: one line per source of the areas the user's flags allow (issue 22;
 * docs/dashboard.md). Every signed-in user may call it; a user without flags gets no lines.
 */
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { requireUser } from "../auth/guards.ts";
import { areasFor, dashboardSummary } from "./summary.ts";

export const dashboardRoutes = new Hono<AppEnv>()
  .get("/", requireUser, async (c) => {
    return c.json(await dashboardSummary(c.var.deps, areasFor(c.var.user)));
  });
