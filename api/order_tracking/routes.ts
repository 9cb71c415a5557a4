/**
 * /api/order-tracking: the order list search, one order, notes, delete (orderUser only). Guards
 * sit on each route rather than `.use`: the home stats route mounted under this prefix
 * (api/home_stats) keeps its own, open to every user.
 */
import { Hono } from "hono";
import {
  noteRequest,
  orderListRequest,
  type OrderListResult,
} from "../../shared/contract/order_tracking.ts";
import { requireFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { notFound } from "../http/errors.ts";
import { body, idParam } from "../http/validate.ts";
import { jsonText } from "../http/json_text.ts";
import { deleteOrder, findOrder, saveNote } from "./queries.ts";
import { searchOrdersJson } from "./search.ts";

const orderUser = requireFlag("orderUser");

export const orderTrackingRoutes = new Hono<AppEnv>()
  .post("/list", orderUser, body("json", orderListRequest), async (c) => {
    // A client that goes away (a newer search replaced this one) skips the statements not begun.
    const db = c.var.deps.db;
    const answer = await searchOrdersJson(db, c.req.valid("json"), undefined, c.req.raw.signal);
    return jsonText<OrderListResult>(c, answer);
  })
  .get("/order/:id", orderUser, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const order = await findOrder(c.var.deps.db, id);
    if (!order) throw notFound(`Order ${id}`);
    return c.json(order);
  })
  .post("/notes", orderUser, body("json", noteRequest), async (c) => {
    const { orderId, note } = c.req.valid("json");
    if (!await saveNote(c.var.deps.db, orderId, note)) throw notFound(`Order ${orderId}`);
    return c.json({ orderId, note: note || null });
  })
  .post("/delete/:id", orderUser, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteOrder(c.var.deps.db, id)) throw notFound(`Order ${id}`);
    return c.body(null, 204);
  });
