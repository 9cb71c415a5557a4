import { useState } from "react";

/**
 * A list's row selection (the source lists' Active checkboxes and switches: they select rows on
 * the page only and change nothing on the server, spec part 2 section 4).
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return { selected, toggle } as const;
}
