/** Health: `GET /health` for load balancers and the compose file, no login. */
import { defineFeature } from "../feature.ts";
import { healthRoutes } from "./routes.ts";

/** The health feature. */
export const health = defineFeature({
  name: "health",
  flag: "public",
  routes: [{ path: "/health", router: healthRoutes }],
});
