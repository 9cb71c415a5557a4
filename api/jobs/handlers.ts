/**
 * What each kind of job does. `registerFeatures` (`api/feature.ts`) fills these registries once at
 * start from the feature list; the runner looks them up. Nothing registers itself when imported.
 */
import type { Deps } from "../deps.ts";
import type { Job } from "./queue.ts";

/** Runs one job; throwing counts as a failed attempt (retried with back-off). */
export interface JobHandler {
  run(deps: Deps, job: Job): Promise<void>;
  /** Called once a job has failed its last attempt, to record the failure where users look. */
  onGiveUp?(deps: Deps, job: Job, error: string): Promise<void>;
}

const handlers = new Map<string, JobHandler>();

/** Registers the handler of `kind`. */
export function registerJobHandler(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

/** The handler of `kind`, or undefined. */
export function jobHandler(kind: string): JobHandler | undefined {
  return handlers.get(kind);
}

/** Kinds with a handler in this process: a worker claims only jobs it can run. */
export function handledKinds(): string[] {
  return [...handlers.keys()];
}

/** Recurring schedules are produced by these, run at every tick (e.g. one poll per mailbox). */
export type ScheduleSource = (deps: Deps) => Promise<void>;

const scheduleSources = new Set<ScheduleSource>();

/** Registers a function that keeps some schedules in line with the data (at every tick); once. */
export function registerScheduleSource(source: ScheduleSource): void {
  scheduleSources.add(source);
}

/** The registered schedule sources. */
export function registeredScheduleSources(): ScheduleSource[] {
  return [...scheduleSources];
}

/** A long-lived part of a process that runs jobs (e.g. the mailbox listeners), stopped with it. */
export interface RunningService {
  /** Ends the service's work; resolves once its connections are closed. */
  stop(): Promise<void>;
}

/**
 * Starts a background service in a process that runs jobs (`RUN_JOBS=true`, `deno task worker`).
 * `wake` asks the job runner for a tick now (e.g. after enqueueing work).
 */
export type BackgroundService = (deps: Deps, context: { wake(): void }) => RunningService;

const services = new Set<BackgroundService>();

/** Registers a background service, started by `startJobs` and stopped with it; once. */
export function registerBackgroundService(service: BackgroundService): void {
  services.add(service);
}

/** The registered background services. */
export function registeredBackgroundServices(): BackgroundService[] {
  return [...services];
}
