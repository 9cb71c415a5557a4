/**
 * The manual upload's checks (spec part 2, sections 5, 8 and 9), the same texts the server
 * answers (`fileTypeProblem` in shared/inventory).
 */

/** Maximum upload for manual processing: 10 MB. */
export const MAX_UPLOAD_BYTES = 10_485_760;
export const TOO_LARGE = "File size must be less than 10MB";

/** The source's file type as an extension without the dot, lowercased ("" when unset). */
export function wantedType(fileType: string): string {
  return fileType.trim().replace(/^\./, "").toLowerCase();
}

/** The lowercased extension of a file name, without the dot ("" when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** Why a chosen file cannot be processed, or null. */
export function uploadProblem(
  fileType: string,
  file: { name: string; size: number },
): string | null {
  const wanted = wantedType(fileType);
  const ext = extensionOf(file.name);
  if (wanted !== "" && ext !== wanted) {
    return `Invalid file type. Expected .${wanted} but got ${ext ? "." + ext : "no extension"}`;
  }
  if (file.size > MAX_UPLOAD_BYTES) return TOO_LARGE;
  return null;
}

/** The success rate of a debug modification: modified ÷ total rows, in percent, rounded. */
export function successRate(modified: number, totalRows: number): number {
  return totalRows > 0 ? Math.round((modified / totalRows) * 100) : 0;
}

/** The user activated items as the screen counts them (a comma- or line-separated list). */
export function activatedItems(text: string): string[] {
  return text.split(/[,\r\n]+/).map((item) => item.trim()).filter((item) => item !== "");
}
