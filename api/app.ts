/**
 * Builds the HTTP application from the feature list (`api/features.ts`). `AppType` is what the
 * web app's typed client is generated from.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv, Deps } from "./deps.ts";
import { limitBodies } from "./http/body_limit.ts";
import { bodyReadTimeout } from "./http/body_timeout.ts";
import { csrfGuard, SAFE_METHODS } from "./http/csrf.ts";
import { requestId } from "./http/request_id.ts";
import { badRequest, handleError } from "./http/errors.ts";
import { serveSpa } from "./http/spa.ts";
import { openApiDocument } from "./http/openapi.ts";
import { renderApiDocs } from "./http/api_docs_page.ts";
import { routeDocs } from "./http/route_docs.ts";
import { mountFeatures } from "./feature.ts";
import { FEATURES, SESSION_WRITERS } from "./features.ts";
import { recordActivity } from "./activity/middleware.ts";
import { asWorkUnit } from "./db/work_unit.ts";
import { sessionsMayHaveChanged } from "./auth/session_cache.ts";

/**
 * The API routes alone: every feature's routers, mounted at their paths in the list's order.
 * Their type is the contract the web app calls through.
 */
function apiRoutes() {
  return mountFeatures(FEATURES);
}

/** The mounts of the areas whose requests may change users, sessions or tokens. */
const SESSION_WRITER_MOUNTS = SESSION_WRITERS.flatMap((feature) =>
  feature.routes.map((mount) => mount.path)
);

/** Whether `path` is under a mount of an area that may change users, sessions or tokens. */
function writesSessions(path: string): boolean {
  return SESSION_WRITER_MOUNTS.some((mount) => path === mount || path.startsWith(`${mount}/`));
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

/** The two routes that document the API (docs/api.md); public, like the spec itself. */
export const API_DOCS_ROUTES = routeDocs([
  {
    method: "GET",
    path: "/api/openapi.json",
    summary: "The OpenAPI 3.1 document of this API",
    response: z.looseObject({
      openapi: z.string(),
      info: z.object({}).loose(),
      paths: z.object({}).loose(),
    }),
    access: "public",
  },
  {
    method: "GET",
    path: "/api/docs",
    summary: "The API reference as a web page (text/html)",
    response: z.string().describe("text/html"),
    access: "public",
  },
]);

/** The routes' type for `hc<AppType>()`. */
export type AppType = ReturnType<typeof apiRoutes>;

/**
 * The whole application over `deps`; `webDist` serves the built SPA when given.
 *
 * @example
 * ```ts ignore
 * const app = createApp(deps, { webDist: "web/dist" });
 * Deno.serve(app.fetch);
 * ```
 */
export function createApp(deps: Deps, options: { webDist?: string } = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json({ message: `No route for ${c.req.method} ${c.req.path}.` }, 404));
  app.use(requestId);
  // A request under way gets PGlite's connection before requests that have not started.
  app.use((_c, next) => asWorkUnit(next));
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
      // One clickjacking policy: no page of the app is framed by anyone, itself included, in
      // browsers that read frame-ancestors and in those that only know X-Frame-Options.
      xFrameOptions: "DENY",
    }),
  );
  app.use(refuseMalformedPaths);
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
  app.use(async (c, next) => {
    try {
      await next();
    } finally {
      // The request may have ended a session or changed a user: the next one checks.
      if (!SAFE_METHODS.has(c.req.method) && writesSessions(c.req.path)) {
        sessionsMayHaveChanged(deps.db);
      }
    }
  });
  // Before the size limit: Hono's `bodyLimit` reads a body of no declared length (chunked) whole
  // before the handler, and read without a deadline a stalled one held the request for ever.
  app.use(bodyReadTimeout);
  app.use(limitBodies);
  app.use(csrfGuard);
  // The activity log reads the records a state-changing request touches, before and after it.
  app.use(recordActivity);
  app.route("/", apiRoutes());
  // Built and written out once, on first use, from the finished route table
  // (api/http/route_docs.ts). Both answers are public, and writing them out on every request
  // took the server's one thread 2.1 ms (the document) and 8.2 ms (the page) a request: 126
  // anonymous requests a second held it whole. Now 0.26 ms (docs/benchmarks.md, session 23).
  let document: Record<string, unknown> | undefined;
  let documentJson: string | undefined;
  let documentHtml: string | undefined;
  const openApi = () =>
    document ??= openApiDocument(app.routes, [
      ...FEATURES,
      { flag: "public", docs: API_DOCS_ROUTES },
    ]);
  app.get("/api/openapi.json", (c) => {
    c.header("content-type", "application/json");
    return c.body(documentJson ??= JSON.stringify(openApi()));
  });
  app.get("/api/docs", (c) => c.html(documentHtml ??= renderApiDocs(openApi())));
  if (options.webDist) serveSpa(app, options.webDist);
  return app;
}
