/**
 * GET /api/dashboard: one line per source of the areas the user may see (issue 22, "Home as the
 * dashboard"; docs/dashboard.md). The web page, the CLI and the alerts read states, their words
 * and their colours from here.
 */
import { z } from "zod";

/** A source's state, most urgent first (the order of the lines). */
export const SOURCE_STATES = ["failing", "held", "stale", "ok", "inactive"] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

/** The states that are an incident (alerted once, "recovered" when they end). */
export const INCIDENT_STATES: readonly SourceState[] = ["failing", "held", "stale"];

/** A state in words. */
export const STATE_LABELS: Record<SourceState, string> = {
  failing: "Failing",
  held: "Held",
  stale: "Stale",
  ok: "OK",
  inactive: "Inactive",
};

/** A state's colour (a Radix Themes accent), always shown with its words. */
export const STATE_COLOURS: Record<SourceState, "red" | "amber" | "orange" | "green" | "gray"> = {
  failing: "red",
  held: "amber",
  stale: "orange",
  ok: "green",
  inactive: "gray",
};

/** The kinds of source a line can be (run areas are the feeds' names). */
export const DASHBOARD_AREAS = [
  "order-tracking",
  "inventory",
  "order-submission",
  "vendor",
  "mailbox",
] as const;
export type DashboardArea = (typeof DASHBOARD_AREAS)[number];

/** An area in words (the sources hub's titles). */
export const AREA_LABELS: Record<DashboardArea, string> = {
  "order-tracking": "Order Tracking",
  inventory: "Inventory",
  "order-submission": "Order Submission",
  vendor: "Submission Vendor",
  mailbox: "Mailbox",
};

/** One source on the dashboard. */
export const dashboardLine = z.object({
  area: z.enum(DASHBOARD_AREAS),
  sourceId: z.number(),
  name: z.string(),
  state: z.enum(SOURCE_STATES),
  /** Why it is in that state, one sentence ("The last run failed: …"). */
  reason: z.string(),
  /** Since when it is in that state, when known (ISO). */
  since: z.string().nullable(),
  lastFileName: z.string().nullable(),
  lastFileAt: z.string().nullable(),
  /** The last run (or poll, or vendor e-mail) in words; null when there was none. */
  lastResult: z.string().nullable(),
  lastResultAt: z.string().nullable(),
  /** When it is next checked (ISO); null when on arrival or not at all (see nextCheckText). */
  nextCheckAt: z.string().nullable(),
  /** The next check in words ("Listening: on arrival", "Every 5 minutes", "Not checked"). */
  nextCheckText: z.string(),
  /** Silent for longer than this is "stale"; null: this kind is never stale. */
  alertWindowHours: z.number().nullable(),
  /** The source's page in the web app. */
  sourcePath: z.string(),
  /** Its runs (`/runs?area=…&sourceId=…`); null for kinds without runs (mailboxes). */
  runsPath: z.string().nullable(),
});
export type DashboardLine = z.infer<typeof dashboardLine>;

/** The whole answer: the lines (failing, held, stale first) and how many are in each state. */
export const dashboardAnswer = z.object({
  generatedAt: z.string(),
  lines: z.array(dashboardLine),
  counts: z.object({
    failing: z.number(),
    held: z.number(),
    stale: z.number(),
    ok: z.number(),
    inactive: z.number(),
  }),
});
export type DashboardAnswer = z.infer<typeof dashboardAnswer>;
