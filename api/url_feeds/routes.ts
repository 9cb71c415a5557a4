/**
 * /api/url-feeds/{feed}/{sourceId} (beyond the spec, issue 25): read and save a source's URL feed
 * and look at the URL now. Who may call: the users of the source's feed (inventoryUser for
 * inventory, orderUser for order tracking), checked per call since the feed is in the path.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { urlFeedParams, urlFeedSave } from "../../shared/contract/url_feeds.ts";
import { requireAnyFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { body } from "../http/validate.ts";
import { feedReader, registeredFeeds } from "../ingest/feeds.ts";
import { checkUrlFeed, findUrlFeed, saveUrlFeed } from "../ingest/url_feeds.ts";

/** Refuses a user without the feed's flag, and a source the feed does not let pull from a URL. */
async function requireSource(c: Context<AppEnv>, feed: string, sourceId: number): Promise<void> {
  const reader = feedReader(feed);
  const user = c.var.user;
  if (reader === "admin" ? !user.isAdmin : !user[reader]) throw forbidden();
  const taker = registeredFeeds().find((f) => f.name === feed)?.deliveries?.url;
  const rules = taker ? await taker(c.var.deps.db) : [];
  if (!rules.some((r) => r.sourceId === sourceId)) {
    throw notFound(`Active source ${sourceId} of the ${feed} feed`);
  }
}

export const urlFeedRoutes = new Hono<AppEnv>()
  .get("/:feed/:sourceId", requireAnyFlag(), body("param", urlFeedParams), async (c) => {
    const { feed, sourceId } = c.req.valid("param");
    await requireSource(c, feed, sourceId);
    return c.json(await findUrlFeed(c.var.deps.db, feed, sourceId));
  })
  .post(
    "/:feed/:sourceId",
    requireAnyFlag(),
    body("param", urlFeedParams),
    body("json", urlFeedSave),
    async (c) => {
      const { feed, sourceId } = c.req.valid("param");
      await requireSource(c, feed, sourceId);
      const { db, secrets } = c.var.deps;
      await saveUrlFeed(db, secrets, feed, sourceId, c.req.valid("json"));
      return c.json(await findUrlFeed(db, feed, sourceId));
    },
  )
  .post("/:feed/:sourceId/check", requireAnyFlag(), body("param", urlFeedParams), async (c) => {
    const { feed, sourceId } = c.req.valid("param");
    await requireSource(c, feed, sourceId);
    return c.json(await checkUrlFeed(c.var.deps, feed, sourceId));
  });
