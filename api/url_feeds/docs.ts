/** The OpenAPI descriptions of /api/url-feeds (issue 25, docs/url_feeds.md; not in the spec). */
import { routeDocs } from "../http/route_docs.ts";
import { urlFeedCheckResult, urlFeedSchema } from "../../shared/contract/url_feeds.ts";

const WHO = "The feed's users: inventoryUser for `inventory`, orderUser for `order-tracking`.";

export const urlFeedDocs = routeDocs([
  {
    method: "GET",
    path: "/api/url-feeds/:feed/:sourceId",
    summary: 'A source\'s URL feed and its last look (url "" when it has none)',
    response: urlFeedSchema,
    description: `${WHO} The stored password or token reads as the placeholder.`,
    access: "anyFlag",
  },
  {
    method: "POST",
    path: "/api/url-feeds/:feed/:sourceId",
    summary: 'Save (url "" removes) a source\'s URL feed; the placeholder keeps the stored secret',
    response: urlFeedSchema,
    description:
      `${WHO} https only; an interval in minutes or a five-field cron expression (UTC). ` +
      "A kept secret may not follow a changed URL origin, authentication or user name (400).",
    access: "anyFlag",
  },
  {
    method: "POST",
    path: "/api/url-feeds/:feed/:sourceId/check",
    summary: "Look at the URL now: a new file becomes an import run",
    response: urlFeedCheckResult,
    description: WHO,
    access: "anyFlag",
  },
]);
