/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), evaluated in UTC, for
 * URL feeds' schedules (docs/url_feeds.md). Each field takes `*`, a number, a range `a-b`, a step
 * `*\/n` or `a-b/n`, and lists of those separated by commas; day-of-week 0 and 7 are Sunday. As in
 * classic cron, when both day fields are restricted a day matching either one is a match.
 */

interface Field {
  name: string;
  min: number;
  max: number;
}

const FIELDS: Field[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
];

/** A parsed expression: the allowed values of each field, and whether the day fields were `*`. */
export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
}

function parseField(text: string, field: Field): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`The ${field.name} field "${text}" is not valid.`);
    const star = match[1] === "*";
    const from = star ? field.min : Number(match[2]);
    const to = star ? field.max : match[3] !== undefined ? Number(match[3]) : from;
    const step = match[4] !== undefined ? Number(match[4]) : 1;
    if (from < field.min || to > field.max || from > to) {
      throw new Error(
        `The ${field.name} field "${text}" is outside ${field.min}–${field.max}.`,
      );
    }
    if (step < 1) throw new Error(`The ${field.name} field "${text}" has a step of 0.`);
    // "5/15" means from 5 to the end in steps of 15, as in Vixie cron.
    const end = !star && match[3] === undefined && match[4] !== undefined ? field.max : to;
    for (let v = from; v <= end; v += step) values.add(v);
  }
  return values;
}

/**
 * Parses an expression; throws an Error whose message names the wrong field.
 *
 * @example
 * ```ts
 * import { parseCron } from "./cron.ts";
 * console.assert(parseCron("*\/15 6-18 * * 1-5").minutes.size === 4);
 * ```
 */
export function parseCron(expression: string): Cron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw new Error(
      "A cron expression has five fields: minute hour day-of-month month day-of-week.",
    );
  }
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => parseField(p, FIELDS[i]));
  if (weekdays.has(7)) weekdays.add(0);
  return {
    minutes,
    hours,
    days,
    months,
    weekdays,
    anyDay: parts[2] === "*",
    anyWeekday: parts[4] === "*",
  };
}

/** The error of an expression, or null when it is valid (for form and request validation). */
export function cronError(expression: string): string | null {
  try {
    parseCron(expression);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function dayMatches(cron: Cron, date: Date): boolean {
  const dom = cron.days.has(date.getUTCDate());
  const dow = cron.weekdays.has(date.getUTCDay());
  if (cron.anyDay && cron.anyWeekday) return true;
  if (cron.anyDay) return dow;
  if (cron.anyWeekday) return dom;
  return dom || dow;
}

/**
 * The first minute strictly after `after` that the expression matches (UTC), or null when none
 * comes within about five years (e.g. "0 0 31 2 *").
 *
 * @example
 * ```ts
 * import { nextCronTime, parseCron } from "./cron.ts";
 * const next = nextCronTime(parseCron("30 6 * * *"), new Date("2026-11-25T07:00:00Z"));
 * console.assert(next?.toISOString() === "2026-11-26T06:30:00.000Z");
 * ```
 */
export function nextCronTime(cron: Cron, after: Date): Date | null {
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 86_400_000;
  while (t.getTime() <= limit) {
    if (!cron.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(cron, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!cron.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else if (!cron.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
    } else return t;
  }
  return null;
}
