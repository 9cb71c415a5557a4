/** GET /health: the process answers and the database answers. */
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  await c.var.deps.db.query("select 1");
  return c.json({ status: "ok" });
});
