/**
 * The two checks the notification contract's schemas run on a time zone and a cron expression.
 * They live apart from schedule.ts because the contract imports them and schedule.ts imports the
 * contract's types: one module holding both made an import loop (tests/layers_test.ts).
 */
import { Cron } from "croner";

/** True when `name` is a time zone Intl knows (an IANA name such as "Europe/Berlin", or "UTC"). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a cron expression's syntax, or null when croner accepts it. Five fields
 * (minute hour day month weekday) or croner's nicknames (@daily); a seconds field is accepted
 * only as a single number, since notifications run at most once a minute.
 */
export function cronProblem(expression: string): string | null {
  const trimmed = expression.trim();
  if (trimmed === "") return "Cron expression is required";
  const parts = trimmed.split(/\s+/);
  if (!trimmed.startsWith("@") && parts.length >= 6 && !/^\d{1,2}$/.test(parts[0])) {
    return "Notifications run at most once a minute: the seconds field must be a single number";
  }
  try {
    new Cron(trimmed, { paused: true, timezone: "UTC" });
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `Invalid cron expression: ${message.replace(/^CronPattern:\s*/, "")}`;
  }
}
