/**
 * The shape of a feature area (docs/conventions.md, "Adding a feature area"): each area exports
 * one `Feature` from `api/<area>/feature.ts`, and `api/features.ts` lists them. The server, the
 * worker and the CLI call `registerFeatures` with that list at start; no module registers
 * anything by being imported. This module is a platform layer: it never imports an area.
 */
import { Hono, type Schema } from "hono";
import type { MergePath, MergeSchemaPath } from "hono/types";
import type { AppEnv } from "./deps.ts";
import type { Db } from "./db/client.ts";
import type { Flag } from "./auth/guards.ts";
import { type Feed, type FeedReader, registerFeed } from "./ingest/feeds.ts";
import {
  type BackgroundService,
  type JobHandler,
  registerBackgroundService,
  registerJobHandler,
  registerScheduleSource,
  type ScheduleSource,
} from "./jobs/handlers.ts";
import type { UpdateStatsRow } from "../shared/contract/home_stats.ts";
import type { RouteDoc } from "./http/route_docs.ts";

/**
 * Who uses an area: a permission flag, `"admin"`, `"anyFlag"` (a user with at least one flag),
 * `"any"` (every signed-in user) or `"public"` (no login). Each route still has its own guard
 * (`api/auth/guards.ts`); the flag decides who may read the area's import runs.
 */
export type FeatureFlag = Flag | "admin" | "anyFlag" | "any" | "public";

/** One router of an area and the path it is mounted at (the contract's prefix). */
export interface Mount<
  P extends string = string,
  // deno-lint-ignore no-explicit-any
  R extends Hono<AppEnv, any, any> = Hono<AppEnv, any, any>,
> {
  path: P;
  router: R;
}

/** An area's rows for the home page's update statistics. */
export type HomeStatsSource = (db: Db) => Promise<UpdateStatsRow[]>;

/** What one feature area hands to the application. */
export interface Feature {
  /** The area's folder name, e.g. `order_tracking`. */
  name: string;
  flag: FeatureFlag;
  /** Mounted in this order, after the areas listed before it. */
  routes: readonly Mount[];
  /** The feed that turns delivered files into the area's data. */
  feed?: Feed;
  /** Job kind → handler. */
  jobHandlers?: Readonly<Record<string, JobHandler>>;
  /** Keep the area's recurring schedules in line with its data, at every tick. */
  scheduleSources?: readonly ScheduleSource[];
  /** Long-lived work of the processes that run jobs (the mailbox listeners), stopped with them. */
  services?: readonly BackgroundService[];
  /** The area's rows on the home page. */
  homeStats?: HomeStatsSource;
  /**
   * The area's requests may change users, sessions or access tokens (the tables that
   * `session_changes` counts: migration 0037). After each of its requests that could write, this
   * process reads that count again before it trusts a remembered user (api/auth/session_cache.ts),
   * so a logout or a deactivation holds for the very next request. Other areas' requests leave
   * the remembered users to the check once a second: an order search (a POST) or a note changes
   * no user, and staff send them far more often than anything else (docs/auth.md).
   */
  writesSessions?: boolean;
  /**
   * What the OpenAPI document says about each route of `routes` (summary, answer schema,
   * access); request schemas come from the routes' validators (`api/http/route_docs.ts`).
   */
  docs?: readonly RouteDoc[];
}

/**
 * Declares a feature, keeping its literal types (mount paths, router types) for the typed client.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { defineFeature } from "./feature.ts";
 * import type { AppEnv } from "./deps.ts";
 *
 * const pingRoutes = new Hono<AppEnv>().get("/", (c) => c.json({ ok: true }));
 * export const ping = defineFeature({
 *   name: "ping",
 *   flag: "public",
 *   routes: [{ path: "/ping", router: pingRoutes }],
 * });
 * assert.equal(ping.routes[0].path, "/ping");
 * ```
 */
export function defineFeature<const F extends Feature>(feature: F): F {
  return feature;
}

/** The schema one mount adds to the app, as Hono's `.route(path, router)` computes it. */
type MountSchema<M> = M extends // deno-lint-ignore no-explicit-any
{ path: infer P extends string; router: Hono<any, infer S extends Schema, any> }
  ? MergeSchemaPath<S, MergePath<"/", P>>
  : never;

/** The schema of every route of `F`: what chaining `.route(...)` over the list would give. */
export type FeaturesSchema<F extends readonly Feature[]> = MountSchema<F[number]["routes"][number]>;

/**
 * A router with every feature's routes mounted in list order, typed as if chained by hand so
 * `hc<AppType>` sees every route.
 */
export function mountFeatures<const F extends readonly Feature[]>(
  features: F,
): Hono<AppEnv, FeaturesSchema<F>, "/"> {
  const app = new Hono<AppEnv>();
  for (const feature of features) {
    for (const { path, router } of feature.routes) app.route(path, router);
  }
  return app as Hono<AppEnv, FeaturesSchema<F>, "/">;
}

/** The feed names of a list of features, as a union. */
export type FeedNames<F extends readonly Feature[]> = F[number] extends infer X
  ? X extends { feed: { name: infer N extends string } } ? N : never
  : never;

const homeStats = new Map<string, HomeStatsSource>();

/**
 * Hands every feature's feed, job handlers, schedules and home statistics to their registries.
 * Called once at start by the server, the worker and the CLI (`openDeps` in `api/server.ts`);
 * calling it again with the same list changes nothing.
 */
export function registerFeatures(features: readonly Feature[]): void {
  for (const feature of features) {
    if (feature.feed) registerFeed(feature.feed, feedReader(feature.flag));
    for (const [kind, handler] of Object.entries(feature.jobHandlers ?? {})) {
      registerJobHandler(kind, handler);
    }
    for (const source of feature.scheduleSources ?? []) registerScheduleSource(source);
    for (const service of feature.services ?? []) registerBackgroundService(service);
    if (feature.homeStats) homeStats.set(feature.name, feature.homeStats);
  }
}

/** The registered home statistics, in list order. */
export function homeStatsSources(): HomeStatsSource[] {
  return [...homeStats.values()];
}

/** A feed's runs are read by its area's flag; by Admin when the area has none. */
function feedReader(flag: FeatureFlag): FeedReader {
  return flag === "admin" || flag === "anyFlag" || flag === "any" || flag === "public"
    ? "admin"
    : flag;
}
