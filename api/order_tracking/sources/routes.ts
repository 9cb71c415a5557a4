/**
 * /api/order-tracking-sources: list, read, save and delete the sources. Each route carries its own
 * orderUser guard (not `.use`), so no other router mounted near this prefix inherits it.
 */
import { Hono } from "hono";
import { sourceSaveRequest } from "../../../shared/contract/order_tracking.ts";
import { requireFlag } from "../../auth/guards.ts";
import type { AppEnv } from "../../deps.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { allowBody, FILE_BODY_LIMIT } from "../../http/body_limit.ts";
import { createWithinBound } from "../../db/row_bound.ts";
import { readUploadForm } from "../../http/multipart.ts";
import { body, idParam } from "../../http/validate.ts";
import { runImport } from "../../ingest/import_runs.ts";
import { UPLOAD_LIMITS } from "../../../shared/files/limits.ts";
import { deleteSource, findSource, listSources, saveSource } from "./queries.ts";

/** Order tracking sources not deleted count against MAX_SOURCES_PER_AREA (docs/limits.md). */
const TRACKING_SOURCE_BOUND = {
  table: "order_tracking_sources",
  counts: "not deleted_status",
  noun: "order tracking sources",
  variable: "MAX_SOURCES_PER_AREA",
};

export const orderTrackingSourceRoutes = new Hono<AppEnv>()
  .get("/active", requireFlag("orderUser"), async (c) => c.json(await listSources(c.var.deps.db)))
  .get("/get/:id", requireFlag("orderUser"), body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const source = await findSource(c.var.deps.db, id);
    if (!source) throw notFound(`Order tracking source ${id}`);
    return c.json(source);
  })
  .post("/save", requireFlag("orderUser"), body("json", sourceSaveRequest), async (c) => {
    const { db, config } = c.var.deps;
    const input = c.req.valid("json");
    const bound = (input.id ?? 0) === 0
      ? { ...TRACKING_SOURCE_BOUND, limit: config.MAX_SOURCES_PER_AREA }
      : null;
    return c.json(await createWithinBound(db, bound, (tx) => saveSource(tx, input)));
  })
  // Beyond the contract (issue 15): a file imported as if it had been mailed (the same feed and
  // run engine), for `cli orders import` and CI sample-file imports. Answers the finished run.
  .post(
    "/:id/import",
    requireFlag("orderUser"),
    allowBody(FILE_BODY_LIMIT),
    body("param", idParam),
    async (c) => {
      const { id } = c.req.valid("param");
      const { deps } = c.var;
      if (!await findSource(deps.db, id)) throw notFound(`Order tracking source ${id}`);
      const { file } = await readUploadForm(c);
      if (!file) throw badRequest("Send a file.", { file: ["Required"] });
      if (file.size === 0) throw badRequest(`The file "${file.name}" is empty.`);
      if (file.size > UPLOAD_LIMITS.maxBytes) {
        throw badRequest(`The file is larger than ${UPLOAD_LIMITS.maxBytes} bytes.`);
      }
      const run = await runImport(deps, {
        feed: "order-tracking",
        sourceId: id,
        trigger: "cli",
        fileName: file.name,
        bytes: file.bytes,
        startedBy: c.var.user.userId,
        log: [`Imported by ${c.var.user.username} over the API.`],
      });
      return c.json(run);
    },
  )
  .post("/delete/:id", requireFlag("orderUser"), body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteSource(c.var.deps.db, id)) throw notFound(`Order tracking source ${id}`);
    return c.body(null, 204);
  });
