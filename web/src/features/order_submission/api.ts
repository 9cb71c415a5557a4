/**
 * Calls of the order submission contract (spec part 2, section 7): order submission sources,
 * vendor sources and aliases, and the two pickers the edit pages need. Readers throw
 * `RequestFailed` unless the server answers 200 with a body; writers return the response so the
 * pages can read its status and text.
 */
import type {
  OrderSubmissionSource,
  OrderSubmissionSourceSave,
  OrderVendorSource,
  OrderVendorSourceListEntry,
  OrderVendorSourceSave,
  PickerPair,
} from "../../../../shared/contract/order_submission.ts";
import { api } from "../../api/client.ts";
import { apiFetch, isSuccess, readJson } from "../../api/http.ts";

export type { OrderSubmissionSource, OrderVendorSource, OrderVendorSourceListEntry, PickerPair };

/** Thrown by the readers when the server does not answer 200 with a body. */
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

const calls = api.api["order-submission"];

/** GET /api/order-submission/sources/active */
export async function fetchSubmissionSources(): Promise<OrderSubmissionSource[]> {
  return await bodyOf(await calls.sources.active.$get());
}

/** GET /api/order-submission/sources/get/{id} */
export async function fetchSubmissionSource(id: number): Promise<OrderSubmissionSource> {
  return await bodyOf(await calls.sources.get[":id"].$get({ param: { id: String(id) } }));
}

/** POST /api/order-submission/sources/save (form plus Id) */
export function saveSubmissionSource(payload: OrderSubmissionSourceSave): Promise<Response> {
  return apiFetch("/api/order-submission/sources/save", {
    method: "POST",
    body: JSON.stringify(payload),
  });
}

/** POST /api/order-submission/sources/delete/{id} */
export function deleteSubmissionSource(id: number) {
  return calls.sources.delete[":id"].$post({ param: { id: String(id) } });
}

/** GET /api/order-submission/order-submission-list: parent source picker pairs. */
export async function fetchSubmissionSourcePicker(): Promise<PickerPair[]> {
  return await bodyOf(await calls["order-submission-list"].$get());
}

/** GET /api/email-sources/email-list: e-mail source picker pairs. */
export async function fetchEmailSourcePicker(): Promise<PickerPair[]> {
  return await bodyOf(await apiFetch("/api/email-sources/email-list"));
}

/** GET /api/order-submission/vendor/active */
export async function fetchVendors(): Promise<OrderVendorSourceListEntry[]> {
  return await bodyOf(await calls.vendor.active.$get());
}

/** GET /api/order-submission/vendor/get/{vendorId} */
export async function fetchVendor(id: number): Promise<OrderVendorSource> {
  return await bodyOf(await calls.vendor.get[":id"].$get({ param: { id: String(id) } }));
}

/** POST /api/order-submission/vendor/save: the vendor with its aliases and template. */
export function saveVendor(payload: OrderVendorSourceSave): Promise<Response> {
  return apiFetch("/api/order-submission/vendor/save", {
    method: "POST",
    body: JSON.stringify(payload),
  });
}

/** POST /api/order-submission/vendor/delete/{id} */
export function deleteVendor(id: number) {
  return calls.vendor.delete[":id"].$post({ param: { id: String(id) } });
}

/** POST /api/order-submission/vendor/alias/delete/{id} */
export function deleteVendorAlias(id: number) {
  return calls.vendor.alias.delete[":id"].$post({ param: { id: String(id) } });
}
