/**
 * Registers the order submission processing with today's registries (the feed with the ingest
 * seam, its job handlers and schedule with the job runner). Imported once, from `api/app.ts`;
 * with the feature list (`api/features.ts`) this file goes away and `feature_parts.ts` is spread
 * into the order submission feature.
 */
import { registerFeed } from "../../ingest/feeds.ts";
import { registerJobHandler, registerScheduleSource } from "../../jobs/handlers.ts";
import { submissionProcessing } from "./feature_parts.ts";

registerFeed(submissionProcessing.feed);
for (const [kind, handler] of Object.entries(submissionProcessing.jobHandlers)) {
  registerJobHandler(kind, handler);
}
for (const source of submissionProcessing.scheduleSources) registerScheduleSource(source);
