/** The home page's call (spec part 1, section 7). */
import type { UpdateStatsRow } from "../../../../shared/contract/home_stats.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { UpdateStatsRow };

/** GET /api/order-tracking/list/update-stats */
export function fetchUpdateStats(signal?: AbortSignal): Promise<UpdateStatsRow[]> {
  return call(api.api["order-tracking"].list["update-stats"].$get(undefined, { init: { signal } }));
}

export type { DashboardAnswer, DashboardLine } from "../../../../shared/contract/dashboard.ts";
import type { DashboardAnswer } from "../../../../shared/contract/dashboard.ts";

/** GET /api/dashboard: every source's state (issue 22; docs/dashboard.md). */
export function fetchDashboard(signal?: AbortSignal): Promise<DashboardAnswer> {
  return call(api.api.dashboard.$get(undefined, { init: { signal } }));
}
