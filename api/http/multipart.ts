/**
 * Reading a multipart upload: the file routes (inventory manual processing, order file import)
 * take a `file` part and text fields whose names clients spell in any case (`SourceId`,
 * `sourceId`), like the JSON bodies (validate.ts).
 */
import type { Context } from "hono";
import { badRequest } from "./errors.ts";

/** A parsed multipart form: its `file` part, if any, and its text fields by any-case name. */
export interface UploadForm {
  file: File | undefined;
  /** The text field `name` (case-insensitive), or undefined when absent or a file. */
  text(name: string): string | undefined;
}

/**
 * Parses the request's multipart form; a body that is not one is a 400.
 *
 * @example
 * ```ts ignore
 * const form = await readUploadForm(c);
 * if (!form.file) throw badRequest("Send a file.", { file: ["Required"] });
 * ```
 */
export async function readUploadForm(c: Context): Promise<UploadForm> {
  let form: Record<string, string | File | (string | File)[]>;
  try {
    form = await c.req.parseBody({ all: false });
  } catch {
    throw badRequest("Send the file as multipart/form-data.");
  }
  const fields = new Map<string, string | File>();
  for (const [key, value] of Object.entries(form)) {
    fields.set(key.toLowerCase(), Array.isArray(value) ? value[0] : value);
  }
  const file = fields.get("file");
  return {
    file: file instanceof File ? file : undefined,
    text(name) {
      const value = fields.get(name.toLowerCase());
      return typeof value === "string" ? value : undefined;
    },
  };
}
