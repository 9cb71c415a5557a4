/**
 * Payloads of the run history (GET /api/runs, /api/runs/{id}, /api/runs/daily; docs/runs.md):
 * the runs of every area the user has, in words. Beyond the spec's contract (issue 22). The
 * import-run calls (/api/import-runs) stay as they are; this is the same table seen by area.
 */
import { z } from "zod";
import { dbId } from "./fields.ts";

/**
 * The areas whose runs the history shows, with the flag that opens each. `vendor-sends` are the
 * e-mails the order submission outbox sent to vendors (one "run" per e-mail).
 */
export const RUN_AREAS = {
  "order-tracking": { label: "Order Tracking", flag: "orderUser" },
  "inventory": { label: "Inventory", flag: "inventoryUser" },
  "order-submission": { label: "Order Submission", flag: "submissionUser" },
  "vendor-sends": { label: "Vendor E-mails", flag: "submissionUser" },
} as const;
export type RunArea = keyof typeof RUN_AREAS;
export const RUN_AREA_KEYS = Object.keys(RUN_AREAS) as [RunArea, ...RunArea[]];

/**
 * A run's state in the history: `row-errors` is a succeeded run that refused some rows;
 * `running` is still queued or being processed (an e-mail still being sent).
 */
export const RUN_STATES = {
  "succeeded": "Succeeded",
  "row-errors": "With row errors",
  "failed": "Failed",
  "held": "Held",
  "running": "Running",
} as const;
export type RunState = keyof typeof RUN_STATES;
export const RUN_STATE_KEYS = Object.keys(RUN_STATES) as [RunState, ...RunState[]];

/** A date (`2026-11-25`) or a time (`2026-11-25T10:00:00Z`). */
const dateOrTime = z.string().trim().max(40).refine(
  (value) =>
    /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
    !Number.isNaN(Date.parse(value)),
  "Use a date like 2026-11-25 or a time like 2026-11-25T10:00:00Z",
);

/**
 * The filters of GET /api/runs (query string; the dashboard links with these names). `to` given
 * as a date includes that whole day. `sourceId` needs `area` (ids are per area).
 */
export const runsQuery = z.object({
  area: z.enum(RUN_AREA_KEYS).optional(),
  sourceId: dbId.min(1).optional(),
  state: z.enum(RUN_STATE_KEYS).optional(),
  from: dateOrTime.optional(),
  to: dateOrTime.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type RunsQuery = z.input<typeof runsQuery>;

/** One line of the history. */
export const runListItem = z.object({
  /** The import run's id; for `vendor-sends`, the e-mail's id (its `kind` is `send`). */
  id: z.number().int(),
  kind: z.enum(["run", "send"]),
  area: z.enum(RUN_AREA_KEYS),
  sourceId: z.number().int(),
  /** The source's (or vendor's) name; "(deleted source)" when it is gone. */
  sourceName: z.string(),
  trigger: z.string(),
  state: z.enum(RUN_STATE_KEYS),
  fileName: z.string(),
  receivedAt: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The counts in words: "2 new orders, 1 row for an unknown vendor". */
  result: z.string(),
  rowErrorCount: z.number().int(),
  error: z.string().nullable(),
});
export type RunListItem = z.infer<typeof runListItem>;

/** GET /api/runs: newest first, at most `limit`. */
export const runList = z.object({ runs: z.array(runListItem) });
export type RunList = z.infer<typeof runList>;

/** Row errors of one reason: how many, and the first few rows. */
export const rowErrorGroup = z.object({
  reason: z.string(),
  column: z.string().nullable(),
  count: z.number().int(),
  rows: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export type RowErrorGroup = z.infer<typeof rowErrorGroup>;

/** GET /api/runs/{id}: one import run in words. */
export const runDetails = runListItem.extend({
  counts: z.record(z.string(), z.number()),
  warnings: z.array(z.string()),
  log: z.array(z.string()),
  rowErrorGroups: z.array(rowErrorGroup),
  rerunOf: z.number().int().nullable(),
  /** The stored file can be downloaded and run again. */
  hasFile: z.boolean(),
  /** A held inventory run the caller may release (inventory flag). */
  canRelease: z.boolean(),
});
export type RunDetails = z.infer<typeof runDetails>;

/** The most days GET /api/runs/daily answers. */
export const MAX_SERIES_DAYS = 90;

/** The filters of GET /api/runs/daily. `sourceId` needs `area`. */
export const runSeriesQuery = z.object({
  area: z.enum(RUN_AREA_KEYS).optional(),
  sourceId: dbId.min(1).optional(),
  days: z.coerce.number().int().min(1).max(MAX_SERIES_DAYS).default(30),
});
export type RunSeriesQuery = z.input<typeof runSeriesQuery>;

/** One UTC day of the series; days without runs are there with zeros. */
export const runSeriesDay = z.object({
  day: z.string().describe("YYYY-MM-DD (UTC)"),
  succeeded: z.number().int(),
  rowErrors: z.number().int(),
  failed: z.number().int(),
  held: z.number().int(),
  /** Rows (or items) the day's finished runs read. */
  rows: z.number().int(),
  /** Order tracking: orders new and updated by the day's runs. */
  newOrders: z.number().int().optional(),
  updatedOrders: z.number().int().optional(),
  /** Vendor e-mails sent that day. */
  emailsSent: z.number().int().optional(),
});
export type RunSeriesDay = z.infer<typeof runSeriesDay>;

/** GET /api/runs/daily: the last `days` days, oldest first (today included). */
export const runSeries = z.object({
  areas: z.array(z.enum(RUN_AREA_KEYS)),
  days: z.array(runSeriesDay),
});
export type RunSeries = z.infer<typeof runSeries>;

/** GET /api/runs/sources: the sources of the caller's areas, for the history's Source filter. */
export const runSources = z.array(z.object({
  area: z.enum(RUN_AREA_KEYS),
  id: z.number().int(),
  name: z.string(),
}));
export type RunSources = z.infer<typeof runSources>;
