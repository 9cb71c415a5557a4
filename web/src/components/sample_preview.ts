/**
 * Reading a sample or template file's headers and first rows for the column pickers (issue 24;
 * docs/web_decisions.md, "Column pickers"): a CSV or TXT in the browser with the shared reader
 * (loaded on first use), a workbook by POST /api/sample-files/preview, with its upload progress.
 */
import type { SamplePreview } from "../../../shared/contract/sample_files.ts";
import { call } from "../api/call.ts";
import { apiUpload } from "../api/http.ts";
import { uploadPercent } from "./upload_status.tsx";

export type { SamplePreview };

/** A file to preview: a picked file, or stored content (base64 decoded) with its name. */
export interface SampleSource {
  name: string;
  blob: Blob;
}

/** The preview call (beyond the spec; api/sample_files/routes.ts). */
export const SAMPLE_PREVIEW_PATH = "/api/sample-files/preview";

/**
 * The preview of `sample` with its header row (1-based; null: detected). `onPercent` hears the
 * upload's progress when the file goes to the server. Throws with the reason in words.
 */
export async function loadSamplePreview(
  sample: SampleSource,
  headerRow: number | null,
  onPercent: (percent: number) => void,
): Promise<SamplePreview> {
  // The CSV reader (papaparse) only loads once someone picks a sample.
  const shared = await import("../../../shared/files/sample_preview.ts");
  if (shared.readsAsText(sample.name)) {
    const bytes = new Uint8Array(await sample.blob.arrayBuffer());
    return shared.readCsvSample(bytes, { name: sample.name, headerRow });
  }
  const form = new FormData();
  form.set("file", sample.blob, sample.name);
  if (headerRow !== null) form.set("headerRow", String(headerRow));
  const upload = apiUpload(SAMPLE_PREVIEW_PATH, form, (sent, total) => {
    onPercent(uploadPercent(sent, total));
  });
  return await call(upload as never) as SamplePreview;
}
