/**
 * The run history's reads (docs/runs.md): import runs of the order tracking, inventory and order
 * submission feeds, and the vendor e-mails of the submission outbox, by area, source, state and
 * time; one run in words; and the per-day series. Every read is bounded by an index on time
 * (migration 0027) or on the source, so its cost follows the answer, not the history.
 */
import type { Db } from "../db/client.ts";
import { conditions } from "../db/conditions.ts";
import { runResultLine } from "../../shared/catalog/run_words.ts";
import type {
  RowErrorGroup,
  RunArea,
  RunDetails,
  RunListItem,
  RunSeries,
  RunSeriesDay,
  RunState,
} from "../../shared/contract/runs.ts";

/** The areas whose runs are import runs of the feed of the same name. */
export const FEED_AREAS = ["order-tracking", "inventory", "order-submission"] as const;

const DELETED_SOURCE = "(deleted source)";

// The source's name by the run's feed (import_runs.source_id is polymorphic: migration 0006).
const SOURCE_NAME = `coalesce(case r.feed
    when 'order-tracking' then (select s.source_name from order_tracking_sources s
      where s.id = r.source_id)
    when 'inventory' then (select s.source_name from inventory_sources s where s.id = r.source_id)
    when 'order-submission' then (select s.source_name from order_submission_sources s
      where s.id = r.source_id)
  end, '${DELETED_SOURCE}')`;

// A run's state in the history's words (shared/contract/runs.ts, RUN_STATES).
const RUN_STATE = `case r.status when 'queued' then 'running'
    when 'succeeded' then case when r.row_error_count > 0 then 'row-errors'
      else 'succeeded' end
    else r.status end`;

const RUN_STATE_WHERE: Record<RunState, string> = {
  "succeeded": "r.status = 'succeeded' and r.row_error_count = 0",
  "row-errors": "r.status = 'succeeded' and r.row_error_count > 0",
  "failed": "r.status = 'failed'",
  "held": "r.status = 'held'",
  "running": "r.status = 'queued'",
};

// A vendor e-mail's state: an uncertain send (the server may or may not have taken it) is
// counted as failed, since someone must look at it (docs/order_submission.md).
const SEND_STATE = `case s.status when 'sent' then 'succeeded'
    when 'failed' then 'failed' when 'uncertain' then 'failed' else 'running' end`;

const SEND_STATE_WHERE: Record<RunState, string | null> = {
  "succeeded": "s.status = 'sent'",
  "row-errors": null,
  "failed": "s.status in ('failed', 'uncertain')",
  "held": null,
  "running": "s.status in ('pending', 'sending')",
};

/** The history's filters, checked (RunsQuery's output) and narrowed to the caller's areas. */
export interface RunFilter {
  areas: readonly RunArea[];
  sourceId?: number;
  state?: RunState;
  from?: string;
  to?: string;
  limit: number;
}

/** A `to` given as a bare date means the end of that day. */
export function upperBound(to: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(to)
    ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString()
    : new Date(to).toISOString();
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => value === null ? null : iso(value);

interface RunRow {
  id: number;
  area: RunArea;
  sourceId: number;
  sourceName: string;
  trigger: string;
  state: RunState;
  fileName: string;
  receivedAt: Date | string;
  createdAt: Date | string;
  finishedAt: Date | string | null;
  counts: Record<string, number>;
  rowErrorCount: number;
  error: string | null;
}

const RUN_COLUMNS =
  `r.id, r.feed as area, r.source_id as "sourceId", ${SOURCE_NAME} as "sourceName",
  r.trigger, ${RUN_STATE} as state, r.file_name as "fileName", r.received_at as "receivedAt",
  r.created_at as "createdAt", r.finished_at as "finishedAt", r.counts, r.error,
  r.row_error_count as "rowErrorCount"`;

const toItem = (row: RunRow): RunListItem => ({
  id: row.id,
  kind: "run",
  area: row.area,
  sourceId: row.sourceId,
  sourceName: row.sourceName,
  trigger: row.trigger,
  state: row.state,
  fileName: row.fileName,
  receivedAt: iso(row.receivedAt),
  createdAt: iso(row.createdAt),
  finishedAt: isoOrNull(row.finishedAt),
  result: row.state === "running" ? "Being processed" : runResultLine(row),
  rowErrorCount: row.rowErrorCount,
  error: row.error,
});

async function listImportRuns(db: Db, feeds: string[], filter: RunFilter): Promise<RunListItem[]> {
  if (!feeds.length) return [];
  const where = conditions();
  where.add("r.feed = any(?::text[])", feeds);
  if (filter.sourceId) where.add("r.source_id = ?", filter.sourceId);
  if (filter.from) where.add("r.created_at >= ?::timestamptz", new Date(filter.from).toISOString());
  if (filter.to) where.add("r.created_at < ?::timestamptz", upperBound(filter.to));
  if (filter.state) where.addText(RUN_STATE_WHERE[filter.state]);
  const rows = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from import_runs r ${where.where()}
      order by r.created_at desc, r.id desc limit ${where.param(filter.limit)}`,
    where.params,
  );
  return rows.map(toItem);
}

interface SendRow {
  id: number;
  sourceId: number;
  sourceName: string | null;
  state: RunState;
  fileName: string | null;
  rowCount: number;
  toAddresses: string;
  createdAt: Date | string;
  sentAt: Date | string | null;
  lastError: string | null;
}

function sendResult(row: SendRow): string {
  const rows = `${row.rowCount} order ${row.rowCount === 1 ? "row" : "rows"}`;
  if (row.state === "succeeded") return `1 e-mail sent to ${row.toAddresses} with ${rows}`;
  if (row.state === "failed") return `E-mail with ${rows} not sent`;
  return `E-mail with ${rows} being sent`;
}

async function listSends(db: Db, filter: RunFilter): Promise<RunListItem[]> {
  const stateWhere = filter.state ? SEND_STATE_WHERE[filter.state] : "true";
  if (stateWhere === null) return [];
  const where = conditions();
  where.addText(stateWhere);
  if (filter.sourceId) where.add("s.vendor_source_id = ?", filter.sourceId);
  if (filter.from) where.add("s.created_at >= ?::timestamptz", new Date(filter.from).toISOString());
  if (filter.to) where.add("s.created_at < ?::timestamptz", upperBound(filter.to));
  const limit = where.param(filter.limit);
  const rows = await db.query<SendRow>(
    `select s.id, s.vendor_source_id as "sourceId", v.vendor_name_from_file as "sourceName",
       ${SEND_STATE} as state, s.row_count as "rowCount", s.to_addresses as "toAddresses",
       s.created_at as "createdAt", s.sent_at as "sentAt", s.last_error as "lastError",
       (select f.file_name from submission_files f where f.submission_id = s.id
         order by f.position limit 1) as "fileName"
       from submissions s left join vendor_sources v on v.id = s.vendor_source_id
      ${where.where()}
      order by s.created_at desc, s.id desc limit ${limit}`,
    where.params,
  );
  return rows.map((row) => ({
    id: row.id,
    kind: "send",
    area: "vendor-sends",
    sourceId: row.sourceId,
    sourceName: row.sourceName ?? DELETED_SOURCE,
    trigger: "e-mail",
    state: row.state,
    fileName: row.fileName ?? "",
    receivedAt: iso(row.createdAt),
    createdAt: iso(row.createdAt),
    finishedAt: isoOrNull(row.sentAt),
    result: sendResult(row),
    rowErrorCount: 0,
    error: row.state === "failed" ? row.lastError : null,
  }));
}

/**
 * The history: the runs (and vendor e-mails) of `filter.areas`, newest first, at most
 * `filter.limit`.
 *
 * @example
 * ```ts ignore
 * const runs = await listRunHistory(db, { areas: ["inventory"], state: "held", limit: 100 });
 * ```
 */
export async function listRunHistory(db: Db, filter: RunFilter): Promise<RunListItem[]> {
  const feeds = FEED_AREAS.filter((area) => filter.areas.includes(area));
  const [runs, sends] = await Promise.all([
    listImportRuns(db, feeds, filter),
    filter.areas.includes("vendor-sends") ? listSends(db, filter) : [],
  ]);
  if (!sends.length) return runs;
  return [...runs, ...sends]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
    .slice(0, filter.limit);
}

/** Rows shown per reason on the run page. */
export const ROWS_PER_REASON = 5;

/**
 * The reason of a row error: its message with quoted values replaced, so that `No vendor named
 * "Acme"` and `No vendor named "Bolt"` are one reason.
 */
export function errorReason(message: string): string {
  return message.replace(/"[^"]*"/g, "“…”").replace(/'[^']*'/g, "‘…’");
}

/**
 * Row errors grouped by reason (and column), largest group first, each with its first rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupRowErrors } from "./queries.ts";
 * const groups = groupRowErrors([
 *   { row: 2, column: "Vendor", message: 'No vendor named "A"; not sent.' },
 *   { row: 3, column: "Vendor", message: 'No vendor named "B"; not sent.' },
 * ]);
 * assert.equal(groups.length, 1);
 * assert.equal(groups[0].count, 2);
 * ```
 */
export function groupRowErrors(
  errors: readonly { row: number; column?: string; message: string }[],
): RowErrorGroup[] {
  const groups = new Map<string, RowErrorGroup>();
  for (const error of errors) {
    const reason = errorReason(error.message);
    const key = `${error.column ?? ""}\u0000${reason}`;
    let group = groups.get(key);
    if (!group) {
      group = { reason, column: error.column ?? null, count: 0, rows: [] };
      groups.set(key, group);
    }
    group.count++;
    if (group.rows.length < ROWS_PER_REASON) {
      group.rows.push({ row: error.row, message: error.message });
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** One import run in words, or null when there is none with that id. */
export async function findRunDetails(
  db: Db,
  runId: number,
): Promise<Omit<RunDetails, "canRelease"> | null> {
  const [row] = await db.query<
    RunRow & {
      warnings: string[];
      log: string[];
      rowErrors: { row: number; column?: string; message: string }[];
      rerunOf: number | null;
      hasFile: boolean;
    }
  >(
    `select ${RUN_COLUMNS}, r.warnings, r.log, r.row_errors as "rowErrors",
       r.rerun_of as "rerunOf", r.file_id is not null as "hasFile"
       from import_runs r where r.id = $1`,
    [runId],
  );
  if (!row) return null;
  return {
    ...toItem(row),
    counts: row.counts,
    warnings: row.warnings,
    log: row.log,
    rowErrorGroups: groupRowErrors(row.rowErrors),
    rerunOf: row.rerunOf,
    hasFile: row.hasFile,
  };
}

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The last `days` UTC days (today included) of runs per state and rows read, for `areas` and,
 * when given, one source; with one order tracking source or area, the orders new and updated per
 * day; with vendor e-mails, the e-mails sent per day. Days without runs are zeros.
 *
 * @example
 * ```ts ignore
 * const series = await runSeriesOf(db, { areas: ["inventory"], sourceId: 3, days: 30 });
 * ```
 */
export async function runSeriesOf(
  db: Db,
  filter: { areas: readonly RunArea[]; sourceId?: number; days: number },
  now = new Date(),
): Promise<RunSeries> {
  const today = Date.parse(`${dayKey(now)}T00:00:00Z`);
  const since = new Date(today - (filter.days - 1) * 86_400_000);
  const byDay = new Map<string, RunSeriesDay>();
  for (let i = 0; i < filter.days; i++) {
    const day = dayKey(new Date(since.getTime() + i * 86_400_000));
    byDay.set(day, { day, succeeded: 0, rowErrors: 0, failed: 0, held: 0, rows: 0 });
  }
  const feeds = FEED_AREAS.filter((area) => filter.areas.includes(area));
  const withOrders = feeds.includes("order-tracking");
  const withEmails = filter.areas.includes("vendor-sends");
  if (feeds.length) {
    // Each feed's range of the (feed, created_at) index, or the source's range of
    // (feed, source_id, created_at): the window's runs only. Grouped by the date itself (a
    // hash of about `days` groups), not by its text, which would sort the window's runs.
    const rows = await db.query<
      Omit<RunSeriesDay, "newOrders" | "updatedOrders"> & {
        newOrders: number;
        updatedOrders: number;
      }
    >(
      `select to_char((r.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
         count(*) filter (where ${RUN_STATE_WHERE.succeeded})::int as succeeded,
         count(*) filter (where ${RUN_STATE_WHERE["row-errors"]})::int as "rowErrors",
         count(*) filter (where r.status = 'failed')::int as failed,
         count(*) filter (where r.status = 'held')::int as held,
         coalesce(sum(coalesce((r.counts->>'rows')::numeric, (r.counts->>'items')::numeric, 0))
           filter (where r.status <> 'queued'), 0)::int as rows,
         coalesce(sum(coalesce((r.counts->>'inserted')::numeric, 0))
           filter (where r.feed = 'order-tracking'), 0)::int as "newOrders",
         coalesce(sum(coalesce((r.counts->>'updated')::numeric, 0)
             + coalesce((r.counts->>'restored')::numeric, 0))
           filter (where r.feed = 'order-tracking'), 0)::int as "updatedOrders"
         from import_runs r
        where r.feed = any($1::text[]) and ($2::int is null or r.source_id = $2)
          and r.created_at >= $3::timestamptz
        group by (r.created_at at time zone 'UTC')::date`,
      [feeds, filter.sourceId ?? null, since.toISOString()],
    );
    for (const row of rows) {
      const day = byDay.get(row.day);
      if (!day) continue;
      day.succeeded += row.succeeded;
      day.rowErrors += row.rowErrors;
      day.failed += row.failed;
      day.held += row.held;
      day.rows += row.rows;
      if (withOrders) {
        day.newOrders = row.newOrders;
        day.updatedOrders = row.updatedOrders;
      }
    }
  }
  if (withEmails) {
    // Sent e-mails: the partial (vendor_source_id, sent_at) index for one vendor; all vendors
    // by created_at (an e-mail is sent within minutes of being queued).
    const rows = await db.query<
      { day: string; sent: number; failed: number; rows: number }
    >(
      `select to_char((s.created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
         count(*) filter (where s.status = 'sent')::int as sent,
         count(*) filter (where s.status in ('failed', 'uncertain'))::int as failed,
         coalesce(sum(s.row_count) filter (where s.status = 'sent'), 0)::int as rows
         from submissions s
        where ($1::int is null or s.vendor_source_id = $1) and s.created_at >= $2::timestamptz
        group by (s.created_at at time zone 'UTC')::date`,
      [filter.sourceId ?? null, since.toISOString()],
    );
    for (const day of byDay.values()) day.emailsSent = day.emailsSent ?? 0;
    for (const row of rows) {
      const day = byDay.get(row.day);
      if (!day) continue;
      day.emailsSent = row.sent;
      // Vendor e-mails are runs of their own only when they are the only area shown.
      if (!feeds.length) {
        day.succeeded += row.sent;
        day.failed += row.failed;
        day.rows += row.rows;
      }
    }
  }
  if (withOrders) {
    for (const day of byDay.values()) {
      day.newOrders ??= 0;
      day.updatedOrders ??= 0;
    }
  }
  return { areas: [...filter.areas], days: [...byDay.values()] };
}

/**
 * The sources (and vendors) of `areas` by name, for the Source filter: those that exist now;
 * runs of a deleted source still list as "(deleted source)".
 */
export async function listRunSources(
  db: Db,
  areas: readonly RunArea[],
): Promise<{ area: RunArea; id: number; name: string }[]> {
  return await db.query(
    `select * from (
       select 'order-tracking' as area, id, source_name as name from order_tracking_sources
        where not deleted_status
       union all select 'inventory', id, source_name from inventory_sources
        where not deleted_status
       union all select 'order-submission', id, source_name from order_submission_sources
        where not deleted_status
       union all select 'vendor-sends', id, vendor_name_from_file from vendor_sources
        where not deleted_status
     ) s where s.area = any($1::text[]) order by s.area, lower(s.name), s.id`,
    [areas],
  );
}
