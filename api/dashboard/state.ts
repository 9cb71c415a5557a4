/**
 * The pure part of the dashboard: a source's state from its facts, the last result in words and
 * the order of the lines (docs/dashboard.md, "States"). No database here, so the rules are unit
 * tested on their own.
 */
import { countsText } from "../../shared/catalog/display_names.ts";
import {
  type DashboardLine,
  SOURCE_STATES,
  type SourceState,
} from "../../shared/contract/dashboard.ts";

/** The last import run of a feed source, as the dashboard needs it. */
export interface RunFacts {
  status: "queued" | "succeeded" | "failed" | "held";
  fileName: string;
  receivedAt: Date;
  finishedAt: Date | null;
  counts: Record<string, number> | null;
  error: string | null;
  /** Inventory only: where its generated file is (`held` until released). */
  deliveryStatus?: string | null;
  deliveryError?: string | null;
}

/** The default alert windows in hours, per kind (docs/dashboard.md, "Alert window"). */
export const DEFAULT_ALERT_HOURS = {
  "order-tracking": 24,
  inventory: 24,
  "order-submission": 72,
} as const;

const HOUR = 3_600_000;

/** "3 hours", "2 days", "45 minutes": a duration in words, rounded down to its largest unit. */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.floor(hours / 24), "day");
}

/** "every 5 minutes", "every 30 seconds": a schedule's interval in words. */
export function everyText(seconds: number): string {
  if (seconds < 60) return `Every ${seconds} seconds`;
  if (seconds % 3600 === 0) {
    const h = seconds / 3600;
    return h === 1 ? "Every hour" : `Every ${h} hours`;
  }
  const m = Math.round(seconds / 60);
  return m === 1 ? "Every minute" : `Every ${m} minutes`;
}

/** A run's outcome in plain words: "Succeeded: Rows: 3, New: 2", "Failed: <reason>". */
export function runResultText(run: RunFacts, area: string): string {
  // Zero counts say nothing to staff; the rows count stays (an empty file shows "Rows: 0").
  const counts = countsText(
    Object.fromEntries(
      Object.entries(run.counts ?? {}).filter(([key, value]) => value !== 0 || key === "rows"),
    ),
  );
  const withCounts = (head: string) => counts ? `${head}: ${counts}` : head;
  switch (run.status) {
    case "queued":
      return "Being processed";
    case "failed":
      return `Failed: ${run.error ?? "no reason recorded"}`;
    case "held":
      return area === "inventory"
        ? withCounts("Held for review")
        : withCounts("Waiting for its batch");
    default:
      if (run.deliveryStatus === "failed") {
        return `Delivery failed: ${run.deliveryError ?? "no reason recorded"}`;
      }
      return withCounts("Succeeded");
  }
}

/** What decides a feed source's state. */
export interface FeedSourceFacts {
  area: "order-tracking" | "inventory" | "order-submission";
  active: boolean;
  createdAt: Date;
  lastRun: RunFacts | null;
  alertWindowHours: number | null;
}

/** A feed source's state, the sentence saying why, and since when. */
export function feedSourceState(
  facts: FeedSourceFacts,
  now: Date,
): { state: SourceState; reason: string; since: Date | null } {
  const run = facts.lastRun;
  if (!facts.active) return { state: "inactive", reason: "Inactive: not checked.", since: null };
  if (run?.status === "failed") {
    return {
      state: "failing",
      reason: `The last file (${run.fileName}) failed.`,
      since: run.finishedAt ?? run.receivedAt,
    };
  }
  if (run?.deliveryStatus === "failed") {
    return {
      state: "failing",
      reason: "The last file's delivery failed.",
      since: run.finishedAt ?? run.receivedAt,
    };
  }
  if (facts.area === "inventory" && run?.deliveryStatus === "held") {
    return {
      state: "held",
      reason: "The last run is held for review: release it or upload a corrected file.",
      since: run.finishedAt ?? run.receivedAt,
    };
  }
  const window = facts.alertWindowHours;
  if (window !== null) {
    const from = run?.receivedAt ?? facts.createdAt;
    const silentMs = now.getTime() - from.getTime();
    if (silentMs > window * HOUR) {
      return {
        state: "stale",
        reason: run
          ? `No file for ${durationText(silentMs)} (alert after ${window} hours).`
          : `No file since it was set up ${
            durationText(silentMs)
          } ago (alert after ${window} hours).`,
        since: new Date(from.getTime() + window * HOUR),
      };
    }
  }
  return { state: "ok", reason: run ? "Working." : "Waiting for its first file.", since: null };
}

// One collator for every comparison: `localeCompare` with options builds a new one per call, which
// made sorting a few hundred lines cost tens of milliseconds.
const NAMES = new Intl.Collator("en", { sensitivity: "base" });

/** Failing, held and stale first, then ok, then inactive; by area, then name, within a state. */
export function compareLines(a: DashboardLine, b: DashboardLine): number {
  return SOURCE_STATES.indexOf(a.state) - SOURCE_STATES.indexOf(b.state) ||
    (a.area < b.area ? -1 : a.area > b.area ? 1 : 0) ||
    NAMES.compare(a.name, b.name) ||
    a.sourceId - b.sourceId;
}

/** How many lines are in each state. */
export function countStates(lines: readonly DashboardLine[]): Record<SourceState, number> {
  const counts = { failing: 0, held: 0, stale: 0, ok: 0, inactive: 0 };
  for (const line of lines) counts[line.state]++;
  return counts;
}

/** An ISO string or null. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
