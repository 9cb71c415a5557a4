import { Redirect } from "wouter";

// The feeds of the old page's `feed` filter are the run history's areas of the same name.
const AREAS = new Set(["order-tracking", "inventory", "order-submission"]);

/**
 * /import-runs?feed=&sourceId=: replaced by the run history (/runs); a feed and source filter
 * the old address carried is kept (a source id means something only with its area).
 */
export default function ImportRunsRedirect() {
  const old = new URLSearchParams(location.search);
  const next = new URLSearchParams();
  const feed = old.get("feed");
  if (feed && AREAS.has(feed)) {
    next.set("area", feed);
    const sourceId = old.get("sourceId");
    if (sourceId) next.set("sourceId", sourceId);
  }
  const query = next.toString();
  return <Redirect to={query ? `/runs?${query}` : "/runs"} replace />;
}
