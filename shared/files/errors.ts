/** Why a whole file was refused; stable so the server and CLI can branch on it. */
export type RefusalCode =
  | "empty"
  | "too_large"
  | "unsupported_type"
  | "content_mismatch"
  | "binary_content"
  | "too_many_rows"
  | "too_many_columns"
  | "too_many_cells"
  | "cell_too_long"
  | "zip_too_many_entries"
  | "zip_entry_too_large"
  | "zip_too_large"
  | "zip_ratio"
  | "corrupt"
  | "malformed_csv"
  | "truncated_file"
  | "encrypted"
  | "sheet_not_found"
  | "header_row_out_of_range"
  | "header_row_empty"
  | "column_not_found"
  | "template_invalid";

/**
 * A file (or a request about a file) that cannot be processed at all. Unlike a row
 * error it stops the run; `message` is written for the person who sent the file.
 *
 * @example
 * ```ts ignore
 * try { await readTable(bytes, { name: "x.csv" }); }
 * catch (e) { if (e instanceof FileRefusedError) console.error(e.message); }
 * ```
 */
export class FileRefusedError extends Error {
  readonly code: RefusalCode;
  constructor(code: RefusalCode, message: string) {
    super(message);
    this.name = "FileRefusedError";
    this.code = code;
  }
}

/** A problem with one row (or one cell) that does not stop the rest of the file. */
export interface RowError {
  /** 1-based row number as a spreadsheet program shows it (title rows and blank rows count). */
  row: number;
  /** Header name, or column letter when the file has no headers. */
  column?: string;
  message: string;
}
