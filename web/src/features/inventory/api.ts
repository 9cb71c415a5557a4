/**
 * Calls of the inventory contract (spec part 2, section 7) and the additions of
 * docs/inventory.md ("Server"): settings, preview, runs, release. Readers throw `RequestFailed`
 * unless the server answers 200 with a body; writers return the response so the pages can read
 * its status and message.
 */
import type {
  InventorySource,
  InventorySourceListEntry,
  InventorySourceSaveInput,
  ManualProcessResult,
} from "../../../../shared/contract/inventory.ts";
import { apiFetch, isSuccess, readJson } from "../../api/http.ts";

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

/** Thrown by the readers when the server does not answer 200 with a body. */
export class RequestFailed extends Error {
  constructor(readonly status: number, readonly serverMessage?: string) {
    super(serverMessage ?? `Request failed with status ${status}`);
  }
}

async function bodyOf<T>(response: Response): Promise<T> {
  if (!isSuccess(response)) {
    const error = await readJson<{ message?: unknown }>(response);
    throw new RequestFailed(
      response.status,
      typeof error?.message === "string" && error.message ? error.message : undefined,
    );
  }
  const body = await readJson<T>(response);
  if (body === undefined) throw new RequestFailed(response.status);
  return body;
}

const BASE = "/api/inventory-sources";

/** GET /api/inventory-sources/inventories */
export async function fetchInventorySources(): Promise<InventorySourceListEntry[]> {
  return await bodyOf(await apiFetch(`${BASE}/inventories`));
}

/** GET /api/inventory-sources/inventory/{id} (with `debugTools`) */
export async function fetchInventorySource(id: number): Promise<LoadedInventorySource> {
  return await bodyOf(await apiFetch(`${BASE}/inventory/${id}`));
}

/** GET /api/inventory-sources/settings */
export async function fetchInventorySettings(): Promise<InventorySettings> {
  return await bodyOf(await apiFetch(`${BASE}/settings`));
}

/** GET /api/email-sources/email-list: e-mail source picker pairs. */
export async function fetchEmailSourcePicker(): Promise<PickerPair[]> {
  return await bodyOf(await apiFetch("/api/email-sources/email-list"));
}

/** POST /api/inventory-sources/inventory/save */
export function saveInventorySource(payload: InventorySourceSaveInput): Promise<Response> {
  return apiFetch(`${BASE}/inventory/save`, { method: "POST", body: JSON.stringify(payload) });
}

/** POST /api/inventory-sources/inventory/{id}: deletes the source (no body). */
export function deleteInventorySource(id: number): Promise<Response> {
  return apiFetch(`${BASE}/inventory/${id}`, { method: "POST" });
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
): Promise<Response> {
  return apiFetch(`${BASE}/manually-process`, {
    method: "POST",
    body: uploadForm(sourceId, file, options),
  });
}

/** POST /api/inventory-sources/preview: what the run would flip; nothing stored. */
export async function previewProcess(
  sourceId: number,
  file: File,
  options: UploadOptions,
): Promise<PreviewResult> {
  return await bodyOf(
    await apiFetch(`${BASE}/preview`, {
      method: "POST",
      body: uploadForm(sourceId, file, options),
    }),
  );
}

/** POST /api/inventory-sources/debug-modify-file (multipart: file and sourceId). */
export function debugModifyFile(sourceId: number, file: File): Promise<Response> {
  return apiFetch(`${BASE}/debug-modify-file`, {
    method: "POST",
    body: uploadForm(sourceId, file),
  });
}

/** POST /api/inventory-sources/runs/{runId}/release: delivers a held run. */
export async function releaseRun(
  runId: number,
): Promise<
  { deliveryStatus: string; delivery: { status: string; log: string[]; error: string | null } }
> {
  return await bodyOf(await apiFetch(`${BASE}/runs/${runId}/release`, { method: "POST" }));
}
