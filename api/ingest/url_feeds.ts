/**
 * URL feeds (docs/url_feeds.md): the settings of a source's URL (table `url_feeds`), one look at
 * the URL, and what the source page shows. A URL is one more delivery channel: a new file becomes
 * an import run (trigger `url`) through `createRun`, processed by the feed like a mailed file.
 *
 * Taken once: the run, the validators (ETag, Last-Modified) and the file's sha256 are written in
 * one transaction under the row's lock, and a file whose sha256 is the last one taken is not
 * recorded again — so two processes looking at once (the schedule and "Check now", or two
 * workers) record one run.
 */
import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { invalid } from "../db/errors.ts";
import { requireSecretForRebind, SECRET_PLACEHOLDER, type SecretBox } from "../secrets.ts";
import { logError } from "../http/log_error.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { encodeBase64 } from "../../shared/base64.ts";
import { nextCronTime, parseCron } from "../../shared/cron.ts";
import type {
  UrlFeed,
  UrlFeedCheckResult,
  UrlFeedSave,
  UrlFeedWatch,
} from "../../shared/contract/url_feeds.ts";
import { feedByName, type FeedName } from "./feeds.ts";
import { createRun, processRun } from "./import_runs.ts";
import { storeImportFile } from "./import_files.ts";
import { fetchFeedUrl, UrlFetchError } from "./url_fetch.ts";

/** Redirects followed before a look fails (each hop checked against the outbound policy). */
export const URL_FEED_MAX_REDIRECTS = 5;

interface Row {
  url: string;
  everySeconds: number | null;
  cron: string | null;
  authKind: "none" | "basic" | "header";
  username: string;
  headerName: string;
  secretEnc: string | null;
  etag: string | null;
  lastModified: string | null;
  contentSha256: string | null;
  checkedAt: Date | string | null;
  checkOutcome: UrlFeedWatch["outcome"];
  checkError: string | null;
  lastRunId: number | null;
  updatedAt: Date | string;
}

const COLUMNS = `url, every_seconds as "everySeconds", cron, auth_kind as "authKind", username,
  header_name as "headerName", secret_enc as "secretEnc", etag, last_modified as "lastModified",
  content_sha256 as "contentSha256", checked_at as "checkedAt", check_outcome as "checkOutcome",
  check_error as "checkError", last_run_id as "lastRunId", updated_at as "updatedAt"`;

async function loadRow(db: Db, feed: FeedName, sourceId: number, lock = false) {
  const [row] = await db.query<Row>(
    `select ${COLUMNS} from url_feeds where feed = $1 and source_id = $2${
      lock ? " for update" : ""
    }`,
    [feed, sourceId],
  );
  return row ?? null;
}

const iso = (value: Date | string | null) => value ? new Date(value).toISOString() : null;

/**
 * When a feed is next due: the interval after the last look, or the cron expression's next time
 * after the last look (after the last save when never looked at). Null: never again (a cron
 * expression with no future time).
 */
export function nextCheckAt(
  row: Pick<Row, "everySeconds" | "cron" | "checkedAt" | "updatedAt">,
): Date | null {
  const base = new Date(row.checkedAt ?? row.updatedAt);
  if (row.cron) return nextCronTime(parseCron(row.cron), base);
  if (!row.checkedAt) return new Date(row.updatedAt);
  return new Date(base.getTime() + (row.everySeconds ?? 0) * 1000);
}

/** A source's URL feed as the API answers it (url "" when it has none); never the secret. */
export async function findUrlFeed(db: Db, feed: FeedName, sourceId: number): Promise<UrlFeed> {
  const row = await loadRow(db, feed, sourceId);
  if (!row) {
    return {
      url: "",
      everyMinutes: null,
      cron: "",
      authKind: "none",
      username: "",
      headerName: "",
      secret: "",
      watch: null,
    };
  }
  return {
    url: row.url,
    everyMinutes: row.everySeconds === null ? null : Math.round(row.everySeconds / 60),
    cron: row.cron ?? "",
    authKind: row.authKind,
    username: row.username,
    headerName: row.headerName,
    secret: row.secretEnc ? SECRET_PLACEHOLDER : "",
    watch: {
      checkedAt: iso(row.checkedAt),
      outcome: row.checkOutcome,
      error: row.checkError,
      lastRunId: row.lastRunId,
      nextCheckAt: iso(nextCheckAt(row)),
    },
  };
}

/** What the stored secret is bound to: the URL's origin and the way it is sent. */
function binding(s: { url: string; authKind: string; username: string; headerName: string }) {
  let origin = "";
  try {
    origin = new URL(s.url).origin;
  } catch { /* an unparsable URL binds to nothing */ }
  return {
    "URL origin": origin,
    "authentication": s.authKind,
    "username": s.authKind === "basic" ? s.username : "",
    "header name": s.authKind === "header" ? s.headerName.toLowerCase() : "",
  };
}

/**
 * Saves (or, with url "", removes) a source's URL feed. The placeholder keeps the stored secret,
 * which may not follow a changed origin, authentication kind, user name or header name
 * (`requireSecretForRebind`). A changed URL forgets the validators and the last file's sha256, so
 * the new URL's file is taken at its first look.
 */
export async function saveUrlFeed(
  db: Db,
  secrets: SecretBox,
  feed: FeedName,
  sourceId: number,
  input: UrlFeedSave,
): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await loadRow(tx, feed, sourceId, true);
    if (input.url === "") {
      await tx.query("delete from url_feeds where feed = $1 and source_id = $2", [feed, sourceId]);
      return;
    }
    // Without authentication nothing is kept, so there is nothing to bind (a switch to None with
    // the placeholder still in the hidden field simply drops the secret).
    const keep = input.secret === SECRET_PLACEHOLDER && input.authKind !== "none";
    if (keep && !before?.secretEnc && input.authKind !== "none") {
      throw invalid("URL password or token is required", {
        secret: ["URL password or token is required"],
      });
    }
    if (before) requireSecretForRebind(keep, binding(before), binding(input), "secret");
    const secretEnc = input.authKind === "none"
      ? null
      : keep
      ? before?.secretEnc ?? null
      : await secrets.encrypt(input.secret);
    const sameUrl = before?.url === input.url;
    await tx.query(
      `insert into url_feeds (feed, source_id, url, every_seconds, cron, auth_kind, username,
         header_name, secret_enc)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (feed, source_id) do update set url = excluded.url,
         every_seconds = excluded.every_seconds, cron = excluded.cron,
         auth_kind = excluded.auth_kind, username = excluded.username,
         header_name = excluded.header_name, secret_enc = excluded.secret_enc, updated_at = now(),
         etag = case when $10 then url_feeds.etag end,
         last_modified = case when $10 then url_feeds.last_modified end,
         content_sha256 = case when $10 then url_feeds.content_sha256 end`,
      [
        feed,
        sourceId,
        input.url,
        input.cron ? null : (input.everyMinutes ?? 0) * 60,
        input.cron || null,
        input.authKind,
        input.authKind === "basic" ? input.username : "",
        input.authKind === "header" ? input.headerName : "",
        secretEnc,
        sameUrl,
      ],
    );
  });
}

/** The request headers of a feed's authentication (decrypted here, never logged). */
async function authHeaders(secrets: SecretBox, row: Row): Promise<Record<string, string>> {
  if (row.authKind === "none" || !row.secretEnc) return {};
  const secret = await secrets.decrypt(row.secretEnc);
  if (row.authKind === "basic") {
    const pair = new TextEncoder().encode(`${row.username}:${secret}`);
    return { authorization: `Basic ${encodeBase64(pair)}` };
  }
  return { [row.headerName]: secret };
}

async function recordCheck(
  db: Db,
  feed: FeedName,
  sourceId: number,
  outcome: NonNullable<UrlFeedWatch["outcome"]>,
  error: string | null,
): Promise<void> {
  await db.query(
    `update url_feeds set checked_at = now(), check_outcome = $3, check_error = $4
      where feed = $1 and source_id = $2`,
    [feed, sourceId, outcome, error?.slice(0, 2000) ?? null],
  );
}

/** True when the source is one the feed lets pull from a URL now (active, not deleted). */
async function sourceTakesUrl(db: Db, feed: FeedName, sourceId: number): Promise<boolean> {
  const rules = await feedByName(feed).deliveries?.url?.(db) ?? [];
  return rules.some((rule) => rule.sourceId === sourceId);
}

/**
 * Looks at a source's URL once and, when it brought a new file, processes the run. A failed look
 * is recorded on the feed (the source page's line); the first failure with a given message also
 * records a failed run, so that staff see it among the runs (not one per look while it lasts).
 */
export async function checkUrlFeed(
  deps: Deps,
  feed: FeedName,
  sourceId: number,
): Promise<UrlFeedCheckResult> {
  const row = await loadRow(deps.db, feed, sourceId);
  if (!row) return { outcome: "failed", error: "This source has no feed URL.", runId: null };
  if (!await sourceTakesUrl(deps.db, feed, sourceId)) {
    return { outcome: "failed", error: "The source is not active.", runId: null };
  }
  let fetched;
  try {
    fetched = await fetchFeedUrl(deps.config, {
      url: row.url,
      headers: await authHeaders(deps.secrets, row),
      etag: row.etag,
      lastModified: row.lastModified,
    }, {
      maxBytes: deps.config.MAX_SOURCE_FILE_BYTES,
      timeoutMs: deps.config.URL_FEED_TIMEOUT_SECONDS * 1000,
      maxRedirects: URL_FEED_MAX_REDIRECTS,
    });
  } catch (error) {
    if (!(error instanceof UrlFetchError)) logError(`URL feed ${feed} ${sourceId}`, error);
    const message = error instanceof UrlFetchError
      ? error.message
      : "Fetching the URL failed (see the server log).";
    const runId = await deps.db.transaction(async (tx) => {
      const now = await loadRow(tx, feed, sourceId, true);
      if (!now) return null;
      const repeated = now.checkOutcome === "failed" && now.checkError === message;
      await recordCheck(tx, feed, sourceId, "failed", message);
      if (repeated) return null;
      return await createRun(tx, {
        feed,
        sourceId,
        trigger: "url",
        fileName: fileNameOfUrl(row.url),
        bytes: null,
        log: [`Fetching ${row.url} failed.`],
        error: message,
      });
    });
    return { outcome: "failed", error: message, runId };
  }
  if (fetched.status === "not-modified") {
    await recordCheck(deps.db, feed, sourceId, "not-modified", null);
    return { outcome: "not-modified", error: null, runId: null };
  }
  const { bytes } = fetched;
  const sha = await sha256Hex(bytes);
  await storeImportFile(deps.db, bytes);
  const taken = await deps.db.transaction(async (tx) => {
    const now = await loadRow(tx, feed, sourceId, true);
    // Removed, or pointed elsewhere, while this look ran: its file is not this feed's.
    if (!now || now.url !== row.url) return { outcome: "unchanged" as const, runId: null };
    await tx.query(
      `update url_feeds set etag = $3, last_modified = $4, content_sha256 = $5
        where feed = $1 and source_id = $2`,
      [feed, sourceId, fetched.etag, fetched.lastModified, sha],
    );
    if (now.contentSha256 === sha) {
      await recordCheck(tx, feed, sourceId, "unchanged", null);
      return { outcome: "unchanged" as const, runId: null };
    }
    const runId = await createRun(tx, {
      feed,
      sourceId,
      trigger: "url",
      fileName: fetched.fileName,
      bytes,
      log: [`Fetched from ${fetched.url} (${bytes.length} bytes).`],
    });
    await recordCheck(tx, feed, sourceId, "fetched", null);
    await tx.query("update url_feeds set last_run_id = $3 where feed = $1 and source_id = $2", [
      feed,
      sourceId,
      runId,
    ]);
    return { outcome: "fetched" as const, runId };
  });
  if (taken.runId) await processRun(deps, taken.runId);
  return { ...taken, error: null };
}

function fileNameOfUrl(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "") || "download";
  } catch {
    return "download";
  }
}

/** A feed whose URL a schedule looks at. */
export interface UrlFeedEntry {
  feed: FeedName;
  sourceId: number;
  everySeconds: number | null;
  cron: string | null;
}

/**
 * The URL feeds of active sources of every registered feed that takes URLs (the schedules'
 * input).
 */
export async function activeUrlFeeds(db: Db, feeds: FeedName[]): Promise<UrlFeedEntry[]> {
  const rows = await db.query<UrlFeedEntry>(
    `select feed, source_id as "sourceId", every_seconds as "everySeconds", cron
       from url_feeds order by feed, source_id`,
  );
  const active = new Map<FeedName, Set<number>>();
  for (const name of feeds) {
    const rules = await feedByName(name).deliveries?.url?.(db) ?? [];
    active.set(name, new Set(rules.map((r) => r.sourceId)));
  }
  return rows.filter((r) => active.get(r.feed)?.has(r.sourceId));
}

/**
 * True when a cron-scheduled feed is due now (its schedule ticks every minute; the expression
 * decides). Interval feeds are due whenever their schedule fires.
 */
export async function urlFeedDue(
  db: Db,
  feed: FeedName,
  sourceId: number,
  now: Date,
): Promise<boolean> {
  const row = await loadRow(db, feed, sourceId);
  if (!row) return false;
  if (!row.cron) return true;
  const next = nextCheckAt(row);
  return next !== null && next.getTime() <= now.getTime();
}
