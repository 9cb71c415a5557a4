/** Health: `GET /health` and `GET /ready` for load balancers and the compose file, no login. */
import { defineFeature } from "../feature.ts";
import { healthDocs } from "./docs.ts";
import { healthRoutes, readyRoutes } from "./routes.ts";

/** The health feature. */
export const health = defineFeature({
  name: "health",
  flag: "public",
  routes: [
    { path: "/health", router: healthRoutes },
    { path: "/ready", router: readyRoutes },
  ],
  docs: healthDocs,
});
