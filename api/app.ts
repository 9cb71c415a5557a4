/**
 * Builds the HTTP application from the feature routers. `AppType` is what the web app's typed
 * client is generated from.
 */
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Deps } from "./deps.ts";
import { csrfGuard } from "./http/csrf.ts";
import { handleError } from "./http/errors.ts";
import { serveSpa } from "./http/spa.ts";
import { authRoutes } from "./routes/auth/routes.ts";
import { healthRoutes } from "./routes/health/routes.ts";
import { accountRoutes } from "./routes/accounts/routes.ts";
import { homeStatsRoutes } from "./routes/home_stats/routes.ts";
import { emailSourceRoutes } from "./routes/email_sources/routes.ts";
import { importRunRoutes } from "./routes/import_runs/routes.ts";
import { orderTrackingRoutes } from "./routes/order_tracking/routes.ts";
import { orderTrackingSourceRoutes } from "./routes/order_tracking_sources/routes.ts";
import { notificationsFeature, registerNotificationJobs } from "./notifications/feature.ts";

// Notifications' job handlers and schedule source (until api/features.ts registers every feature).
registerNotificationJobs();

/** The API routes alone; their type is the contract the web app calls through. */
function apiRoutes() {
  return new Hono<AppEnv>()
    .route("/auth", authRoutes)
    .route("/health", healthRoutes)
    .route("/api/accounts", accountRoutes)
    .route("/api/order-tracking/list/update-stats", homeStatsRoutes)
    .route("/api/email-sources", emailSourceRoutes)
    .route("/api/import-runs", importRunRoutes)
    .route("/api/order-tracking", orderTrackingRoutes)
    .route("/api/order-tracking-sources", orderTrackingSourceRoutes)
    .route(notificationsFeature.mountPath, notificationsFeature.routes);
}

/** The routes' type for `hc<AppType>()`. */
export type AppType = ReturnType<typeof apiRoutes>;

/**
 * The whole application over `deps`; `webDist` serves the built SPA when given.
 *
 * @example
 * const app = createApp(deps, { webDist: "web/dist" });
 * Deno.serve(app.fetch);
 */
export function createApp(deps: Deps, options: { webDist?: string } = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}.` }, 404));
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix Themes sets inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: "same-origin",
    }),
  );
  app.use(async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  app.use(async (c, next) => {
    await next();
    // API answers depend on the session: never cached by the browser or a proxy.
    if (!c.res.headers.has("cache-control") && !c.req.path.startsWith("/assets/")) {
      c.res.headers.set("cache-control", "no-store");
    }
  });
  app.use(csrfGuard);
  app.route("/", apiRoutes());
  if (options.webDist) serveSpa(app, options.webDist);
  return app;
}
