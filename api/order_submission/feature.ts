/** The order submission feature area: sources, vendors, aliases (processing comes on top). */
import { orderSubmissionRoutes } from "./routes.ts";

/** The feature object the feature list mounts at the contract's prefix. */
export const orderSubmissionFeature = {
  name: "order-submission",
  flag: "submissionUser",
  mountPath: "/api/order-submission",
  routes: orderSubmissionRoutes,
} as const;
