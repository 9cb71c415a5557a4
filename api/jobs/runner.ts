/**
 * Runs jobs in one process. `Deno.cron` only ticks (it keeps no state and fires in every
 * process); a short timer ticks too, because the mail poll interval may be under a minute and a
 * queued job should not wait for the next minute. A tick keeps the schedules in line, enqueues the
 * due ones and runs due jobs until none are left.
 */
import type { Deps } from "../deps.ts";
import {
  handledKinds,
  jobHandler,
  registeredBackgroundServices,
  registeredScheduleSources,
  type RunningService,
} from "./handlers.ts";
import {
  claimJobs,
  completeJob,
  extendLease,
  failJob,
  type Job,
  PermanentJobError,
  releaseJobs,
} from "./queue.ts";
import { enqueueDueSchedules } from "./schedules.ts";
import { log as logger, withLogContext, writeLog } from "../http/log.ts";

/** Job failures go to the JSON log at level warn, with the job's ids (api/http/log.ts). */
const warn = (line: string) => writeLog("warn", line);

/** A name for this process's claims, e.g. `host:1234:ab12`. */
export function workerName(): string {
  return `${Deno.hostname()}:${Deno.pid}:${crypto.randomUUID().slice(0, 4)}`;
}

/** Options of {@link runDueJobs}. */
export interface RunOptions {
  worker?: string;
  /** Only these kinds (default: every kind with a handler here). */
  kinds?: string[];
  /** Only these job ids. */
  ids?: number[];
  /** Stop after this many jobs (default: until none is due). */
  max?: number;
  log?: (line: string) => void;
  /** Claim no further job once aborted (shutdown); the one in hand still finishes. */
  signal?: AbortSignal;
}

/** The import run a job works on, when its payload names one. */
function runIdOf(job: Job): number | undefined {
  const id = (job.payload as { runId?: unknown }).runId;
  return typeof id === "number" ? id : undefined;
}

/**
 * Runs one claimed job with a lease kept alive while it runs; never throws. Every line logged
 * while it runs carries `jobId`, `jobKind` and the import run's `runId` (api/http/log.ts).
 */
function runJob(deps: Deps, job: Job, worker: string, log: (line: string) => void) {
  const runId = runIdOf(job);
  return withLogContext(
    { worker, jobId: Number(job.id), jobKind: job.kind, ...(runId !== undefined && { runId }) },
    () => runJobInContext(deps, job, worker, log),
  );
}

async function runJobInContext(
  deps: Deps,
  job: Job,
  worker: string,
  log: (line: string) => void,
) {
  const started = performance.now();
  logger.debug("job started", { attempt: job.attempts });
  const lease = deps.config.JOB_LEASE_SECONDS;
  const heartbeat = setInterval(() => {
    extendLease(deps.db, job.id, worker, lease).catch(() => {});
  }, Math.max(1000, (lease * 1000) / 3));
  try {
    const handler = jobHandler(job.kind);
    if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}.`);
    await handler.run(deps, job);
    await completeJob(deps.db, job.id, worker);
    logger.info("job succeeded", {
      attempt: job.attempts,
      duration: Math.round(performance.now() - started),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`Job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
    try {
      const permanent = error instanceof PermanentJobError;
      const gaveUp = await failJob(deps.db, job, worker, message, permanent);
      if (gaveUp) await jobHandler(job.kind)?.onGiveUp?.(deps, job, message);
    } catch (recordError) {
      // The lease runs out and another attempt follows: nothing is lost.
      log(`Job ${job.id}: could not record the failure: ${(recordError as Error).message}`);
    }
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Claims and runs due jobs one at a time; returns how many ran.
 *
 * @example
 * ```ts ignore
 * await runDueJobs(deps, { kinds: ["import-run"] }); // process what a poll enqueued
 * ```
 */
export async function runDueJobs(deps: Deps, options: RunOptions = {}): Promise<number> {
  const worker = options.worker ?? workerName();
  const log = options.log ?? warn;
  const kinds = options.kinds ?? handledKinds();
  let ran = 0;
  while ((options.max === undefined || ran < options.max) && !options.signal?.aborted) {
    const [job] = await claimJobs(deps.db, {
      worker,
      leaseSeconds: deps.config.JOB_LEASE_SECONDS,
      limit: 1,
      kinds,
      ids: options.ids,
    });
    if (!job) break;
    await runJob(deps, job, worker, log);
    ran++;
  }
  return ran;
}

/** One tick: schedules, then due jobs. */
export async function tick(
  deps: Deps,
  worker: string,
  log: (line: string) => void,
  signal?: AbortSignal,
) {
  for (const source of registeredScheduleSources()) await source(deps);
  if (signal?.aborted) return;
  await enqueueDueSchedules(deps.db);
  await runDueJobs(deps, { worker, log, signal });
}

/** How the ticking of one process is going, for `/ready` (docs/operations.md). */
export interface JobsStatus {
  /** A tick is running now (a long import keeps it running; its lease is renewed meanwhile). */
  ticking: boolean;
  lastTickStartedAt: Date | null;
  lastTickFinishedAt: Date | null;
  /** Ticks in a row that failed (a database outage, say); 0 after a good one. */
  failuresInARow: number;
  lastError: string | null;
  stopped: boolean;
  intervalSeconds: number;
}

// Per process and database handle: a test process runs several servers.
const statuses = new WeakMap<Deps, JobsStatus>();

/** The ticking of the jobs started over `deps` in this process; null when none were started. */
export function jobsStatus(deps: Deps): JobsStatus | null {
  return statuses.get(deps) ?? null;
}

/**
 * Is the ticking healthy: not stopped, the last tick ended within three intervals (plus the
 * slack of one) or one is running, and fewer than three ticks in a row failed.
 */
export function jobsProblem(status: JobsStatus, now = new Date()): string | null {
  if (status.stopped) return "the job runner is stopping";
  if (status.failuresInARow >= 3) {
    return `the last ${status.failuresInARow} job ticks failed: ${status.lastError ?? ""}`.trim();
  }
  if (status.ticking) return null;
  const last = status.lastTickFinishedAt ?? status.lastTickStartedAt;
  const limitMs = (status.intervalSeconds * 3 + Math.max(5, status.intervalSeconds)) * 1000;
  if (!last) return null; // starting
  const age = now.getTime() - last.getTime();
  return age > limitMs
    ? `no job tick for ${Math.round(age / 1000)} s (every ${status.intervalSeconds} s expected)`
    : null;
}

/** Background jobs of a process. */
export interface JobsHandle {
  /** Ticks now (e.g. after enqueueing) instead of at the next timer. */
  wake(): void;
  /**
   * Stops claiming jobs and waits for the job in hand to finish; after `graceMs` (default: no
   * limit) it gives the job back instead (`releaseJobs`: queued again at once for another
   * process) and returns, so the caller can close the database and exit.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/**
 * Starts ticking: `Deno.cron` every minute and a timer every `JOBS_TICK_SECONDS`.
 *
 * @example
 * ```ts ignore
 * const jobs = startJobs(deps);
 * addEventListener("unload", () => jobs.stop());
 * ```
 */
export function startJobs(
  deps: Deps,
  options: { log?: (line: string) => void; cron?: boolean } = {},
): JobsHandle {
  const log = options.log ?? warn;
  const worker = workerName();
  const abort = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status: JobsStatus = {
    ticking: false,
    lastTickStartedAt: null,
    lastTickFinishedAt: null,
    failuresInARow: 0,
    lastError: null,
    stopped: false,
    intervalSeconds: deps.config.JOBS_TICK_SECONDS,
  };
  statuses.set(deps, status);

  const schedule = () => {
    if (abort.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(run, deps.config.JOBS_TICK_SECONDS * 1000);
  };
  function run() {
    if (abort.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    status.ticking = true;
    status.lastTickStartedAt = new Date();
    running = withLogContext({ worker }, () => tick(deps, worker, log, abort.signal))
      .then(() => {
        status.failuresInARow = 0;
        status.lastError = null;
      })
      .catch((error) => {
        status.failuresInARow++;
        status.lastError = (error as Error).message;
        log(`Job tick failed: ${(error as Error).message}`);
      })
      .finally(() => {
        status.ticking = false;
        status.lastTickFinishedAt = new Date();
        running = null;
        if (again) {
          again = false;
          run();
        } else schedule();
      });
  }

  if (options.cron ?? true) {
    try {
      const name = `jobs tick ${worker.replace(/[^\w\s-]/g, "-")}`;
      Deno.cron(name, "* * * * *", { signal: abort.signal }, run);
    } catch (error) {
      // Without --unstable-cron the timer alone ticks; nothing else changes.
      log(`Deno.cron unavailable (${(error as Error).message}); ticking by timer only.`);
    }
  }
  run();
  // Started after the first tick began, so a listener's first poll finds the schedules in place.
  const services: RunningService[] = [];
  for (const start of registeredBackgroundServices()) {
    try {
      services.push(start(deps, { wake: run }));
    } catch (error) {
      log(`A background service did not start: ${(error as Error).message}`);
    }
  }
  return {
    wake: run,
    async stop({ graceMs }: { graceMs?: number } = {}) {
      abort.abort();
      status.stopped = true;
      clearTimeout(timer);
      // Listeners close their connections and give their leases back for another process.
      await Promise.all(services.map((service) => service.stop().catch(() => {})));
      if (!running) return;
      if (graceMs === undefined) return void await running;
      let timeout: ReturnType<typeof setTimeout> | undefined;
      const finished = await Promise.race([
        running.then(() => true),
        new Promise<false>((resolve) => timeout = setTimeout(() => resolve(false), graceMs)),
      ]);
      clearTimeout(timeout);
      if (finished) return;
      const released = await releaseJobs(deps.db, worker).catch(() => []);
      log(
        `Stopping before the job in hand finished; released job ${
          released.join(", ") || "(none)"
        } for another process.`,
      );
    },
  };
}
