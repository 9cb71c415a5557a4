/**
 * Reading and writing CSV, delimited TXT, XLS and XLSX files: pure functions from bytes to
 * tables and back, shared by the server, the jobs, the CLI and the web app.
 *
 * @module
 */
export { FileRefusedError, type RefusalCode, type RowError } from "./errors.ts";
export { FEED_LIMITS, type FileLimits, resolveLimits, UPLOAD_LIMITS } from "./limits.ts";
export { type FileFormat, formatFromName, sniffContent } from "./detect_format.ts";
export { decodeText, detectEncoding, type TextEncodingName } from "./detect_encoding.ts";
export { type Delimiter, DELIMITERS, detectDelimiter } from "./detect_delimiter.ts";
export type { Grid, Table } from "./table.ts";
export { gridToTable, readGrid, type ReadOptions, readTable } from "./read_table.ts";
export { readTableRows, type RowsHead, type RowsRead, type RowVisitor } from "./read_rows.ts";
export type { SheetRef } from "./xlsx_reader.ts";
export { columnLabel, columnLetter, type ColumnRef, findColumn, letterIndex } from "./columns.ts";
export {
  describeProblem,
  excelSerialToIso,
  looksLikeDate,
  NOT_AVAILABLE_TOKENS,
  parseDate,
  type ParsedValue,
  parseItemNumber,
  parseNumber,
  stripZeros,
} from "./values.ts";
export { cellError, dateAt, itemAt, numberAt } from "./cells.ts";
export { escapeFormula } from "./formula_escape.ts";
export { type CellValue, type WriteFormat, type WriteOptions, writeTable } from "./write_table.ts";
export { type FilledFile, type FillOptions, fillTemplate } from "./fill_template.ts";
