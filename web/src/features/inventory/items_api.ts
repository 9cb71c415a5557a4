/**
 * Calls of the item view (issue 23, docs/inventory.md "Items"): a source's items, one item, and
 * what a run changed. Each is one `call(...)` over the typed client.
 */
import type {
  ItemDetail,
  ItemListPage,
  ItemListQuery,
  RunItemChangesPage,
} from "../../../../shared/contract/inventory_items.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { ItemDetail, ItemListPage, ItemListQuery, RunItemChangesPage };

const sources = api.api["inventory-sources"];

/** GET inventory/{id}/items with the filters that are set. */
export function fetchItems(
  sourceId: number,
  filter: ItemListQuery,
  signal?: AbortSignal,
): Promise<ItemListPage> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && value !== "" && value !== false) query[key] = String(value);
  }
  return call(
    sources.inventory[":id"].items.$get(
      { param: { id: String(sourceId) }, query },
      { init: { signal } },
    ),
  ) as Promise<ItemListPage>;
}

/** GET inventory/{id}/items/{item} */
export function fetchItem(
  sourceId: number,
  itemNumber: string,
  signal?: AbortSignal,
): Promise<ItemDetail> {
  return call(
    sources.inventory[":id"].items[":item"].$get(
      { param: { id: String(sourceId), item: encodeURIComponent(itemNumber) } },
      { init: { signal } },
    ),
  ) as Promise<ItemDetail>;
}

/** GET runs/{runId}/items: one page of what a run changed. */
export function fetchRunChanges(
  runId: number,
  page: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<RunItemChangesPage> {
  return call(
    sources.runs[":runId"].items.$get(
      {
        param: { runId: String(runId) },
        query: { page: String(page.page), pageSize: String(page.pageSize) },
      },
      { init: { signal } },
    ),
  ) as Promise<RunItemChangesPage>;
}

/** The item page's address (item numbers may hold any character). */
export const itemHref = (sourceId: number, itemNumber: string) =>
  `/inventory-sources/${sourceId}/items/${encodeURIComponent(itemNumber)}`;
