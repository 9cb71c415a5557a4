/**
 * The dashboard summary: the lines of the areas a user's flags allow, failing, held and stale
 * first (docs/dashboard.md).
 */
import type { Deps } from "../deps.ts";
import type { SessionUser } from "../auth/sessions.ts";
import type { DashboardAnswer, DashboardArea } from "../../shared/contract/dashboard.ts";
import { readLines } from "./lines.ts";
import { compareLines, countStates } from "./state.ts";

/** The kinds of source a user sees: each area by its flag; mailboxes with any flag. */
export function areasFor(
  user: Pick<SessionUser, "orderUser" | "inventoryUser" | "submissionUser">,
): DashboardArea[] {
  const areas: DashboardArea[] = [];
  if (user.orderUser) areas.push("order-tracking");
  if (user.inventoryUser) areas.push("inventory");
  if (user.submissionUser) areas.push("order-submission", "vendor");
  if (areas.length > 0) areas.push("mailbox");
  return areas;
}

/** The dashboard for these kinds of source, sorted, with the count of each state. */
export async function dashboardSummary(
  deps: Pick<Deps, "db" | "config">,
  areas: readonly DashboardArea[],
  now = new Date(),
): Promise<DashboardAnswer> {
  const lines = areas.length ? (await readLines(deps, areas, now)).sort(compareLines) : [];
  return { generatedAt: now.toISOString(), lines, counts: countStates(lines) };
}
