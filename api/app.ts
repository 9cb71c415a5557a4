/**
 * Builds the HTTP application from the feature routers. `AppType` is what the web app's typed
 * client is generated from.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Deps } from "./deps.ts";
import { limitBodies } from "./http/body_limit.ts";
import { csrfGuard } from "./http/csrf.ts";
import { badRequest, handleError } from "./http/errors.ts";
import { serveSpa } from "./http/spa.ts";
import { authRoutes } from "./routes/auth/routes.ts";
import { healthRoutes } from "./routes/health/routes.ts";
import { accountRoutes } from "./routes/accounts/routes.ts";
import { homeStatsRoutes } from "./routes/home_stats/routes.ts";
import { emailSourceRoutes } from "./routes/email_sources/routes.ts";
import { importRunRoutes } from "./routes/import_runs/routes.ts";
import { orderTrackingRoutes } from "./routes/order_tracking/routes.ts";
import { orderTrackingSourceRoutes } from "./routes/order_tracking_sources/routes.ts";
import { orderSubmissionFeature } from "./order_submission/feature.ts";
// Order submission processing: its feed, send/release jobs and schedule register here.
import "./order_submission/processing/register.ts";

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
    .route(orderSubmissionFeature.mountPath, orderSubmissionFeature.routes);
}

/**
 * A path whose percent-encoding does not decode (`/%`, `/%zz`, a broken UTF-8 sequence) is a
 * bad request, not a page to look for: 400 before any handler decodes it.
 */
const refuseMalformedPaths: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.search(/[?#]/);
  const rawPath = start < 0 ? "/" : url.slice(start, end < start ? undefined : end);
  try {
    decodeURI(rawPath);
  } catch {
    throw badRequest("The address is not valid: its percent-encoding is malformed.");
  }
  await next();
};

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
  app.use(refuseMalformedPaths);
  app.use(limitBodies);
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
