/**
 * Payloads of GET /api/activity, the activity log (docs/activity.md), and the plain-words line
 * the web page and the CLI show for an entry. Beyond the spec's contract (issue 23).
 */
import { z } from "zod";
import { boundedString, MAX_LENGTH } from "./fields.ts";

/** What was done. */
export const ACTIVITY_ACTIONS = [
  "created",
  "changed",
  "deleted",
  "released",
  "re-ran",
  "manually processed",
  "signed in",
  "sign-in failed",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** The kinds of record the log names, with the words used in its lines. */
export const ENTITY_TYPES = {
  "email-source": "e-mail source",
  "order-tracking-source": "order tracking source",
  "inventory-source": "inventory source",
  "order-submission-source": "order submission source",
  "vendor": "vendor",
  "notification-setting": "notification setting",
  "user": "user",
  "access-token": "access token",
  "run": "run",
} as const;
export type EntityType = keyof typeof ENTITY_TYPES;
export const ENTITY_TYPE_KEYS = Object.keys(ENTITY_TYPES) as [EntityType, ...EntityType[]];

/**
 * One changed field. `hidden` marks a value that is never kept: a secret ("password changed")
 * or a file ("file changed"); `before` and `after` are then absent.
 */
export const activityChange = z.object({
  field: z.string(),
  label: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  hidden: z.enum(["secret", "file"]).optional(),
});
export type ActivityChange = z.infer<typeof activityChange>;

/** One entry of the log. */
export const activityEntry = z.object({
  id: z.number(),
  at: z.string().describe("ISO 8601 time"),
  userId: z.number().nullable(),
  /** The user's name then; for a failed sign-in, the name that was tried. */
  username: z.string(),
  action: z.enum(ACTIVITY_ACTIONS),
  entityType: z.enum(ENTITY_TYPE_KEYS),
  entityId: z.number().nullable(),
  entityName: z.string(),
  /** The client's address. */
  address: z.string(),
  changes: z.array(activityChange),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

/** A date (`2026-11-25`) or a time (`2026-11-25T10:00:00Z`). */
const dateOrTime = z.string().trim().max(40).refine(
  (value) =>
    /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
    !Number.isNaN(Date.parse(value)),
  "Use a date like 2026-11-25 or a time like 2026-11-25T10:00:00Z",
);

/** Page sizes of the list. */
export const ACTIVITY_PAGE_SIZES = [25, 50, 100, 200] as const;

/**
 * The filters of GET /api/activity (query string). `to` given as a date includes that whole
 * day; `user` matches the username case-insensitively.
 */
export const activityQuery = z.object({
  user: boundedString(MAX_LENGTH.username).trim().optional(),
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  entityType: z.enum(ENTITY_TYPE_KEYS).optional(),
  entityId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  from: dateOrTime.optional(),
  to: dateOrTime.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ActivityQuery = z.input<typeof activityQuery>;

/** The count of matching entries stops here; `totalCapped` then says there are more. */
export const ACTIVITY_COUNT_CAP = 10_000;

/** One page of the log, newest first. */
export const activityPage = z.object({
  entries: z.array(activityEntry),
  /** Matching entries, at most {@link ACTIVITY_COUNT_CAP}. */
  total: z.number(),
  /** True when more than {@link ACTIVITY_COUNT_CAP} entries match. */
  totalCapped: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
});
export type ActivityPage = z.infer<typeof activityPage>;

/** A change in words: `Subject`, or `password changed` for a secret, `file changed` for a file. */
export function describeChange(change: ActivityChange): string {
  if (change.hidden === "secret") {
    // "Password" → "password", "SFTP password" stays.
    const label = /^.[a-z]/.test(change.label)
      ? change.label.charAt(0).toLowerCase() + change.label.slice(1)
      : change.label;
    return `${label} changed`;
  }
  if (change.hidden === "file") return `${change.label} (file changed)`;
  return change.label;
}

/** A field's value in words, short enough for a table cell. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if (value === true) return "Yes";
  if (value === false) return "No";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The entry as one line of plain words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeActivity } from "./activity.ts";
 * assert.equal(
 *   describeActivity({
 *     id: 1, at: "2026-11-25T10:00:00Z", userId: 2, username: "alice", action: "changed",
 *     entityType: "order-tracking-source", entityId: 3, entityName: "Acme", address: "",
 *     changes: [{ field: "subject_value", label: "Subject" }, { field: "active_status", label: "Active" }],
 *   }),
 *   'alice changed order tracking source "Acme": Subject, Active',
 * );
 * ```
 */
export function describeActivity(entry: ActivityEntry): string {
  const who = entry.username || "someone";
  if (entry.action === "signed in") return `${who} signed in`;
  if (entry.action === "sign-in failed") return `Sign-in failed for "${who}"`;
  const what = ENTITY_TYPES[entry.entityType] ?? entry.entityType;
  const name = entry.entityType === "run" && entry.entityId !== null
    ? ` ${entry.entityId}${entry.entityName ? ` ("${entry.entityName}")` : ""}`
    : entry.entityName
    ? ` "${entry.entityName}"`
    : entry.entityId !== null
    ? ` ${entry.entityId}`
    : "";
  const changes = entry.action === "changed" && entry.changes.length
    ? `: ${entry.changes.map(describeChange).join(", ")}`
    : "";
  const newRun = entry.changes.find((change) => change.field === "new_run")?.after;
  const as = entry.action === "re-ran" && newRun ? ` as run ${newRun}` : "";
  return `${who} ${entry.action} ${what}${name}${changes}${as}`;
}
