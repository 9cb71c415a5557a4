/**
 * The URL feeds' recurring work (docs/url_feeds.md, docs/jobs.md): one schedule per URL feed of
 * an active source, `url-feed-pull:<feed>:<sourceId>`, every the feed's interval; a feed on a cron
 * expression is looked at every minute and fetches when the expression's next time has come. The
 * job queue's lease and the schedule's dedupe key make several worker processes fetch once.
 */
import type { Deps } from "../deps.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import type { Job } from "../jobs/queue.ts";
import { type Schedule, syncSchedules } from "../jobs/schedules.ts";
import { registeredFeeds } from "../ingest/feeds.ts";
import {
  activeUrlFeeds,
  checkUrlFeed,
  urlFeedDue,
  type UrlFeedEntry,
} from "../ingest/url_feeds.ts";

export const URL_FEED_PULL_JOB = "url-feed-pull";

/** How often a cron-scheduled feed's expression is looked at. */
const CRON_TICK_SECONDS = 60;

/**
 * The pull schedules of the given feeds.
 *
 * @example
 * ```ts
 * import { urlFeedSchedules } from "./jobs.ts";
 * const [s] = urlFeedSchedules([{ feed: "inventory", sourceId: 4, everySeconds: 900, cron: null }]);
 * console.assert(s.name === "url-feed-pull:inventory:4" && s.everySeconds === 900);
 * ```
 */
export function urlFeedSchedules(feeds: UrlFeedEntry[]): Schedule[] {
  return feeds.map((f) => ({
    name: `${URL_FEED_PULL_JOB}:${f.feed}:${f.sourceId}`,
    kind: URL_FEED_PULL_JOB,
    payload: { feed: f.feed, sourceId: f.sourceId },
    everySeconds: f.cron ? CRON_TICK_SECONDS : f.everySeconds ?? CRON_TICK_SECONDS,
  }));
}

/** Brings the pull schedules in line with the URL feeds of active sources. */
export async function urlFeedScheduleSource(deps: Deps): Promise<void> {
  const feeds = registeredFeeds().filter((f) => f.deliveries?.url).map((f) => f.name);
  await syncSchedules(
    deps.db,
    URL_FEED_PULL_JOB,
    urlFeedSchedules(await activeUrlFeeds(deps.db, feeds)),
  );
}

/** One look at one feed's URL (the outcome is recorded on the feed, not thrown). */
export const urlFeedPullJob: JobHandler = {
  async run(deps: Deps, job: Job) {
    const feed = String(job.payload.feed);
    const sourceId = Number(job.payload.sourceId);
    if (!await urlFeedDue(deps.db, feed, sourceId, new Date())) return;
    await checkUrlFeed(deps, feed, sourceId);
  },
};
