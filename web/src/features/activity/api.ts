/** The call of GET /api/activity: the activity log (Admin; docs/activity.md). */
import type { ActivityPage, ActivityQuery } from "../../../../shared/contract/activity.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { ActivityPage, ActivityQuery };

/** GET /api/activity with the filters that are set. */
export function fetchActivity(filter: ActivityQuery, signal?: AbortSignal): Promise<ActivityPage> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== "") query[key] = String(value);
  }
  return call(api.api.activity.$get({ query }, { init: { signal } })) as Promise<ActivityPage>;
}
