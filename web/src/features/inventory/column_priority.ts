/**
 * The table column-priority rule (spec part 2, section 2): below 640 px only high-priority
 * columns show, below 1024 px high and medium, from 1024 px all; a hint says so on the two
 * narrower tiers (the same wording as the other source lists).
 */
import { DESKTOP_MIN_WIDTH, useMinWidth } from "../../components/use_min_width.ts";

/** A column's priority. */
export type Priority = "high" | "medium" | "low";

/** Below this width only high-priority columns show. */
export const MOBILE_PRIORITY_WIDTH = 640;

/** Hint on mobile (high columns only; the table scrolls sideways). */
export const MOBILE_HINT = "Swipe horizontally to see more of each row.";
/** Hint on tablet (low-priority columns hidden). */
export const TABLET_HINT =
  "Some columns are hidden on this screen size. Widen the window to see all columns.";

/** Which priorities show at the current width, and the hint to show (null on desktop). */
export function useColumnPriority(): { shows(priority: Priority): boolean; hint: string | null } {
  const tablet = useMinWidth(MOBILE_PRIORITY_WIDTH);
  const desktop = useMinWidth(DESKTOP_MIN_WIDTH);
  return {
    shows: (priority) => priority === "high" || (priority === "medium" && tablet) || desktop,
    hint: desktop ? null : tablet ? TABLET_HINT : MOBILE_HINT,
  };
}
