/**
 * A multipart/form-data body parsed into its text fields and its file part, without the request
 * around it, so that the file workers can do it (api/http/multipart.ts, api/ingest/file_worker.ts).
 */

/** The file part of an upload: its name, its size in bytes and its bytes. */
export interface UploadedFile {
  name: string;
  size: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/** What `parseForm` makes of a multipart body: text fields and the first file part. */
export interface ParsedForm {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

/**
 * Parses a multipart/form-data body (in the file workers: api/ingest/file_worker.ts). Field
 * names are lower-cased, and of two parts with one name the last counts, as before; the part
 * named `file` is the file when it is one.
 */
export async function parseForm(body: Uint8Array, contentType: string): Promise<ParsedForm> {
  const form = await new Response(body as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": contentType },
  }).formData();
  const parts = new Map<string, FormDataEntryValue>();
  for (const [key, value] of form.entries()) parts.set(key.toLowerCase(), value);
  const fields: Record<string, string> = {};
  for (const [name, value] of parts) if (typeof value === "string") fields[name] = value;
  const part = parts.get("file");
  const file = part instanceof File
    ? { name: part.name, size: part.size, bytes: new Uint8Array(await part.arrayBuffer()) }
    : null;
  return { fields, file };
}
