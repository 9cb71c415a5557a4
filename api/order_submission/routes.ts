/**
 * /api/order-submission: order submission sources and vendor sources (spec part 2, section 7).
 * Each route carries its own submissionUser guard (not `.use`), so no router mounted near this
 * prefix inherits it.
 */
import { allowBody, FILE_BODY_LIMIT } from "../http/body_limit.ts";
import { Hono } from "hono";
import {
  orderSubmissionSourceSave,
  orderVendorSourceSave,
} from "../../shared/contract/order_submission.ts";
import { requireFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { createWithinBound } from "../db/row_bound.ts";
import { notFound } from "../http/errors.ts";
import { body, idParam } from "../http/validate.ts";
import {
  deleteSubmissionSource,
  deleteVendor,
  deleteVendorAlias,
  findSubmissionSource,
  findVendor,
  listSubmissionSources,
  listVendors,
  saveSubmissionSource,
  saveVendor,
  submissionSourcePicker,
} from "./queries.ts";

const guard = requireFlag("submissionUser");

/** Submission sources not deleted count against MAX_SOURCES_PER_AREA (docs/limits.md). */
const SUBMISSION_SOURCE_BOUND = {
  table: "order_submission_sources",
  counts: "not deleted_status",
  noun: "order submission sources",
  variable: "MAX_SOURCES_PER_AREA",
};
/** Vendors not deleted, of every submission source, count against MAX_VENDORS. */
const VENDOR_BOUND = {
  table: "vendor_sources",
  counts: "not deleted_status",
  noun: "vendors",
  variable: "MAX_VENDORS",
};

export const orderSubmissionRoutes = new Hono<AppEnv>()
  .get("/sources/active", guard, async (c) => c.json(await listSubmissionSources(c.var.deps.db)))
  .get("/sources/get/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const source = await findSubmissionSource(c.var.deps.db, id);
    if (!source) throw notFound(`Order submission source ${id}`);
    return c.json(source);
  })
  .post("/sources/save", guard, body("json", orderSubmissionSourceSave), async (c) => {
    const { db, config } = c.var.deps;
    const input = c.req.valid("json");
    const bound = input.id === 0
      ? { ...SUBMISSION_SOURCE_BOUND, limit: config.MAX_SOURCES_PER_AREA }
      : null;
    return c.json(await createWithinBound(db, bound, (tx) => saveSubmissionSource(tx, input)));
  })
  .post("/sources/delete/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteSubmissionSource(c.var.deps.db, id)) {
      throw notFound(`Order submission source ${id}`);
    }
    return c.body(null, 204);
  })
  .get("/order-submission-list", guard, async (c) => {
    return c.json(await submissionSourcePicker(c.var.deps.db));
  })
  .get("/vendor/active", guard, async (c) => c.json(await listVendors(c.var.deps.db)))
  .get("/vendor/get/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const vendor = await findVendor(c.var.deps.db, id);
    if (!vendor) throw notFound(`Vendor source ${id}`);
    return c.json(vendor);
  })
  .post(
    "/vendor/save",
    guard,
    // The form sends the new template and echoes the stored one: room for both.
    allowBody(2 * FILE_BODY_LIMIT),
    body("json", orderVendorSourceSave),
    async (c) => {
      const { db, config } = c.var.deps;
      const input = c.req.valid("json");
      const bound = input.id === 0 ? { ...VENDOR_BOUND, limit: config.MAX_VENDORS } : null;
      return c.json(await createWithinBound(db, bound, (tx) => saveVendor(tx, input)));
    },
  )
  .post("/vendor/delete/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteVendor(c.var.deps.db, id)) throw notFound(`Vendor source ${id}`);
    return c.body(null, 204);
  })
  .post("/vendor/alias/delete/:id", guard, body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    if (!await deleteVendorAlias(c.var.deps.db, id)) throw notFound(`Vendor alias ${id}`);
    return c.body(null, 204);
  });
