/**
 * The one list of feature areas. The server mounts their routes in this order (`api/app.ts`),
 * and the server, the worker and the CLI register their feeds, job handlers, schedules and home
 * statistics from it (`registerFeatures` in `openDeps`). Adding an area: docs/conventions.md,
 * "Adding a feature area".
 */
import type { Feature, FeedNames } from "./feature.ts";
import { accounts } from "./accounts/feature.ts";
import { health } from "./health/feature.ts";
import { homeStats } from "./home_stats/feature.ts";
import { emailSources } from "./email_sources/feature.ts";
import { importRuns } from "./import_runs/feature.ts";
import { orderTracking } from "./order_tracking/feature.ts";
import { inventory } from "./inventory/feature.ts";
import { orderSubmission } from "./order_submission/feature.ts";
import { notifications } from "./notifications/feature.ts";
import { activity } from "./activity/feature.ts";
import { sampleFiles } from "./sample_files/feature.ts";
import { urlFeeds } from "./url_feeds/feature.ts";
import { runs } from "./runs/feature.ts";
import { dashboard } from "./dashboard/feature.ts";

/** Every feature area, in mount order (home statistics before order tracking: shared prefix). */
export const FEATURES = [
  accounts,
  health,
  homeStats,
  emailSources,
  importRuns,
  orderTracking,
  inventory,
  orderSubmission,
  notifications,
  activity,
  sampleFiles,
  urlFeeds,
  runs,
  dashboard,
] as const;

/** The feeds in use, e.g. `"order-tracking"`. */
export type FeedName = FeedNames<typeof FEATURES>;

/**
 * The areas that declare `writesSessions`: after their state-changing requests the process reads
 * `session_changes` again (api/app.ts); tests/session_writers_test.ts holds that no other area
 * writes users, sessions or tokens.
 */
export const SESSION_WRITERS: readonly Feature[] = FEATURES.filter((feature: Feature) =>
  feature.writesSessions === true
);
