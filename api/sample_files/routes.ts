/**
 * POST /api/sample-files/preview: a sample or template file's headers and first rows, read with
 * the shared readers and the upload caps in the file workers. The web app reads CSV samples
 * itself (shared/files/sample_preview.ts) and sends workbooks here, because SheetJS would add
 * about a megabyte to the bundle (docs/web_decisions.md, "Column pickers"). Nothing is stored.
 */
import { Hono } from "hono";
import { samplePreviewFields } from "../../shared/contract/sample_files.ts";
import { FileRefusedError } from "../../shared/files/errors.ts";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import { tablePreview } from "../../shared/files/sample_preview.ts";
import { requireAnyFlag } from "../auth/guards.ts";
import type { AppEnv } from "../deps.ts";
import { allowBody, FILE_BODY_LIMIT } from "../http/body_limit.ts";
import { badRequest, validationError } from "../http/errors.ts";
import { readUploadForm } from "../http/multipart.ts";
import { FileWorkTimeoutError, readTableOffThread } from "../ingest/file_work.ts";

/** A text field's number: empty or absent means none. */
function optionalNumber(text: string | undefined): number | null {
  return text === undefined || text.trim() === "" ? null : Number(text);
}

export const sampleFileRoutes = new Hono<AppEnv>()
  // Every source form with column fields belongs to a flag; admins edit sources too.
  .post("/preview", requireAnyFlag(true), allowBody(FILE_BODY_LIMIT), async (c) => {
    const { file, text } = await readUploadForm(c);
    if (!file) throw badRequest("Choose a file to preview.", { file: ["Required"] });
    const parsed = samplePreviewFields.safeParse({ headerRow: optionalNumber(text("headerRow")) });
    if (!parsed.success) throw validationError(parsed.error);
    try {
      const table = await readTableOffThread(c.var.deps, file.bytes, {
        name: file.name,
        headerRow: parsed.data.headerRow ?? undefined,
        limits: UPLOAD_LIMITS,
      }, true);
      return c.json(tablePreview(table, file.name));
    } catch (error) {
      // A refused file or one past FILE_WORK_SECONDS: the person reads why, on the form.
      if (error instanceof FileRefusedError || error instanceof FileWorkTimeoutError) {
        throw badRequest(error.message);
      }
      throw error;
    }
  });
