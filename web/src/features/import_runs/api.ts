/** Calls of the /api/import-runs contract: the import history of every feed. */
import type {
  ImportRunDetails,
  ImportRunSummary,
} from "../../../../shared/contract/email_sources.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { ImportRunDetails, ImportRunSummary };

const runs = api.api["import-runs"];

/** GET /api/import-runs?feed=&sourceId= */
export function fetchImportRuns(
  filter: { feed?: string; sourceId?: number } = {},
  signal?: AbortSignal,
): Promise<ImportRunSummary[]> {
  const query: Record<string, string> = {};
  if (filter.feed) query.feed = filter.feed;
  if (filter.sourceId) query.sourceId = String(filter.sourceId);
  return call(runs.$get({ query }, { init: { signal } })) as Promise<ImportRunSummary[]>;
}

/** GET /api/import-runs/{id} */
export function fetchImportRun(id: number, signal?: AbortSignal): Promise<ImportRunDetails> {
  return call(runs[":id"].$get({ param: { id: String(id) } }, { init: { signal } })) as Promise<
    ImportRunDetails
  >;
}

/** POST /api/import-runs/{id}/rerun: a new run from the stored file. */
export function rerunImportRun(id: number): Promise<ImportRunDetails> {
  return call(runs[":id"].rerun.$post({ param: { id: String(id) } })) as Promise<
    ImportRunDetails
  >;
}
