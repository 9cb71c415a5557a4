/**
 * Calls of the order tracking contract (spec part 1, section 7): sources, the order list, one
 * order, notes, delete, and the user's column settings.
 */
import type {
  NoteRequest,
  Order,
  OrderDetail,
  OrderListRequest,
  OrderListResult,
  OrderTrackingSource,
} from "../../../../shared/contract/order_tracking.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { Order, OrderDetail, OrderListRequest, OrderListResult, OrderTrackingSource };
export { type EmailSourceItem, fetchEmailSourceList } from "../email_sources/api.ts";

const sources = api.api["order-tracking-sources"];
const orders = api.api["order-tracking"];

/** GET /api/order-tracking-sources/active */
export function fetchSources(signal?: AbortSignal): Promise<OrderTrackingSource[]> {
  return call(sources.active.$get(undefined, { init: { signal } }));
}

/** GET /api/order-tracking-sources/get/{id} */
export function fetchSource(id: number, signal?: AbortSignal): Promise<OrderTrackingSource> {
  return call(sources.get[":id"].$get({ param: { id: String(id) } }, { init: { signal } }));
}

/** What the save answers: the stored ids the form keeps for the next save. */
export interface SavedSource {
  id?: number;
  columnNormalizationValues?: { id?: number };
}

/** POST /api/order-tracking-sources/save with the form's payload (source_form.ts). */
export async function saveSource(payload: Record<string, unknown>): Promise<SavedSource | null> {
  // The form builds the payload field by field; the server validates it (sourceSaveRequest).
  type Json = Parameters<typeof sources.save.$post>[0]["json"];
  const saved = await call(sources.save.$post({ json: payload as Json }));
  return (saved ?? null) as SavedSource | null;
}

/** POST /api/order-tracking-sources/delete/{id} */
export async function deleteSource(id: number): Promise<void> {
  await call(sources.delete[":id"].$post({ param: { id: String(id) } }));
}

/** POST /api/order-tracking/list */
export function fetchOrders(
  request: OrderListRequest,
  signal?: AbortSignal,
): Promise<OrderListResult> {
  return call(orders.list.$post({ json: request }, { init: { signal } }));
}

/** GET /api/order-tracking/order/{id} */
export function fetchOrder(id: string, signal?: AbortSignal): Promise<OrderDetail> {
  return call(orders.order[":id"].$get({ param: { id } }, { init: { signal } }));
}

/** POST /api/order-tracking/notes */
export async function saveNote(request: NoteRequest): Promise<void> {
  await call(orders.notes.$post({ json: request }));
}

/** POST /api/order-tracking/delete/{id} */
export async function deleteOrder(id: number): Promise<void> {
  await call(orders.delete[":id"].$post({ param: { id: String(id) } }));
}

/** The user's saved column choice; `id` 0 means never saved. */
export interface ViewSettings {
  id: number;
  enabledColumns: Record<string, boolean | null>;
}

/**
 * GET /api/accounts/order-tracking-settings/username: the user's column settings, or null when
 * the call fails (the list then shows its default columns).
 */
export async function fetchViewSettings(
  username: string,
  signal?: AbortSignal,
): Promise<ViewSettings | null> {
  try {
    const body = await call(
      api.api.accounts["order-tracking-settings"].username.$get({ query: { userName: username } }, {
        init: { signal },
      }),
    ) as Partial<ViewSettings> | undefined;
    if (!body) throw new Error("No settings in the answer");
    return { id: body.id ?? 0, enabledColumns: body.enabledColumns ?? {} };
  } catch (error) {
    if (signal?.aborted) throw error;
    console.error("Error fetching order tracking view settings", error);
    return null;
  }
}
