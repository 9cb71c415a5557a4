/**
 * /api/order-tracking-sources: list, read, save and delete the sources. Each route carries its own
 * orderUser guard (not `.use`), so no other router mounted near this prefix inherits it.
 */
import { Hono } from "hono";
import { sourceSaveRequest } from "../../../shared/contract/order_tracking.ts";
import { requireFlag } from "../../auth/guards.ts";
import type { AppEnv } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { body, idParam } from "../../http/validate.ts";
import { deleteSource, findSource, listSources, saveSource } from "./queries.ts";

export const orderTrackingSourceRoutes = new Hono<AppEnv>()
  .get("/active", requireFlag("orderUser"), async (c) => c.json(await listSources(c.var.deps.db)))
  .get("/get/:id", requireFlag("orderUser"), body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const source = await findSource(c.var.deps.db, id);
    if (!source) throw notFound(`Order tracking source ${id}`);
    return c.json(source);
  })
  .post("/save", requireFlag("orderUser"), body("json", sourceSaveRequest), async (c) => {
    return c.json(await saveSource(c.var.deps.db, c.req.valid("json")));
  })
  .post("/delete/:id", requireFlag("orderUser"), body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteSource(c.var.deps.db, id)) throw notFound(`Order tracking source ${id}`);
    return c.body(null, 204);
  });
