/**
 * URL feeds (issue 25, docs/url_feeds.md): inventory and order tracking sources that pull their
 * file from an HTTPS URL on a schedule. The mechanism is in `api/ingest/url_feeds.ts`; this area
 * holds its routes, its job and its schedules. It serves every feed whose `deliveries.url` says
 * which sources may pull, so it imports no other area.
 */
import { defineFeature } from "../feature.ts";
import { urlFeedDocs } from "./docs.ts";
import { URL_FEED_PULL_JOB, urlFeedPullJob, urlFeedScheduleSource } from "./jobs.ts";
import { urlFeedRoutes } from "./routes.ts";

/** Its callers need the flag of the feed they name (checked per call). */
export const urlFeeds = defineFeature({
  name: "url_feeds",
  flag: "anyFlag",
  routes: [{ path: "/api/url-feeds", router: urlFeedRoutes }],
  jobHandlers: { [URL_FEED_PULL_JOB]: urlFeedPullJob },
  scheduleSources: [urlFeedScheduleSource],
  docs: urlFeedDocs,
});
