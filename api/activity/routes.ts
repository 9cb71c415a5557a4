/** GET /api/activity: the activity log, for Admin (docs/activity.md). */
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import { requireAdmin } from "../auth/guards.ts";
import { body } from "../http/validate.ts";
import { activityQuery } from "../../shared/contract/activity.ts";
import { listActivity } from "./queries.ts";

export const activityRoutes = new Hono<AppEnv>()
  .get("/", requireAdmin, body("query", activityQuery), async (c) => {
    return c.json(await listActivity(c.var.deps.db, c.req.valid("query")));
  });
