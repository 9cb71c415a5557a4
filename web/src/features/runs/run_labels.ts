/** Words and colours of the run history's areas and states (shared/contract/runs.ts). */
import {
  RUN_AREAS,
  RUN_STATES,
  type RunArea,
  type RunState,
} from "../../../../shared/contract/runs.ts";
import type { Permissions } from "../../state/session.ts";

/** Badge colour per state: the same colours as the charts' series. */
export const STATE_COLOR = {
  "succeeded": "green",
  "row-errors": "orange",
  "failed": "red",
  "held": "amber",
  "running": "gray",
} as const satisfies Record<RunState, string>;

/** A state in words. */
export const stateLabel = (state: RunState): string => RUN_STATES[state];

/** An area in words. */
export const areaLabel = (area: RunArea): string => RUN_AREAS[area].label;

/** The areas a user's flags open, as the server decides them (api/runs/routes.ts). */
export function areasFor(permissions: Permissions): RunArea[] {
  return (Object.keys(RUN_AREAS) as RunArea[]).filter((area) =>
    permissions.isAdmin || permissions[RUN_AREAS[area].flag]
  );
}

/** Where a source of an area is edited. */
export function sourceHref(area: RunArea, id: number): string {
  switch (area) {
    case "order-tracking":
      return `/order-tracking-sources/edit/${id}`;
    case "inventory":
      return `/inventory-sources/edit/${id}`;
    case "order-submission":
      return `/order-submission/sources/edit/${id}`;
    case "vendor-sends":
      return `/order-submission/vendor/edit/${id}`;
  }
}

/** The run history filtered to one source (the address the dashboard links with too). */
export function runsHref(area: RunArea, sourceId?: number): string {
  const query = new URLSearchParams({ area });
  if (sourceId) query.set("sourceId", String(sourceId));
  return `/runs?${query}`;
}
