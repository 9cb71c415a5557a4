/**
 * Calls of the order submission contract (spec part 2, section 7): order submission sources,
 * vendor sources and aliases, and the two pickers the edit pages need. Each is one `call(...)`
 * over the typed client; failures throw `ApiError` (web/src/api/call.ts), whose `text` keeps the
 * raw body the vendor save banner reads. Loaders take an AbortSignal.
 */
import type {
  OrderSubmissionSource,
  OrderSubmissionSourceSave,
  OrderVendorSource,
  OrderVendorSourceListEntry,
  OrderVendorSourceSave,
  PickerPair,
} from "../../../../shared/contract/order_submission.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";
import { apiUpload, type UploadProgress } from "../../api/http.ts";

export type { OrderSubmissionSource, OrderVendorSource, OrderVendorSourceListEntry, PickerPair };

const calls = api.api["order-submission"];
const init = (signal?: AbortSignal) => ({ init: { signal } });

/** GET /api/order-submission/sources/active */
export function fetchSubmissionSources(signal?: AbortSignal): Promise<OrderSubmissionSource[]> {
  return call(calls.sources.active.$get(undefined, init(signal))) as Promise<
    OrderSubmissionSource[]
  >;
}

/** GET /api/order-submission/sources/get/{id} */
export function fetchSubmissionSource(
  id: number,
  signal?: AbortSignal,
): Promise<OrderSubmissionSource> {
  return call(
    calls.sources.get[":id"].$get({ param: { id: String(id) } }, init(signal)),
  ) as Promise<OrderSubmissionSource>;
}

/** POST /api/order-submission/sources/save (form plus Id); answers the stored source. */
export function saveSubmissionSource(
  payload: OrderSubmissionSourceSave,
): Promise<{ id?: number } | undefined> {
  // deno-lint-ignore no-explicit-any
  return call(calls.sources.save.$post({ json: payload as any })) as Promise<
    { id?: number } | undefined
  >;
}

/** POST /api/order-submission/sources/delete/{id} */
export async function deleteSubmissionSource(id: number): Promise<void> {
  await call(calls.sources.delete[":id"].$post({ param: { id: String(id) } }));
}

/** GET /api/order-submission/order-submission-list: parent source picker pairs. */
export function fetchSubmissionSourcePicker(signal?: AbortSignal): Promise<PickerPair[]> {
  return call(calls["order-submission-list"].$get(undefined, init(signal))) as Promise<
    PickerPair[]
  >;
}

/** GET /api/email-sources/email-list: e-mail source picker pairs. */
export function fetchEmailSourcePicker(signal?: AbortSignal): Promise<PickerPair[]> {
  return call(api.api["email-sources"]["email-list"].$get(undefined, init(signal))) as Promise<
    PickerPair[]
  >;
}

/** GET /api/order-submission/vendor/active */
export function fetchVendors(signal?: AbortSignal): Promise<OrderVendorSourceListEntry[]> {
  return call(calls.vendor.active.$get(undefined, init(signal))) as Promise<
    OrderVendorSourceListEntry[]
  >;
}

/** GET /api/order-submission/vendor/get/{vendorId} */
export function fetchVendor(id: number, signal?: AbortSignal): Promise<OrderVendorSource> {
  return call(
    calls.vendor.get[":id"].$get({ param: { id: String(id) } }, init(signal)),
  ) as Promise<OrderVendorSource>;
}

/**
 * POST /api/order-submission/vendor/save: the vendor with its aliases and template. With
 * `onProgress`, the body goes through apiUpload and reports how much of it is sent.
 */
export function saveVendor(
  payload: OrderVendorSourceSave,
  onProgress?: UploadProgress,
): Promise<OrderVendorSource | undefined> {
  if (onProgress) {
    // With a template: through apiUpload, whose progress the page shows (issue 24).
    const url = "/api/order-submission/vendor/save";
    return call(apiUpload(url, JSON.stringify(payload), onProgress) as never) as Promise<
      OrderVendorSource | undefined
    >;
  }
  // deno-lint-ignore no-explicit-any
  return call(calls.vendor.save.$post({ json: payload as any })) as Promise<
    OrderVendorSource | undefined
  >;
}

/** POST /api/order-submission/vendor/delete/{id} */
export async function deleteVendor(id: number): Promise<void> {
  await call(calls.vendor.delete[":id"].$post({ param: { id: String(id) } }));
}

/** POST /api/order-submission/vendor/alias/delete/{id} */
export async function deleteVendorAlias(id: number): Promise<void> {
  await call(calls.vendor.alias.delete[":id"].$post({ param: { id: String(id) } }));
}
