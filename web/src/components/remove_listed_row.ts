import type { Resource } from "./use_resource.ts";

/**
 * A list page's `remove` (see `ListDeletion` in list_page.tsx): sends `remove(row.id)`; a failure
 * is logged with `console.error(failureLog, error)` and thrown again (the dialog stays open);
 * after a success the row leaves the loaded list without a reload.
 *
 * ```ts ignore
 * deletion={{ nameOf: (s) => s.sourceName, remove: removeListedRow(list, deleteSource, "Error deleting source") }}
 * ```
 */
export function removeListedRow<T extends { id: number }>(
  list: Pick<Resource<T[]>, "setData">,
  remove: (id: number) => Promise<unknown>,
  failureLog: string,
): (row: T) => Promise<void> {
  return async (row) => {
    try {
      await remove(row.id);
    } catch (error) {
      console.error(failureLog, error);
      throw error;
    }
    list.setData((current) => current?.filter((other) => other.id !== row.id));
  };
}
