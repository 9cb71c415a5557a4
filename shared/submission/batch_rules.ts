/**
 * When a batch of order e-mails is complete (`expectedNumberOfBatchEmails`) and when a
 * non-daily vendor is due (`vendorWantsNonDailySubmission`, `vendorCustomSubmitEveryXDay`).
 * Days are calendar days in the business time zone (an IANA name, "UTC" by default). The
 * decisions are in docs/order_submission.md, "Batches".
 */

/** Default every-X-days of a non-daily vendor whose number is empty. */
export const DEFAULT_EVERY_X_DAYS = 7;

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function dayIn(at: Date, timeZone = "UTC"): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** Whole days from day `a` to day `b` (`YYYY-MM-DD`); negative when `b` is earlier. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Adds days to a `YYYY-MM-DD` day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The facts of one source's batch of one day. */
export interface BatchInput {
  /** The source's `expectedNumberOfBatchEmails` (values below 1 count as 1). */
  expected: number;
  /** The batch's day (the day its e-mails arrived, in the business time zone). */
  day: string;
  /** Matching e-mails of that day received and not yet sent on. */
  pending: number;
  /** True when a batch of that day was already sent (it reached the expected count). */
  completedEarlier: boolean;
  now: Date;
  timeZone?: string;
}

/** What to do with a day's pending e-mails. */
export type BatchDecision =
  | { action: "wait"; missing: number }
  | { action: "send"; reason: "complete" | "extra_after_complete" | "day_ended_short" };

/**
 * Decides a day's batch:
 * - `complete`: the expected number of e-mails (or more) arrived: send them as one batch;
 * - `extra_after_complete`: the day's batch was already sent and another matching e-mail
 *   arrives the same day: it is sent on its own at once (a late correction must not wait);
 * - `day_ended_short`: the day is over (it is a later day in the time zone) with fewer e-mails
 *   than expected: what arrived is sent, and the run carries a warning "short batch: n of m";
 * - otherwise `wait`, with the number still missing.
 *
 * @example decideBatch({ expected: 3, day: "2026-11-23", pending: 2, completedEarlier: false,
 *   now: new Date("2026-11-23T15:00:00Z") }) // { action: "wait", missing: 1 }
 */
export function decideBatch(input: BatchInput): BatchDecision {
  const expected = Math.max(1, Math.floor(input.expected));
  if (input.pending <= 0) return { action: "wait", missing: expected };
  if (input.completedEarlier) return { action: "send", reason: "extra_after_complete" };
  if (input.pending >= expected) return { action: "send", reason: "complete" };
  if (dayIn(input.now, input.timeZone) > input.day) {
    return { action: "send", reason: "day_ended_short" };
  }
  return { action: "wait", missing: expected - input.pending };
}

/** A vendor's schedule facts. */
export interface VendorDueInput {
  vendorWantsNonDailySubmission: boolean;
  vendorCustomSubmitEveryXDay: number | null;
  /** When the vendor was last sent orders (any batch), null when never. */
  lastSentAt: Date | null;
  /** When the oldest accumulated, unsent row arrived; null when nothing waits. */
  oldestPendingAt: Date | null;
  now: Date;
  timeZone?: string;
}

/** Whether the vendor is sent its rows now, and the day it next will be. */
export interface VendorDue {
  due: boolean;
  /** The first day the vendor is due (today when due); null when nothing waits. */
  nextDueDay: string | null;
}

/**
 * Whether a vendor is sent its accumulated rows now. Daily vendors are due whenever rows wait.
 * A non-daily vendor is due when X calendar days have passed since its last sending, or, before
 * its first sending, since the day its oldest waiting row arrived; everything accumulated goes
 * in one e-mail. An empty every-X-days counts as {@link DEFAULT_EVERY_X_DAYS}.
 *
 * @example isVendorDue({ vendorWantsNonDailySubmission: true, vendorCustomSubmitEveryXDay: 3,
 *   lastSentAt: new Date("2026-11-20T09:00:00Z"), oldestPendingAt: new Date("2026-11-21T09:00:00Z"),
 *   now: new Date("2026-11-23T01:00:00Z") }) // { due: true, nextDueDay: "2026-11-23" }
 */
export function isVendorDue(input: VendorDueInput): VendorDue {
  if (input.oldestPendingAt === null) return { due: false, nextDueDay: null };
  const tz = input.timeZone;
  const today = dayIn(input.now, tz);
  if (!input.vendorWantsNonDailySubmission) return { due: true, nextDueDay: today };
  const every = input.vendorCustomSubmitEveryXDay && input.vendorCustomSubmitEveryXDay >= 1
    ? Math.floor(input.vendorCustomSubmitEveryXDay)
    : DEFAULT_EVERY_X_DAYS;
  const from = dayIn(input.lastSentAt ?? input.oldestPendingAt, tz);
  const dueDay = addDays(from, every);
  return dueDay <= today ? { due: true, nextDueDay: today } : { due: false, nextDueDay: dueDay };
}
