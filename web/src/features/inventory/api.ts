/**
 * Calls of the inventory contract (spec part 2, section 7) and the additions of
 * docs/inventory.md ("Server"): settings, preview, runs, release. Each is one `call(...)` over
 * the typed client; failures throw `ApiError` (web/src/api/call.ts); loaders take an AbortSignal.
 */
import type {
  InventorySource,
  InventorySourceListEntry,
  InventorySourceSaveInput,
  ManualProcessResult,
} from "../../../../shared/contract/inventory.ts";
import { ApiError, call } from "../../api/call.ts";
import { api } from "../../api/client.ts";
import { apiUpload, type UploadProgress } from "../../api/http.ts";

export type { InventorySource, InventorySourceListEntry, ManualProcessResult };

/** A picker pair of GET /api/email-sources/email-list: name and id. */
export interface PickerPair {
  item1: string;
  item2: number;
}

/** GET inventory/{id} answers the server's DEBUG_TOOLS setting beside the source. */
export type LoadedInventorySource = InventorySource & { debugTools?: boolean };

/** GET settings (docs/inventory.md). */
export interface InventorySettings {
  debugTools: boolean;
  guardThreshold: number;
  maxUploadBytes: number;
}

/** One item whose status changes against the last delivered run. */
export interface Flip {
  itemNumber: string;
  from: string;
  to: string;
}

/** The guard's verdict of a preview. */
export interface GuardVerdict {
  previouslyActive: number;
  turnedInactive: number;
  turnedActive: number;
  share: number;
  threshold: number;
  held: boolean;
  compared: boolean;
}

/** POST preview: the result plus the flips and the guard's verdict; nothing is stored. */
export type PreviewResult = ManualProcessResult & {
  dryRun: true;
  held: boolean;
  flips: Flip[];
  guard: GuardVerdict;
};

/** POST manually-process: the contract's result plus the import run's state. */
export type ProcessResult = ManualProcessResult & {
  runId?: number;
  runStatus?: "succeeded" | "held" | "failed";
  held?: boolean;
  deliveryStatus?: string;
};

const sources = api.api["inventory-sources"];
const init = (signal?: AbortSignal) => ({ init: { signal } });
/** A multipart body: the routes read it with parseBody, so the typed client has no form type. */
const multipart = (body: FormData) => ({ init: { body } });

/** GET /api/inventory-sources/inventories */
export function fetchInventorySources(signal?: AbortSignal): Promise<InventorySourceListEntry[]> {
  return call(sources.inventories.$get(undefined, init(signal))) as Promise<
    InventorySourceListEntry[]
  >;
}

/** GET /api/inventory-sources/inventory/{id} (with `debugTools`) */
export function fetchInventorySource(
  id: number,
  signal?: AbortSignal,
): Promise<LoadedInventorySource> {
  return call(
    sources.inventory[":id"].$get({ param: { id: String(id) } }, init(signal)),
  ) as Promise<LoadedInventorySource>;
}

/** GET /api/inventory-sources/settings */
export function fetchInventorySettings(signal?: AbortSignal): Promise<InventorySettings> {
  return call(sources.settings.$get(undefined, init(signal))) as Promise<InventorySettings>;
}

/** GET /api/email-sources/email-list: e-mail source picker pairs. */
export function fetchEmailSourcePicker(signal?: AbortSignal): Promise<PickerPair[]> {
  return call(api.api["email-sources"]["email-list"].$get(undefined, init(signal))) as Promise<
    PickerPair[]
  >;
}

/**
 * POST /api/inventory-sources/inventory/save; answers the stored source. With `onProgress`, the
 * body goes through apiUpload and reports how much of it is sent.
 */
export function saveInventorySource(
  payload: InventorySourceSaveInput,
  onProgress?: UploadProgress,
): Promise<InventorySource | undefined> {
  if (onProgress) {
    // With a sample file: through apiUpload, whose progress the page shows (issue 24).
    const url = "/api/inventory-sources/inventory/save";
    return call(apiUpload(url, JSON.stringify(payload), onProgress) as never) as Promise<
      InventorySource | undefined
    >;
  }
  // deno-lint-ignore no-explicit-any
  return call(sources.inventory.save.$post({ json: payload as any })) as Promise<
    InventorySource | undefined
  >;
}

/** POST /api/inventory-sources/inventory/{id}: deletes the source (no body). */
export async function deleteInventorySource(id: number): Promise<void> {
  await call(sources.inventory[":id"].$post({ param: { id: String(id) } }));
}

/** The multipart fields of an upload ("true"/"false" as text, spec section 7). */
export interface UploadOptions {
  sendEmailNotification: boolean;
  submitViaSftp: boolean;
}

function uploadForm(sourceId: number, file: File, options?: UploadOptions): FormData {
  const form = new FormData();
  form.set("file", file);
  form.set("sourceId", String(sourceId));
  if (options) {
    form.set("sendEmailNotification", String(options.sendEmailNotification));
    form.set("submitViaSftp", String(options.submitViaSftp));
  }
  return form;
}

/** POST /api/inventory-sources/manually-process (multipart). */
export function manuallyProcess(
  sourceId: number,
  file: File,
  options: UploadOptions,
): Promise<ProcessResult | undefined> {
  return call<unknown>(
    sources["manually-process"].$post(undefined, multipart(uploadForm(sourceId, file, options))),
  ) as Promise<ProcessResult | undefined>;
}

/**
 * POST /api/inventory-sources/manually-process with the upload's progress reported (a 10 MB file
 * takes seconds to send on a slow line; issue 24).
 */
export function manuallyProcessWithProgress(
  sourceId: number,
  file: File,
  options: UploadOptions,
  onProgress: UploadProgress,
): Promise<ProcessResult | undefined> {
  // A path, not the typed client's $url(): that needs an absolute base, and the client's is "/".
  const url = "/api/inventory-sources/manually-process";
  // call() reads status and text, which a plain Response has as the typed client's has.
  return call(
    apiUpload(url, uploadForm(sourceId, file, options), onProgress) as never,
  ) as Promise<ProcessResult | undefined>;
}

/** POST /api/inventory-sources/preview: what the run would flip; nothing stored. */
export async function previewProcess(
  sourceId: number,
  file: File,
  options: UploadOptions,
  signal?: AbortSignal,
): Promise<PreviewResult> {
  const body = uploadForm(sourceId, file, options);
  const answer = await call(sources.preview.$post(undefined, { init: { body, signal } }));
  if (answer === undefined) throw new ApiError(200, undefined);
  return answer as unknown as PreviewResult;
}

/** POST /api/inventory-sources/debug-modify-file (multipart: file and sourceId). */
export function debugModifyFile(
  sourceId: number,
  file: File,
): Promise<ManualProcessResult | undefined> {
  return call(
    sources["debug-modify-file"].$post(undefined, multipart(uploadForm(sourceId, file))),
  ) as Promise<ManualProcessResult | undefined>;
}

/** POST /api/inventory-sources/runs/{runId}/release: delivers a held run. */
export function releaseRun(
  runId: number,
): Promise<
  { deliveryStatus: string; delivery: { status: string; log: string[]; error: string | null } }
> {
  return call(
    sources.runs[":runId"].release.$post({ param: { runId: String(runId) } }),
  ) as Promise<
    { deliveryStatus: string; delivery: { status: string; log: string[]; error: string | null } }
  >;
}
