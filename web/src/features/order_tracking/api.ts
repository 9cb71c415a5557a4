/**
 * Calls of the order tracking contract (spec part 1, section 7): sources, the order list, one
 * order, notes, delete, and the two neighbours the pages need (e-mail source names, the user's
 * column settings). Each returns the response or its parsed body; callers decide what to show.
 */
import type {
  NoteRequest,
  Order,
  OrderDetail,
  OrderListRequest,
  OrderListResult,
  OrderTrackingSource,
} from "../../../shared/contract/order_tracking.ts";
import { api } from "./client.ts";
import { apiFetch, isSuccess, readJson } from "./http.ts";

export type { Order, OrderDetail, OrderListRequest, OrderListResult, OrderTrackingSource };

/** Thrown by the readers below when the server does not answer 200 with a body. */
export class RequestFailed extends Error {
  constructor(readonly status: number) {
    super(`Request failed with status ${status}`);
  }
}

async function bodyOf<T>(response: { status: number; text(): Promise<string> }): Promise<T> {
  const body = isSuccess(response) ? await readJson<T>(response) : undefined;
  if (body === undefined) throw new RequestFailed(response.status);
  return body;
}

const sources = api.api["order-tracking-sources"];
const orders = api.api["order-tracking"];

/** GET /api/order-tracking-sources/active */
export async function fetchSources(): Promise<OrderTrackingSource[]> {
  return await bodyOf(await sources.active.$get());
}

/** GET /api/order-tracking-sources/get/{id} */
export async function fetchSource(id: number): Promise<OrderTrackingSource> {
  return await bodyOf(await sources.get[":id"].$get({ param: { id: String(id) } }));
}

/** POST /api/order-tracking-sources/save: the caller reads the status and message. */
export function saveSource(payload: Record<string, unknown>) {
  return apiFetch("/api/order-tracking-sources/save", {
    method: "POST",
    body: JSON.stringify(payload),
  });
}

/** POST /api/order-tracking-sources/delete/{id} */
export function deleteSource(id: number) {
  return sources.delete[":id"].$post({ param: { id: String(id) } });
}

/** One e-mail source for a dropdown: display name (item1) and id (item2). */
export interface EmailSourceItem {
  item1: string;
  item2: number;
}

/** GET /api/email-sources/email-list */
export async function fetchEmailSourceList(): Promise<EmailSourceItem[]> {
  return await bodyOf(await apiFetch("/api/email-sources/email-list"));
}

/** POST /api/order-tracking/list */
export async function fetchOrders(request: OrderListRequest): Promise<OrderListResult> {
  return await bodyOf(await orders.list.$post({ json: request }));
}

/** GET /api/order-tracking/order/{id} */
export async function fetchOrder(id: string): Promise<OrderDetail> {
  return await bodyOf(await orders.order[":id"].$get({ param: { id } }));
}

/** POST /api/order-tracking/notes */
export function saveNote(request: NoteRequest) {
  return orders.notes.$post({ json: request });
}

/** POST /api/order-tracking/delete/{id} */
export function deleteOrder(id: number) {
  return orders.delete[":id"].$post({ param: { id: String(id) } });
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
export async function fetchViewSettings(username: string): Promise<ViewSettings | null> {
  try {
    const response = await apiFetch(
      `/api/accounts/order-tracking-settings/username?userName=${encodeURIComponent(username)}`,
    );
    const body = await bodyOf<Partial<ViewSettings>>(response);
    return { id: body.id ?? 0, enabledColumns: body.enabledColumns ?? {} };
  } catch (error) {
    console.error("Error fetching order tracking view settings", error);
    return null;
  }
}
