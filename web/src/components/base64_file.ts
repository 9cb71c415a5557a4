/** Files as base64 text, the way the API carries them: a picked file read in, stored content offered out. */
import { decodeBase64, encodeBase64 } from "../../../shared/base64.ts";

/** Offers base64 content as a file download (a stored sample or template, a generated file). */
export function downloadBase64(name: string, base64: string): void {
  const url = URL.createObjectURL(
    new Blob([decodeBase64(base64)], { type: "application/octet-stream" }),
  );
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A picked file's content as base64. */
export async function fileToBase64(file: Blob): Promise<string> {
  return encodeBase64(new Uint8Array(await file.arrayBuffer()));
}
