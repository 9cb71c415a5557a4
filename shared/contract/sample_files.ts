/**
 * POST /api/sample-files/preview (beyond the spec; issue 24, "Column pickers"): the headers and
 * first rows of a sample or template file, for the column fields of the source forms. Nothing is
 * stored. docs/web_decisions.md, "Column pickers".
 */
import { z } from "zod";
import { SAMPLE_PREVIEW_ROWS } from "../files/sample_preview.ts";

export type { SamplePreview } from "../files/sample_preview.ts";

/** The multipart form's text field: the 1-based header row, empty or absent to detect it. */
export const samplePreviewFields = z.object({
  headerRow: z.number().int().min(1).max(1_000_000).nullable(),
});

/** The answer: the preview of shared/files/sample_preview.ts. */
export const samplePreviewSchema = z.object({
  fileName: z.string(),
  headerRow: z.number().int().nullable(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())).describe(`the first ${SAMPLE_PREVIEW_ROWS} data rows`),
  rowCount: z.number().int(),
});
