/**
 * The run history (docs/runs.md): GET /api/runs (filters in the query string), /api/runs/daily
 * (the per-day series of the charts) and /api/runs/{id} (one import run in words). Each caller
 * sees the areas of their flags; an Admin sees all of them, as with the import runs. Download,
 * Re-run and Release stay the existing calls (/api/import-runs/{id}/file and /rerun,
 * /api/inventory-sources/runs/{id}/release), so their checks and activity entries are theirs.
 */
import { Hono } from "hono";
import type { AppEnv } from "../deps.ts";
import type { SessionUser } from "../auth/sessions.ts";
import { requireUser } from "../auth/guards.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { body, idParam } from "../http/validate.ts";
import {
  RUN_AREA_KEYS,
  RUN_AREAS,
  type RunArea,
  runSeriesQuery,
  runsQuery,
} from "../../shared/contract/runs.ts";
import { findRunDetails, listRunHistory, listRunSources, runSeriesOf } from "./queries.ts";

/** The areas a user's flags open (docs/runs.md): Admin sees every area. */
export function areasOf(user: SessionUser): RunArea[] {
  return RUN_AREA_KEYS.filter((area) => user.isAdmin || user[RUN_AREAS[area].flag]);
}

/** The areas asked for, narrowed to the user's; one the user does not have is refused. */
function askedAreas(user: SessionUser, area: RunArea | undefined): RunArea[] {
  const mine = areasOf(user);
  if (area && !mine.includes(area)) throw forbidden();
  if (!mine.length) throw forbidden();
  return area ? [area] : mine;
}

export const runRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", body("query", runsQuery), async (c) => {
    const { area, ...rest } = c.req.valid("query");
    const areas = askedAreas(c.var.user, area);
    // A source id means something only within its area.
    const sourceId = area ? rest.sourceId : undefined;
    return c.json({ runs: await listRunHistory(c.var.deps.db, { ...rest, areas, sourceId }) });
  })
  .get("/daily", body("query", runSeriesQuery), async (c) => {
    const { area, sourceId, days } = c.req.valid("query");
    const areas = askedAreas(c.var.user, area);
    return c.json(
      await runSeriesOf(c.var.deps.db, { areas, sourceId: area ? sourceId : undefined, days }),
    );
  })
  .get("/sources", async (c) => {
    return c.json(await listRunSources(c.var.deps.db, askedAreas(c.var.user, undefined)));
  })
  .get("/:id", body("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const user = c.var.user;
    const run = await findRunDetails(c.var.deps.db, id);
    if (!run) throw notFound(`Run ${id}`);
    if (!areasOf(user).includes(run.area)) {
      // A run of a feed outside the history's areas (a test feed): Admin only, like import runs.
      throw user.isAdmin ? notFound(`Run ${id}`) : forbidden();
    }
    const canRelease = run.area === "inventory" && run.state === "held" && user.inventoryUser;
    return c.json({ ...run, canRelease });
  });
