/**
 * URL feeds (issue 25, docs/url_feeds.md): a source of the inventory or order tracking feed pulls
 * its file from an HTTPS URL on a schedule. Not in the spec: these fields sit beside the spec's
 * source forms, under their own heading, and are saved by their own call.
 */
import { z } from "zod";
import { boundedString, MAX_LENGTH } from "./fields.ts";
import { cronError } from "../cron.ts";

/** The feeds whose sources may pull from a URL (the `feed` path parameter). */
export const URL_FEED_FEEDS = ["inventory", "order-tracking"] as const;
export type UrlFeedFeed = (typeof URL_FEED_FEEDS)[number];

/** How the request authenticates: nothing, HTTP basic auth, or one header carrying a token. */
export const URL_FEED_AUTH = ["none", "basic", "header"] as const;
export type UrlFeedAuth = (typeof URL_FEED_AUTH)[number];

/** The longest URL stored. */
export const URL_MAX_LENGTH = 2000;

/** The visible labels of the form's fields (also the browser tests' handles). */
export const URL_FEED_LABELS = {
  url: "Feed URL",
  everyMinutes: "Fetch Every (minutes)",
  cron: "Or Cron Schedule (UTC)",
  authKind: "URL Authentication",
  username: "URL Username",
  headerName: "Token Header Name",
  secret: "URL Password or Token",
} as const;

/** Why a feed URL is refused, or null: https only, no credentials inside it. */
export function feedUrlError(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL starting with https://";
  }
  if (url.protocol !== "https:") return "Only https:// URLs are fetched";
  if (url.username || url.password) {
    return "Put the user name and password in the authentication fields, not in the URL";
  }
  return null;
}

const minutes = z.preprocess(
  (value) => {
    if (value === "" || value === null || value === undefined) return null;
    if (typeof value === "string" && /^\s*\d+\s*$/.test(value)) return Number(value);
    return value;
  },
  z.number({ error: "Fetch every must be a whole number of minutes" })
    .int("Fetch every must be a whole number of minutes")
    .min(1, "Fetch every must be at least 1 minute")
    .max(10_080, "Fetch every must be at most 10080 minutes (a week)")
    .nullable(),
);

/**
 * POST /api/url-feeds/{feed}/{sourceId}: the source's URL feed. An empty `url` removes it. The
 * stored secret shows as the placeholder; sending it back keeps the secret (bound to the URL's
 * origin, the authentication kind, user name and header name).
 */
export const urlFeedSave = z.object({
  url: boundedString(URL_MAX_LENGTH).trim(),
  everyMinutes: minutes,
  cron: boundedString(100).trim().nullish().transform((v) => v ?? ""),
  authKind: z.enum(URL_FEED_AUTH).default("none"),
  username: boundedString(MAX_LENGTH.name).trim().nullish().transform((v) => v ?? ""),
  headerName: boundedString(MAX_LENGTH.name).trim().nullish().transform((v) => v ?? ""),
  secret: z.string().max(MAX_LENGTH.secret, `Use at most ${MAX_LENGTH.secret} characters`)
    .nullish().transform((v) => v ?? ""),
}).superRefine((value, ctx) => {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [path], message });
  if (value.url === "") return;
  const urlError = feedUrlError(value.url);
  if (urlError) issue("url", urlError);
  if (value.everyMinutes === null && value.cron === "") {
    issue("everyMinutes", "Give an interval in minutes or a cron schedule");
  }
  if (value.everyMinutes !== null && value.cron !== "") {
    issue("cron", "Give either an interval or a cron schedule, not both");
  }
  if (value.cron !== "") {
    const error = cronError(value.cron);
    if (error) issue("cron", error);
  }
  if (value.authKind === "basic" && value.username === "") {
    issue("username", "URL username is required for basic authentication");
  }
  if (value.authKind === "header") {
    if (value.headerName === "") issue("headerName", "Token header name is required");
    else if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value.headerName)) {
      issue("headerName", "A header name has letters, digits and - only");
    }
  }
  if (value.authKind !== "none" && value.secret === "") {
    issue("secret", "URL password or token is required");
  }
});
export type UrlFeedSave = z.output<typeof urlFeedSave>;
export type UrlFeedSaveInput = z.input<typeof urlFeedSave>;

/** The last look at a URL feed. */
export const urlFeedWatch = z.object({
  /** When the URL was last asked; null: never. */
  checkedAt: z.string().nullable(),
  /** fetched (a new file became a run), not-modified (304), unchanged (same bytes), failed. */
  outcome: z.enum(["fetched", "not-modified", "unchanged", "failed"]).nullable(),
  error: z.string().nullable(),
  /** The run of the last file taken. */
  lastRunId: z.number().int().nullable(),
  /** When the next look is due (UTC ISO), as far as the schedule says. */
  nextCheckAt: z.string().nullable(),
});
export type UrlFeedWatch = z.infer<typeof urlFeedWatch>;

/** GET /api/url-feeds/{feed}/{sourceId}: the settings (url "" = none) and the last look. */
export const urlFeedSchema = z.object({
  url: z.string(),
  everyMinutes: z.number().int().nullable(),
  cron: z.string(),
  authKind: z.enum(URL_FEED_AUTH),
  username: z.string(),
  headerName: z.string(),
  /** "********" when a secret is stored, "" when none: never the secret itself. */
  secret: z.string(),
  watch: urlFeedWatch.nullable(),
});
export type UrlFeed = z.infer<typeof urlFeedSchema>;

/** POST /api/url-feeds/{feed}/{sourceId}/check: what one look did. */
export const urlFeedCheckResult = z.object({
  outcome: z.enum(["fetched", "not-modified", "unchanged", "failed"]),
  error: z.string().nullable(),
  runId: z.number().int().nullable(),
});
export type UrlFeedCheckResult = z.infer<typeof urlFeedCheckResult>;

/** The path parameters of the URL feed calls. */
export const urlFeedParams = z.object({
  feed: z.enum(URL_FEED_FEEDS),
  sourceId: z.coerce.number().int().min(1).max(2_147_483_647),
});

/**
 * The source page's line: "Fetched from https://… every 15 min; last check 10:42, not modified".
 *
 * @example
 * ```ts
 * import { urlFeedWatchText } from "./url_feeds.ts";
 * const line = urlFeedWatchText({
 *   url: "https://example.com/stock.csv", everyMinutes: 15, cron: "",
 *   watch: { checkedAt: null, outcome: null, error: null, lastRunId: null, nextCheckAt: null },
 * }, String);
 * console.assert(line === "Fetched from https://example.com/stock.csv every 15 min; last check never");
 * ```
 */
export function urlFeedWatchText(
  feed: Pick<UrlFeed, "url" | "everyMinutes" | "cron" | "watch">,
  formatDate: (iso: string) => string,
): string | null {
  if (!feed.url) return null;
  const when = feed.cron ? `on "${feed.cron}" (UTC)` : `every ${feed.everyMinutes} min`;
  const watch = feed.watch;
  const last = watch?.checkedAt ? formatDate(watch.checkedAt) : "never";
  const outcome = watch?.outcome === "not-modified"
    ? ", not modified"
    : watch?.outcome === "unchanged"
    ? ", same file as before"
    : watch?.outcome === "fetched"
    ? ", new file taken"
    : watch?.outcome === "failed"
    ? `, failed: ${watch.error ?? "unknown error"}`
    : "";
  return `Fetched from ${feed.url} ${when}; last check ${last}${outcome}`;
}
