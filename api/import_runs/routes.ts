/**
 * Import history (beyond the contract): the runs of a feed's source, one run with its row errors
 * and log, its stored file, and a re-run from that file. Each call needs the flag of the feature
 * whose feed made the run (`Feature.flag`, registered by `registerFeatures`).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../deps.ts";
import type { SessionUser } from "../auth/sessions.ts";
import { requireUser } from "../auth/guards.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { body, idParam } from "../http/validate.ts";
import { boundedString, dbId, MAX_LENGTH } from "../../shared/contract/fields.ts";
import { getRun, listRuns, rerunImport, runFile } from "../ingest/import_runs.ts";
import { feedReader, registeredFeeds } from "../ingest/feeds.ts";

/** Who may see the runs of each feed (docs/design.md section 8): its feature's flag; else Admin only. */
function mayReadFeed(user: SessionUser, feed: string): boolean {
  const reader = feedReader(feed);
  return reader === "admin" ? user.isAdmin : user[reader];
}

const listQuery = z.object({
  feed: boundedString(MAX_LENGTH.name).trim().min(1).optional(),
  sourceId: dbId.min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

async function runForUser(c: { var: AppEnv["Variables"] }, id: number) {
  const run = await getRun(c.var.deps.db, id).catch(() => null);
  if (!run) throw notFound(`Import run ${id}`);
  if (!mayReadFeed(c.var.user, run.feed)) throw forbidden();
  return run;
}

export const importRunRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", body("query", listQuery), async (c) => {
    const { feed, sourceId, limit } = c.req.valid("query");
    const user = c.var.user;
    if (feed && !mayReadFeed(user, feed)) throw forbidden();
    // Admin sees every feed's runs (test feeds too); others those of their flags.
    const feeds = feed
      ? [feed]
      : user.isAdmin
      ? null
      : registeredFeeds().map((f) => f.name).filter((f) => mayReadFeed(user, f));
    if (feeds && !feeds.length) throw forbidden();
    return c.json(await listRuns(c.var.deps.db, { feeds, sourceId, limit }));
  })
  .get("/:id", body("param", idParam), async (c) => {
    return c.json(await runForUser(c, c.req.valid("param").id));
  })
  .get("/:id/file", body("param", idParam), async (c) => {
    const run = await runForUser(c, c.req.valid("param").id);
    const file = await runFile(c.var.deps.db, run.id);
    if (!file) throw notFound(`The file of import run ${run.id}`);
    const name = run.fileName.replace(/[^\w.\- ]/g, "_") || `import-run-${run.id}`;
    return c.body(file, 200, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${name}"`,
    });
  })
  .post("/:id/rerun", body("param", idParam), async (c) => {
    const run = await runForUser(c, c.req.valid("param").id);
    if (run.fileSize === null) {
      throw badRequest(`Import run ${run.id} has no stored file to run again.`);
    }
    return c.json(await rerunImport(c.var.deps, run.id, c.var.user.userId));
  });
