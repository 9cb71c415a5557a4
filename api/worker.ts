/**
 * `deno task worker`: runs the background jobs (mailbox polls, import runs, schedules) without
 * HTTP, so web and workers can be scaled apart on one PostgreSQL (docs/design.md section 7).
 */
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { openDeps } from "./server.ts";
import { startJobs } from "./jobs/runner.ts";
import { DbLockedError } from "./db/lock.ts";
import type { Deps } from "./deps.ts";
import { log } from "./http/log.ts";
import { onStopSignal } from "./shutdown.ts";

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
  const jobs = startJobs(deps, log ? { log } : {});
  return {
    deps,
    async stop() {
      // The job in hand finishes, or is given back after the grace period (api/jobs/runner.ts).
      await jobs.stop({ graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000 });
      await deps.db.close();
    },
  };
}

if (import.meta.main) {
  try {
    const worker = await startWorker(loadConfig());
    log.info("Worker running; stop with Ctrl-C or SIGTERM.");
    onStopSignal("worker", () => worker.stop());
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof DbLockedError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
