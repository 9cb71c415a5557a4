/**
 * What the order submission feature object needs from the processing part:
 * `{ feed, jobHandlers, scheduleSources }` (DESIGN.md section 4, `api/feature.ts`), spread into
 * `orderSubmission` in `../feature.ts`; `registerFeatures` registers them at start.
 */
import { orderSubmissionFeed } from "./feed.ts";
import { JOB_HANDLERS, releaseSchedule } from "./jobs.ts";

/** The processing parts of the order submission feature. */
export const submissionProcessing = {
  feed: orderSubmissionFeed,
  jobHandlers: JOB_HANDLERS,
  scheduleSources: [releaseSchedule],
};
