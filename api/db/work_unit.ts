/**
 * Which unit of work (a request) a statement belongs to, for PGlite's one connection
 * (api/db/pglite_remote.ts): a statement of a request that has already had a turn goes before
 * the first statements of requests that have not, so that a request under way finishes instead
 * of queueing again behind every request that arrived since its last statement.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A request's statements so far. */
export interface WorkUnit {
  /** True once one of its statements had the connection. */
  started: boolean;
}

const units = new AsyncLocalStorage<WorkUnit>();

/**
 * Runs `fn` as one unit of work: the statements it sends (however deep) share one `WorkUnit`.
 *
 * @example
 * app.use((c, next) => asWorkUnit(next));
 */
export function asWorkUnit<T>(fn: () => T): T {
  return units.run({ started: false }, fn);
}

/** The unit of work of the statement being sent, if any. */
export function currentWorkUnit(): WorkUnit | undefined {
  return units.getStore();
}
