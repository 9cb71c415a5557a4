import { useState } from "react";

/**
 * The source lists' Active checkboxes and switches (spec part 2 section 4: they change nothing on
 * the server). Each starts from the source's stored state, so an active source shows checked,
 * and a click changes it on this page only until the list is loaded again.
 */
export function useActiveToggles() {
  const [changed, setChanged] = useState<ReadonlyMap<number, boolean>>(new Map());
  /** What the row's Active control shows: the local change, else the stored state. */
  const isActive = (row: { id: number; activeStatus: boolean }) =>
    changed.get(row.id) ?? row.activeStatus;
  const setActive = (id: number, on: boolean) =>
    setChanged((current) => new Map(current).set(id, on));
  return { isActive, setActive } as const;
}
