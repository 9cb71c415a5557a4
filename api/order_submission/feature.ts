/** The order submission feature area: sources, vendors, aliases, and the processing of order e-mails. */
import { defineFeature } from "../feature.ts";
import { orderSubmissionDocs } from "./docs.ts";
import { orderSubmissionRoutes } from "./routes.ts";
import { submissionProcessing } from "./processing/feature_parts.ts";

/** Mounted at the contract's prefix; its users need submissionUser. */
export const orderSubmission = defineFeature({
  name: "order_submission",
  flag: "submissionUser",
  routes: [{ path: "/api/order-submission", router: orderSubmissionRoutes }],
  // The processing: the feed, its send and release jobs, the hourly release schedule.
  ...submissionProcessing,
  docs: orderSubmissionDocs,
});
