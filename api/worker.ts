/**
 * `deno task worker`: runs the background jobs (mailbox polls, import runs, schedules) without
 * HTTP, so web and workers can be scaled apart on one PostgreSQL (docs/design.md section 7).
 */
import { type Config, ConfigError, configWarnings, loadConfig } from "./config.ts";
import { openDeps } from "./server.ts";
import { fileWorkFor } from "./ingest/file_work.ts";
import { startJobs } from "./jobs/runner.ts";
import { DbLockedError } from "./db/lock.ts";
import { Hono } from "hono";
import type { AppEnv, Deps } from "./deps.ts";
import { healthRoutes, readyRoutes } from "./health/routes.ts";
import { requestId } from "./http/request_id.ts";
import { log } from "./http/log.ts";
import { onStopSignal } from "./shutdown.ts";

/** `/health` and `/ready` alone, on `WORKER_HEALTH_PORT`: what a container health check asks. */
function serveHealth(deps: Deps): Deno.HttpServer {
  const app = new Hono<AppEnv>();
  app.use(requestId);
  app.use(async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  app.route("/health", healthRoutes);
  app.route("/ready", readyRoutes);
  return Deno.serve(
    { hostname: deps.config.HOST, port: deps.config.WORKER_HEALTH_PORT, onListen: () => {} },
    app.fetch,
  );
}

/** A running worker. */
export interface RunningWorker {
  deps: Deps;
  stop(): Promise<void>;
}

/**
 * Opens the database (migrating it; `openDeps` registers the feature list's feeds, job handlers
 * and schedules) and starts ticking.
 *
 * @example
 * ```ts ignore
 * const worker = await startWorker(loadConfig());
 * await worker.stop();
 * ```
 */
export async function startWorker(
  config: Config,
  log?: (line: string) => void,
): Promise<RunningWorker> {
  const deps = await openDeps(config, log);
  deps.files = fileWorkFor(config);
  const jobs = startJobs(deps, log ? { log } : {});
  const health = config.WORKER_HEALTH_PORT === undefined ? null : serveHealth(deps);
  return {
    deps,
    async stop() {
      await health?.shutdown();
      // The job in hand finishes, or is given back after the grace period (api/jobs/runner.ts).
      await jobs.stop({ graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000 });
      deps.files?.close();
      await deps.db.close();
    },
  };
}

if (import.meta.main) {
  try {
    const config = loadConfig();
    const worker = await startWorker(config);
    log.info("Worker running; stop with Ctrl-C or SIGTERM.");
    // The worker sends most mail: it says once that its mails carry no links.
    for (const warning of configWarnings(config)) log.warn(warning);
    onStopSignal("worker", () => worker.stop());
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof DbLockedError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
