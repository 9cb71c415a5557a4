/**
 * Calls of the run history (/api/runs; docs/runs.md) and the existing actions a run page offers:
 * Re-run (/api/import-runs/{id}/rerun) and, for a held inventory run, its preview and Release
 * (/api/inventory-sources/runs/{id} and /release).
 */
import type {
  RunDetails,
  RunList,
  RunSeries,
  RunSeriesQuery,
  RunSources,
  RunsQuery,
} from "../../../../shared/contract/runs.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { RunDetails, RunList, RunSeries, RunSources };

const runs = api.api.runs;

function queryOf(filter: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== "") query[key] = String(value);
  }
  return query;
}

/** GET /api/runs with the filters that are set. */
export function fetchRuns(filter: RunsQuery, signal?: AbortSignal): Promise<RunList> {
  return call(runs.$get({ query: queryOf(filter) }, { init: { signal } })) as Promise<RunList>;
}

/** GET /api/runs/sources: the Source filter's choices. */
export function fetchRunSources(signal?: AbortSignal): Promise<RunSources> {
  return call(runs.sources.$get(undefined, { init: { signal } })) as Promise<RunSources>;
}

/** GET /api/runs/daily: the charts' series. */
export function fetchRunSeries(filter: RunSeriesQuery, signal?: AbortSignal): Promise<RunSeries> {
  return call(runs.daily.$get({ query: queryOf(filter) }, { init: { signal } })) as Promise<
    RunSeries
  >;
}

/** GET /api/runs/{id} */
export function fetchRun(id: number, signal?: AbortSignal): Promise<RunDetails> {
  return call(runs[":id"].$get({ param: { id: String(id) } }, { init: { signal } })) as Promise<
    RunDetails
  >;
}

/** POST /api/import-runs/{id}/rerun: a new run from the stored file; answers the new run's id. */
export async function rerunRun(id: number): Promise<number> {
  const run = await call(
    api.api["import-runs"][":id"].rerun.$post({ param: { id: String(id) } }),
  ) as { id: number };
  return run.id;
}

/** What a held inventory run would change (its stored flips and the guard's verdict). */
export interface HeldInventoryRun {
  flips: { itemNumber: string; from: string; to: string }[];
  guard: { turnedInactive?: number; previouslyActive?: number; threshold?: number };
  deliveryStatus: string;
}

const inventoryRuns = api.api["inventory-sources"].runs[":runId"];

/** GET /api/inventory-sources/runs/{id}: the inventory run with its flips. */
export function fetchInventoryRun(id: number, signal?: AbortSignal): Promise<HeldInventoryRun> {
  return call(
    inventoryRuns.$get({ param: { runId: String(id) } }, { init: { signal } }),
  ) as unknown as Promise<HeldInventoryRun>;
}

/** POST /api/inventory-sources/runs/{id}/release: delivers the held run. */
export function releaseInventoryRun(
  id: number,
): Promise<{ delivery: { status: string; log: string[]; error: string | null } }> {
  return call(inventoryRuns.release.$post({ param: { runId: String(id) } })) as Promise<
    { delivery: { status: string; log: string[]; error: string | null } }
  >;
}
