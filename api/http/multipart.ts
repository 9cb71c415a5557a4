/**
 * Reading a multipart upload: the file routes (inventory manual processing, order file import)
 * take a `file` part and text fields whose names clients spell in any case (`SourceId`,
 * `sourceId`), like the JSON bodies (validate.ts).
 */
import type { Context } from "hono";
import type { AppEnv } from "../deps.ts";
import { badRequest } from "./errors.ts";
import { type ParsedForm, parseForm, type UploadedFile } from "./form_data.ts";

export type { UploadedFile };

/** A parsed multipart form: its `file` part, if any, and its text fields by any-case name. */
export interface UploadForm {
  file: UploadedFile | undefined;
  /** The text field `name` (case-insensitive), or undefined when absent or a file. */
  text(name: string): string | undefined;
}

const UPLOAD_PARSE_SECONDS = 60;

/** The body types a form comes in; any other body is a form without fields (as Hono's parseBody). */
const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/**
 * Parses the request's form (multipart or URL-encoded); a body of another type is an empty form,
 * so the route answers which field is missing, and a malformed form is a 400. The body is parsed
 * in the process's file workers: parsing a 4.8 MB upload and copying its file out took the
 * thread that answers requests 80–95 ms (issue 29).
 *
 * @example
 * ```ts ignore
 * const form = await readUploadForm(c);
 * if (!form.file) throw badRequest("Send a file.", { file: ["Required"] });
 * ```
 */
export async function readUploadForm(c: Context<AppEnv>): Promise<UploadForm> {
  const contentType = c.req.header("content-type") ?? "";
  let parsed: ParsedForm = { fields: {}, file: null };
  if (FORM_TYPES.test(contentType)) {
    const body = new Uint8Array(await c.req.arrayBuffer());
    try {
      const files = c.var.deps.files;
      parsed = files
        ? await files.run<ParsedForm>(
          { task: "readForm", input: { body, contentType } },
          // Parsing is linear in the body, which allowBody bounds: FILE_WORK_SECONDS is for files.
          { what: "Reading the upload", transfer: [body.buffer], seconds: UPLOAD_PARSE_SECONDS },
        )
        : await parseForm(body, contentType);
    } catch {
      throw badRequest("Send the file as multipart/form-data.");
    }
  }
  return {
    file: parsed.file ?? undefined,
    text: (name) => parsed.fields[name.toLowerCase()],
  };
}
