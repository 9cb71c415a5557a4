/** The order submission feature area: sources, vendors, aliases (processing comes on top). */
import { defineFeature } from "../feature.ts";
import { orderSubmissionRoutes } from "./routes.ts";

/** Mounted at the contract's prefix; its users need submissionUser. */
export const orderSubmission = defineFeature({
  name: "order_submission",
  flag: "submissionUser",
  routes: [{ path: "/api/order-submission", router: orderSubmissionRoutes }],
});
