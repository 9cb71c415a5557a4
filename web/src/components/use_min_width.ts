import { useEffect, useState } from "react";

// Breakpoints of the spec (part 1, section 9; part 2, section 9).
/** From here the column-priority rule of tables counts as tablet (below it: mobile). */
export const MOBILE_MIN_WIDTH = 640;
/** From here list pages may show a table (below it: cards only). */
export const TABLET_MIN_WIDTH = 768;
export const DESKTOP_MIN_WIDTH = 1024;

const queryFor = (px: number) => matchMedia(`(min-width: ${px}px)`);

/**
 * True while the window is at least `px` wide; follows resizes. Used where the spec swaps a
 * table for cards, so only one of the two is rendered (and tested).
 */
export function useMinWidth(px: number): boolean {
  const [matches, setMatches] = useState(() => queryFor(px).matches);
  useEffect(() => {
    const query = queryFor(px);
    const update = () => setMatches(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, [px]);
  return matches;
}
