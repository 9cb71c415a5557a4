/**
 * Calls of /api/url-feeds (docs/url_feeds.md): a source's URL feed, its save and "Check now".
 * Used by the inventory and order tracking source pages (no pages of its own).
 */
import type {
  UrlFeed,
  UrlFeedCheckResult,
  UrlFeedFeed,
  UrlFeedSaveInput,
} from "../../../../shared/contract/url_feeds.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";
import type { UrlFeedCalls } from "../../components/url_feed_section.tsx";

export type { UrlFeed, UrlFeedCheckResult, UrlFeedFeed, UrlFeedSaveInput };

const feeds = api.api["url-feeds"];
const param = (feed: UrlFeedFeed, sourceId: number) => ({ feed, sourceId: String(sourceId) });

/** GET /api/url-feeds/{feed}/{sourceId}. */
export function fetchUrlFeed(
  feed: UrlFeedFeed,
  sourceId: number,
  signal?: AbortSignal,
): Promise<UrlFeed> {
  return call(feeds[":feed"][":sourceId"].$get(
    { param: param(feed, sourceId) },
    { init: { signal } },
  )) as Promise<UrlFeed>;
}

/** POST /api/url-feeds/{feed}/{sourceId}: answers the saved feed. */
export function saveUrlFeed(
  feed: UrlFeedFeed,
  sourceId: number,
  payload: UrlFeedSaveInput,
): Promise<UrlFeed> {
  return call(feeds[":feed"][":sourceId"].$post({
    param: param(feed, sourceId),
    // deno-lint-ignore no-explicit-any
    json: payload as any,
  })) as Promise<UrlFeed>;
}

/** POST /api/url-feeds/{feed}/{sourceId}/check: one look now. */
export function checkUrlFeedNow(feed: UrlFeedFeed, sourceId: number): Promise<UrlFeedCheckResult> {
  return call(
    feeds[":feed"][":sourceId"].check.$post({ param: param(feed, sourceId) }),
  ) as Promise<UrlFeedCheckResult>;
}

/** The section's calls bound to one feed (a module constant of the page, so it stays stable). */
export function urlFeedCalls(feed: UrlFeedFeed): UrlFeedCalls {
  return {
    load: (sourceId, signal) => fetchUrlFeed(feed, sourceId, signal),
    save: (sourceId, payload) => saveUrlFeed(feed, sourceId, payload),
    check: (sourceId) => checkUrlFeedNow(feed, sourceId),
  };
}
