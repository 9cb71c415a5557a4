/**
 * The item view's calls under /api/inventory-sources (issue 23, docs/inventory.md "Items"):
 * a source's items, one item, and what a run changed. Every route needs inventoryUser.
 */
import { Hono } from "hono";
import { z } from "zod";
import { requireFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { body, idParam } from "../http/validate.ts";
import { dbId } from "../../shared/contract/fields.ts";
import {
  itemListQuery,
  itemParam,
  runChangesQuery,
} from "../../shared/contract/inventory_items.ts";
import { itemDetail, listItems, runChanges } from "./items.ts";

const guard = requireFlag("inventoryUser");

export const inventoryItemRoutes = new Hono<AppEnv>()
  .get(
    "/inventory/:id/items",
    guard,
    body("param", idParam),
    body("query", itemListQuery),
    async (c) => {
      const query = c.req.valid("query");
      return c.json(await listItems(c.var.deps.db, c.req.valid("param").id, query));
    },
  )
  .get("/inventory/:id/items/:item", guard, body("param", itemParam), async (c) => {
    const { id, item } = c.req.valid("param");
    return c.json(await itemDetail(c.var.deps.db, id, item));
  })
  .get(
    "/runs/:runId/items",
    guard,
    body("param", z.object({ runId: dbId })),
    body("query", runChangesQuery),
    async (c) => {
      const { runId } = c.req.valid("param");
      return c.json(await runChanges(c.var.deps.db, runId, c.req.valid("query")));
    },
  );
