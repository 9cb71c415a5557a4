/**
 * The dashboard's lines, read straight from the areas' tables (docs/dashboard.md, "Reading").
 * Like notifications' SOURCE_TABLES, the dashboard reads other areas' tables in SQL rather than
 * importing their modules: it is one read model across areas, and an area never imports another.
 *
 * Cost: one statement per kind; each source's last run, last message and last vendor e-mail is
 * one index probe (import_runs_source_idx, and the two indexes of migration 0023), so the call
 * grows with the number of sources, never with orders, runs or messages (bench/dashboard_bench.ts).
 */
import type { Deps } from "../deps.ts";
import type { Db } from "../db/client.ts";
import {
  type DashboardArea,
  type DashboardLine,
  type SourceState,
} from "../../shared/contract/dashboard.ts";
import {
  DEFAULT_ALERT_HOURS,
  durationText,
  everyText,
  feedSourceState,
  iso,
  type RunFacts,
  runResultText,
} from "./state.ts";

/** The mail and SFTP look of a source: when it is next checked. */
interface Check {
  at: Date | null;
  text: string;
}

/** A mailbox as the dashboard reads it. */
interface MailboxRow {
  id: number;
  email: string;
  active: boolean;
  deleted: boolean;
  pollable: boolean;
  createdAt: Date;
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  listening: boolean;
  nextRunAt: Date | null;
  everySeconds: number | null;
  lastSubject: string | null;
  lastMessageAt: Date | null;
}

/** Every mailbox (deleted ones too: a source may still name one). */
async function mailboxes(db: Db): Promise<Map<number, MailboxRow>> {
  const rows = await db.query<MailboxRow>(
    `select e.id, e.email, e.active_status as active, e.deleted_at is not null as deleted,
            (e.incoming_server <> '' or e.is_msal) as pollable, e.created_at as "createdAt",
            m.last_success_at as "lastSuccessAt", m.last_error as "lastError",
            m.last_error_at as "lastErrorAt",
            coalesce(l.mode = 'idle' and l.lease_until > now(), false) as listening,
            js.next_run_at as "nextRunAt", js.every_seconds as "everySeconds",
            mm.subject as "lastSubject", mm.claimed_at as "lastMessageAt"
       from email_sources e
       left join mailbox_state m on m.email_source_id = e.id and m.mailbox = 'INBOX'
       left join mailbox_listeners l on l.email_source_id = e.id
       left join job_schedules js on js.name = 'mail-poll:' || e.id
       left join lateral (
         select subject, claimed_at from mail_messages
          where email_source_id = e.id and status = 'matched'
          order by claimed_at desc limit 1) mm on true`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** When a mailbox is next looked at. */
function mailCheck(mailbox: MailboxRow | undefined): Check {
  if (!mailbox || mailbox.deleted) {
    return { at: null, text: "Not checked: its mailbox was removed" };
  }
  if (!mailbox.active) return { at: null, text: "Not checked: its mailbox is inactive" };
  if (!mailbox.pollable) {
    return { at: null, text: "Not checked: its mailbox has no incoming server" };
  }
  if (mailbox.listening) return { at: null, text: "On arrival (the mailbox is listened to)" };
  if (mailbox.nextRunAt && mailbox.everySeconds) {
    return { at: mailbox.nextRunAt, text: `${everyText(mailbox.everySeconds)} (mail)` };
  }
  return { at: null, text: "Not scheduled yet (no process runs the jobs)" };
}

/** The checks of a source combined: the earliest time, every way in words. */
function combine(checks: Check[]): { nextCheckAt: string | null; nextCheckText: string } {
  const times = checks.flatMap((c) => c.at ? [c.at.getTime()] : []);
  return {
    nextCheckAt: times.length ? new Date(Math.min(...times)).toISOString() : null,
    nextCheckText: checks.map((c) => c.text).join("; "),
  };
}

interface FeedRow {
  id: number;
  name: string;
  active: boolean;
  createdAt: Date;
  emailSourceId: number | null;
  alertDays: number | null;
  sftp: boolean;
  runStatus: RunFacts["status"] | null;
  fileName: string | null;
  receivedAt: Date | null;
  finishedAt: Date | null;
  counts: Record<string, number> | null;
  error: string | null;
  deliveryStatus: string | null;
  deliveryError: string | null;
}

/** The three feeds' source tables and what each adds. */
const FEEDS = {
  "order-tracking": {
    table: "order_tracking_sources",
    extra: `null::integer as "alertDays", false as sftp`,
    delivery: "",
    path: "/order-tracking-sources/edit/",
  },
  "order-submission": {
    table: "order_submission_sources",
    extra: `null::integer as "alertDays", false as sftp`,
    delivery: "",
    path: "/order-submission/sources/edit/",
  },
  inventory: {
    table: "inventory_sources",
    extra: `s.days_until_no_update_notification as "alertDays",
            (s.sftp_server_address <> '' and s.sftp_inbox_folder <> '') as sftp`,
    delivery: `left join inventory_runs ir on ir.import_run_id = r.id`,
    path: "/inventory-sources/edit/",
  },
} as const;

/** The lines of one feed's sources. */
async function feedLines(
  db: Db,
  area: keyof typeof FEEDS,
  mailbox: Promise<Map<number, MailboxRow>>,
  sftpSchedule: Promise<Map<number, { nextRunAt: Date; everySeconds: number }>>,
  now: Date,
): Promise<DashboardLine[]> {
  const feed = FEEDS[area];
  const delivery = feed.delivery
    ? `ir.delivery_status as "deliveryStatus", ir.delivery_error as "deliveryError"`
    : `null as "deliveryStatus", null as "deliveryError"`;
  const rows = await db.query<FeedRow>(
    `select s.id, s.source_name as name, s.active_status as active, s.created_at as "createdAt",
            s.email_source_id as "emailSourceId", ${feed.extra},
            r.status as "runStatus", r.file_name as "fileName", r.received_at as "receivedAt",
            r.finished_at as "finishedAt", r.counts, r.error, ${delivery}
       from ${feed.table} s
       left join lateral (
         select id, status, file_name, received_at, finished_at, counts, error from import_runs
          where feed = $1 and source_id = s.id
          order by created_at desc limit 1) r on true
       ${feed.delivery}
      where not s.deleted_status`,
    [area],
  );
  const [mail, sftpSchedules] = await Promise.all([mailbox, sftpSchedule]);
  return rows.map((row) => {
    const lastRun: RunFacts | null = row.runStatus && row.receivedAt
      ? {
        status: row.runStatus,
        fileName: row.fileName ?? "",
        receivedAt: new Date(row.receivedAt),
        finishedAt: row.finishedAt ? new Date(row.finishedAt) : null,
        counts: row.counts,
        error: row.error,
        deliveryStatus: row.deliveryStatus,
        deliveryError: row.deliveryError,
      }
      : null;
    // Inventory's own "Alert After (Days)" is the source's override (docs/dashboard.md).
    const alertWindowHours = row.alertDays && row.alertDays > 0
      ? row.alertDays * 24
      : DEFAULT_ALERT_HOURS[area];
    const { state, reason, since } = feedSourceState({
      area,
      active: row.active,
      createdAt: new Date(row.createdAt),
      lastRun,
      alertWindowHours,
    }, now);
    const checks: Check[] = [];
    if (!row.active) checks.push({ at: null, text: "Not checked (inactive)" });
    else {
      if (row.emailSourceId !== null) checks.push(mailCheck(mail.get(row.emailSourceId)));
      const sftp = sftpSchedules.get(row.id);
      if (row.sftp && sftp) {
        checks.push({ at: sftp.nextRunAt, text: `${everyText(sftp.everySeconds)} (SFTP)` });
      }
      if (checks.length === 0) checks.push({ at: null, text: "Only when a file is uploaded" });
    }
    return {
      area,
      sourceId: row.id,
      name: row.name,
      state,
      reason,
      since: iso(since),
      lastFileName: lastRun?.fileName || null,
      lastFileAt: iso(lastRun?.receivedAt),
      lastResult: lastRun ? runResultText(lastRun, area) : null,
      lastResultAt: iso(lastRun ? lastRun.finishedAt ?? lastRun.receivedAt : null),
      ...combine(checks),
      alertWindowHours,
      sourcePath: `${feed.path}${row.id}`,
      runsPath: `/runs?area=${area}&sourceId=${row.id}`,
    };
  });
}

/** The SFTP pull schedules of inventory sources, by source id. */
async function sftpSchedules(
  db: Db,
): Promise<Map<number, { nextRunAt: Date; everySeconds: number }>> {
  const rows = await db.query<{ sourceId: number; nextRunAt: Date; everySeconds: number }>(
    `select (payload->>'sourceId')::integer as "sourceId", next_run_at as "nextRunAt",
            every_seconds as "everySeconds"
       from job_schedules where kind = 'inventory-sftp-pull'`,
  );
  return new Map(rows.map((r) => [r.sourceId, r]));
}

interface VendorRow {
  id: number;
  name: string;
  active: boolean;
  sourceActive: boolean;
  createdAt: Date;
  orderSubmissionSourceId: number;
  sourceName: string;
  nonDaily: boolean;
  everyDays: number | null;
  status: string | null;
  createdAtSubmission: Date | null;
  sentAt: Date | null;
  rowCount: number | null;
  lastError: string | null;
  fileName: string | null;
  oldestWaiting: Date | null;
}

/** A vendor's last e-mail in words. */
function vendorResult(row: VendorRow): string | null {
  const rows = `${row.rowCount} row${row.rowCount === 1 ? "" : "s"}`;
  switch (row.status) {
    case null:
      return null;
    case "sent":
      return `Sent: an e-mail with ${rows}`;
    case "failed":
      return `Sending failed: ${row.lastError ?? "no reason recorded"}`;
    case "uncertain":
      return `Sending uncertain: the mail server did not confirm (${
        row.lastError ?? "no reason recorded"
      })`;
    default:
      return `Waiting to be sent: an e-mail with ${rows}`;
  }
}

/** The vendors' lines: their last e-mail, and rows waiting longer than their rhythm allows. */
async function vendorLines(db: Db, now: Date): Promise<DashboardLine[]> {
  const rows = await db.query<VendorRow>(
    `select v.id, v.vendor_name_from_file as name, v.active_status as active,
            o.active_status as "sourceActive", v.created_at as "createdAt",
            o.id as "orderSubmissionSourceId", o.source_name as "sourceName",
            v.vendor_wants_non_daily_submission as "nonDaily",
            v.vendor_custom_submit_every_x_day as "everyDays",
            s.status, s.created_at as "createdAtSubmission", s.sent_at as "sentAt",
            s.row_count as "rowCount", s.last_error as "lastError", f.file_name as "fileName",
            (select min(w.received_at) from submission_rows w
              where w.vendor_source_id = v.id and w.submission_id is null) as "oldestWaiting"
       from vendor_sources v
       join order_submission_sources o on o.id = v.order_submission_source_id
       left join lateral (
         select id, status, created_at, sent_at, row_count, last_error from submissions
          where vendor_source_id = v.id order by created_at desc limit 1) s on true
       left join lateral (
         select file_name from submission_files where submission_id = s.id
          order by position limit 1) f on true
      where not v.deleted_status`,
  );
  return rows.map((row) => {
    const days = row.nonDaily ? Math.max(1, row.everyDays ?? 1) : 1;
    // Rows wait for the vendor's rhythm (a day, or every X days), plus a day of grace.
    const alertWindowHours = (days + 1) * 24;
    let state: SourceState = "ok";
    let reason = row.status ? "Working." : "No e-mail sent yet.";
    let since: Date | null = null;
    if (!row.active || !row.sourceActive) {
      state = "inactive";
      reason = row.active ? `Inactive: its source ${row.sourceName} is inactive.` : "Inactive.";
    } else if (row.status === "failed" || row.status === "uncertain") {
      state = "failing";
      reason = "The last e-mail to the vendor was not sent.";
      since = row.createdAtSubmission;
    } else if (
      row.oldestWaiting &&
      now.getTime() - new Date(row.oldestWaiting).getTime() > alertWindowHours * 3_600_000
    ) {
      state = "stale";
      reason = `Order rows have waited ${
        durationText(now.getTime() - new Date(row.oldestWaiting).getTime())
      } to be sent (alert after ${alertWindowHours} hours).`;
      since = new Date(new Date(row.oldestWaiting).getTime() + alertWindowHours * 3_600_000);
    }
    return {
      area: "vendor" as const,
      sourceId: row.id,
      name: row.name,
      state,
      reason,
      since: iso(since),
      lastFileName: row.fileName,
      lastFileAt: iso(row.sentAt ?? row.createdAtSubmission),
      lastResult: vendorResult(row),
      lastResultAt: iso(row.sentAt ?? row.createdAtSubmission),
      nextCheckAt: null,
      nextCheckText: state === "inactive"
        ? "Not sent (inactive)"
        : row.nonDaily
        ? `Every ${days} day${days === 1 ? "" : "s"}`
        : `With each order e-mail of ${row.sourceName}`,
      alertWindowHours,
      sourcePath: `/order-submission/vendor/edit/${row.id}`,
      runsPath: `/runs?area=order-submission&sourceId=${row.orderSubmissionSourceId}`,
    };
  });
}

/** The mailboxes that are read (an incoming server or Microsoft 365), as lines. */
function mailboxLines(
  mail: Map<number, MailboxRow>,
  alertHours: number,
  now: Date,
): DashboardLine[] {
  const lines: DashboardLine[] = [];
  for (const m of mail.values()) {
    if (m.deleted || !m.pollable) continue;
    const window = alertHours > 0 ? alertHours : null;
    const failed = m.lastErrorAt !== null &&
      (m.lastSuccessAt === null || new Date(m.lastErrorAt) > new Date(m.lastSuccessAt));
    const lastGood = m.lastSuccessAt ?? m.createdAt;
    const silentMs = now.getTime() - new Date(lastGood).getTime();
    let state: SourceState = "ok";
    let reason = m.lastSuccessAt ? "Working." : "Not checked yet.";
    let since: Date | null = null;
    if (!m.active) {
      state = "inactive";
      reason = "Inactive: not checked.";
    } else if (failed) {
      state = "failing";
      reason = "The last check of the mailbox failed.";
      since = m.lastErrorAt;
    } else if (window !== null && silentMs > window * 3_600_000) {
      state = "stale";
      reason = `No successful check for ${durationText(silentMs)} (alert after ${window} hours).`;
      since = new Date(new Date(lastGood).getTime() + window * 3_600_000);
    }
    const lastResult = failed
      ? `Check failed: ${m.lastError ?? "no reason recorded"}`
      : m.lastSuccessAt
      ? "Checked without error"
      : null;
    lines.push({
      area: "mailbox",
      sourceId: m.id,
      name: m.email,
      state,
      reason,
      since: iso(since),
      lastFileName: m.lastSubject,
      lastFileAt: iso(m.lastMessageAt),
      lastResult,
      lastResultAt: iso(failed ? m.lastErrorAt : m.lastSuccessAt),
      ...combine([m.active ? mailCheck(m) : { at: null, text: "Not checked (inactive)" }]),
      alertWindowHours: window,
      sourcePath: `/email-sources/edit/${m.id}`,
      runsPath: null,
    });
  }
  return lines;
}

/**
 * The lines of the kinds in `areas` (all when omitted), unsorted. Reads the mailboxes and
 * schedules once for all kinds.
 */
export async function readLines(
  deps: Pick<Deps, "db" | "config">,
  areas: readonly DashboardArea[],
  now = new Date(),
): Promise<DashboardLine[]> {
  const wanted = new Set(areas);
  // The statements go out together: on PostgreSQL they run on several pooled connections.
  const mail = mailboxes(deps.db);
  const sftp = wanted.has("inventory") ? sftpSchedules(deps.db) : Promise.resolve(new Map());
  const parts: Promise<DashboardLine[]>[] = [];
  for (const area of ["order-tracking", "inventory", "order-submission"] as const) {
    if (wanted.has(area)) parts.push(feedLines(deps.db, area, mail, sftp, now));
  }
  if (wanted.has("vendor")) parts.push(vendorLines(deps.db, now));
  if (wanted.has("mailbox")) {
    parts.push(mail.then((m) => mailboxLines(m, deps.config.MAILBOX_ALERT_HOURS, now)));
  }
  const lines = (await Promise.all(parts)).flat();
  return lines;
}
