/**
 * Schedule arithmetic of notification settings (docs/notifications.md): when a setting is next
 * due, whether it is due now (one send after any downtime), which data window a mail covers, and
 * the cron check behind validate-cron. Pure: the clock is always passed in.
 */
import { Cron } from "croner";
import type {
  CronValidationResult,
  NotificationInterval,
  NotificationSetting,
} from "../contract/notifications.ts";
import { cronProblem, isTimeZone } from "./cron.ts";

export { cronProblem, isTimeZone };

/** Daily, Weekly and Monthly mails go out at this hour (local time of the setting's zone). */
export const SEND_HOUR = 7;
/** Weekly with no day chosen ("Any day") goes out on this weekday (1 Monday). */
export const DEFAULT_WEEKDAY = 1;
/** Monthly mails go out on this day of the month. */
export const MONTHLY_DAY = 1;
/** The longest data window, also the cap of a Custom setting's window. */
export const MAX_WINDOW_DAYS = 30;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Due times counted one by one after downtime before falling back to croner's previousRuns. */
const MISSED_COUNT_CAP = 1_000;

/** The fields of a setting the schedule depends on. */
export type ScheduleSetting =
  & Pick<
    NotificationSetting,
    "notificationEnabled" | "notificationInterval" | "notificationDayOfWeek" | "cronExpression"
  >
  & { timeZone?: string };

/** The time zone of this process (the TZ environment variable, else the system's); UTC if unknown. */
export function serverTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : "UTC";
}

/** A setting's zone: its own when valid, else the server's. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isTimeZone(timeZone) ? timeZone : serverTimeZone();
}

/**
 * The answer of validate-cron: valid with the next run after `now` in `timeZone`, or invalid with
 * the reason (also when the expression never runs, such as February 30th).
 */
export function validateCron(
  expression: string,
  now: Date,
  timeZone?: string | null,
): CronValidationResult {
  const problem = cronProblem(expression);
  if (problem) return { isValid: false, message: problem, nextExecution: null };
  const zone = resolveTimeZone(timeZone);
  const next = new Cron(expression.trim(), { paused: true, timezone: zone }).nextRun(now);
  if (!next) {
    return { isValid: false, message: "The cron expression never runs", nextExecution: null };
  }
  return {
    isValid: true,
    message: `Valid cron expression; next run ${formatInZone(next, zone)} (${zone})`,
    nextExecution: next.toISOString(),
  };
}

/** The cron pattern a setting runs on, or null for None (and an empty Custom expression). */
export function schedulePattern(setting: ScheduleSetting): string | null {
  switch (setting.notificationInterval) {
    case "Daily":
      return `0 ${SEND_HOUR} * * *`;
    case "Weekly": {
      const day = setting.notificationDayOfWeek || DEFAULT_WEEKDAY; // null/0: "Any day"
      return `0 ${SEND_HOUR} * * ${day % 7}`; // cron: 0 Sunday .. 6 Saturday
    }
    case "Monthly":
      return `0 ${SEND_HOUR} ${MONTHLY_DAY} * *`;
    case "Custom": {
      const expression = (setting.cronExpression ?? "").trim();
      return expression === "" || cronProblem(expression) ? null : expression;
    }
    default:
      return null;
  }
}

/**
 * The first due time strictly after `after`, in the setting's zone (`timeZone`, else
 * `setting.timeZone`, else the server's); null for None or a Custom expression that never runs.
 * A local time skipped by a DST change runs at the first instant after the gap; a repeated one runs
 * once (croner's rules).
 */
export function nextDue(setting: ScheduleSetting, after: Date, timeZone?: string): Date | null {
  const pattern = schedulePattern(setting);
  if (!pattern) return null;
  const zone = resolveTimeZone(timeZone ?? setting.timeZone);
  return new Cron(pattern, { paused: true, timezone: zone }).nextRun(after);
}

/** What `dueNow` decided. */
export interface DueDecision {
  /** Send now (once). */
  due: boolean;
  /** The latest due time at or before now that this send stands for; store it as lastScheduled. */
  scheduledFor: Date | null;
  /** Due times skipped (not sent) because they were passed while nothing ran. */
  missed: number;
  /** The next due time after now (after this send), null for never. */
  nextAt: Date | null;
}

/**
 * Whether a setting is due at `now`. `lastScheduled` is the due time last handled (or, before the
 * first send, when the schedule was set up); `lastSent` is when the last scheduled mail was
 * accepted. Counting starts at the later of the two, so however many due times passed while the
 * server was down, ONE send is due, standing for the latest of them; the rest are `missed`.
 * Disabled settings and None are never due.
 */
export function dueNow(
  setting: ScheduleSetting,
  lastSent: Date | null,
  lastScheduled: Date,
  now: Date,
  timeZone?: string,
): DueDecision {
  const zone = resolveTimeZone(timeZone ?? setting.timeZone);
  if (!setting.notificationEnabled) {
    return { due: false, scheduledFor: null, missed: 0, nextAt: null };
  }
  const nextAt = nextDue(setting, now, zone);
  const anchor = lastSent && lastSent > lastScheduled ? lastSent : lastScheduled;
  const first = nextDue(setting, anchor, zone);
  if (!first || first > now) return { due: false, scheduledFor: null, missed: 0, nextAt: first };
  let latest = first;
  let count = 1;
  for (;;) {
    const following = nextDue(setting, latest, zone);
    if (!following || following > now) break;
    latest = following;
    count++;
    if (count >= MISSED_COUNT_CAP) {
      // Very frequent Custom schedules after long downtime: jump to the last due time.
      const pattern = schedulePattern(setting)!;
      const [previous] = new Cron(pattern, { paused: true, timezone: zone }).previousRuns(1, now);
      if (previous && previous > latest) latest = previous;
      break;
    }
  }
  return { due: true, scheduledFor: latest, missed: count - 1, nextAt };
}

/** The period a mail reports on. */
export interface DataWindow {
  from: Date;
  to: Date;
}

/**
 * The data window of a mail sent at `now`: Daily the last 24 hours, Weekly 7 days, Monthly 30
 * days; Custom and None (test sends) since the last send, at most 30 days, and the last 24 hours
 * (Custom) or 7 days (None) when never sent.
 */
export function windowFor(
  interval: NotificationInterval,
  now: Date,
  lastSent: Date | null = null,
): DataWindow {
  const back = (ms: number) => ({ from: new Date(now.getTime() - ms), to: new Date(now) });
  switch (interval) {
    case "Daily":
      return back(DAY);
    case "Weekly":
      return back(7 * DAY);
    case "Monthly":
      return back(MAX_WINDOW_DAYS * DAY);
    default: {
      if (!lastSent || lastSent >= now) return back(interval === "Custom" ? DAY : 7 * DAY);
      const span = Math.min(now.getTime() - lastSent.getTime(), MAX_WINDOW_DAYS * DAY);
      return back(span);
    }
  }
}

/** "2026-03-08 03:00" in the given zone (mail texts and messages). */
export function formatInZone(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}
