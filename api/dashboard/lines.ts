/**
 * The dashboard's lines, read straight from the areas' tables (docs/dashboard.md, "Reading").
 * Like notifications' SOURCE_TABLES, the dashboard reads other areas' tables in SQL rather than
 * importing their modules: it is one read model across areas, and an area never imports another.
 *
 * Cost: one statement, `dashboard_facts` (migration 0029), returns every area's facts as one JSON
 * document: one round trip, and a plan PL/pgSQL keeps for the connection. Each source's last run,
 * last message, last vendor e-mail and oldest waiting row is one index probe
 * (import_runs_source_idx, the two indexes of migration 0023, submission_rows_waiting_idx), so
 * the call grows with the number of sources, never with orders, runs or messages
 * (bench/dashboard_bench.ts).
 */
import type { Deps } from "../deps.ts";
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

/**
 * A time as `dashboard_facts` returns it: JSON has no dates, so timestamps come as ISO strings
 * (with the session's offset), turned into Dates where the rules compare them.
 */
type Time = string;

/** A Date from a JSON timestamp (null stays null). */
function date(value: Time): Date;
function date(value: Time | null): Date | null;
function date(value: Time | null): Date | null {
  return value === null ? null : new Date(value);
}

/** A mailbox as the dashboard reads it. */
interface MailboxRow {
  id: number;
  email: string;
  active: boolean;
  deleted: boolean;
  pollable: boolean;
  createdAt: Time;
  lastSuccessAt: Time | null;
  lastError: string | null;
  lastErrorAt: Time | null;
  listening: boolean;
  nextRunAt: Time | null;
  everySeconds: number | null;
  lastSubject: string | null;
  lastMessageAt: Time | null;
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
    return { at: date(mailbox.nextRunAt), text: `${everyText(mailbox.everySeconds)} (mail)` };
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
  createdAt: Time;
  emailSourceId: number | null;
  alertDays: number | null;
  sftp: boolean;
  runStatus: RunFacts["status"] | null;
  fileName: string | null;
  receivedAt: Time | null;
  finishedAt: Time | null;
  counts: Record<string, number> | null;
  error: string | null;
  deliveryStatus: string | null;
  deliveryError: string | null;
}

/** The three feeds' source pages. */
const FEED_PATHS = {
  "order-tracking": "/order-tracking-sources/edit/",
  "order-submission": "/order-submission/sources/edit/",
  inventory: "/inventory-sources/edit/",
} as const;

/** The lines of one feed's sources. */
function feedLines(
  rows: readonly FeedRow[],
  area: keyof typeof FEED_PATHS,
  mail: Map<number, MailboxRow>,
  sftpSchedules: Map<number, SftpSchedule>,
  now: Date,
): DashboardLine[] {
  return rows.map((row) => {
    const lastRun: RunFacts | null = row.runStatus && row.receivedAt
      ? {
        status: row.runStatus,
        fileName: row.fileName ?? "",
        receivedAt: date(row.receivedAt),
        finishedAt: date(row.finishedAt),
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
      createdAt: date(row.createdAt),
      lastRun,
      alertWindowHours,
    }, now);
    const checks: Check[] = [];
    if (!row.active) checks.push({ at: null, text: "Not checked (inactive)" });
    else {
      if (row.emailSourceId !== null) checks.push(mailCheck(mail.get(row.emailSourceId)));
      const sftp = sftpSchedules.get(row.id);
      if (row.sftp && sftp) {
        checks.push({ at: date(sftp.nextRunAt), text: `${everyText(sftp.everySeconds)} (SFTP)` });
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
      sourcePath: `${FEED_PATHS[area]}${row.id}`,
      runsPath: `/runs?area=${area}&sourceId=${row.id}`,
    };
  });
}

/** An inventory source's SFTP pull schedule. */
interface SftpSchedule {
  sourceId: number;
  nextRunAt: Time;
  everySeconds: number;
}

interface VendorRow {
  id: number;
  name: string;
  active: boolean;
  sourceActive: boolean;
  createdAt: Time;
  orderSubmissionSourceId: number;
  sourceName: string;
  nonDaily: boolean;
  everyDays: number | null;
  status: string | null;
  createdAtSubmission: Time | null;
  sentAt: Time | null;
  rowCount: number | null;
  lastError: string | null;
  fileName: string | null;
  oldestWaiting: Time | null;
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
function vendorLines(rows: readonly VendorRow[], now: Date): DashboardLine[] {
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
      since = date(row.createdAtSubmission);
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
      since = date(m.lastErrorAt);
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

/** What `dashboard_facts` returns: each wanted area's rows (null: not asked for). */
interface Facts {
  mailboxes: MailboxRow[];
  sftp: SftpSchedule[] | null;
  "order-tracking": FeedRow[] | null;
  inventory: FeedRow[] | null;
  "order-submission": FeedRow[] | null;
  vendor: VendorRow[] | null;
}

/**
 * The lines of the kinds in `areas`, unsorted: one statement reads the facts of them all (the
 * mailboxes and schedules once for all kinds).
 */
export async function readLines(
  deps: Pick<Deps, "db" | "config">,
  areas: readonly DashboardArea[],
  now = new Date(),
): Promise<DashboardLine[]> {
  // As text, parsed here: through PGlite's worker one string crosses faster than the objects a
  // parsed json column would be copied as.
  const [row] = await deps.db.query<{ facts: string }>(
    "select dashboard_facts(string_to_array($1, ','))::text as facts",
    [areas.join(",")],
  );
  const facts: Facts = JSON.parse(row.facts);
  const mail = new Map(facts.mailboxes.map((m) => [m.id, m]));
  const sftp = new Map((facts.sftp ?? []).map((s) => [s.sourceId, s]));
  const lines: DashboardLine[] = [];
  for (const area of ["order-tracking", "inventory", "order-submission"] as const) {
    const rows = facts[area];
    if (rows && areas.includes(area)) lines.push(...feedLines(rows, area, mail, sftp, now));
  }
  if (facts.vendor && areas.includes("vendor")) lines.push(...vendorLines(facts.vendor, now));
  if (areas.includes("mailbox")) {
    lines.push(...mailboxLines(mail, deps.config.MAILBOX_ALERT_HOURS, now));
  }
  return lines;
}
