import { decodeBase64 } from "../../../../shared/base64.ts";

/** Offers base64 content as a file download (the stored sample, a generated file). */
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
