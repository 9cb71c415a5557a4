import { type Command, InvalidArgumentError } from "commander";
import {
  columnLetter,
  FileRefusedError,
  readTable,
  type Table,
  UPLOAD_LIMITS,
} from "../shared/files/mod.ts";

/** Options of `inspect` as commander hands them over. */
export interface InspectOptions {
  json?: boolean;
  all?: boolean;
  /** `--no-headers` sets this to false. */
  headers?: boolean;
  headerRow?: number;
  sheet?: string;
  stripLeadingZeros?: boolean;
  maxSize?: number;
  rows?: number;
}

const DELIMITER_NAMES: Record<string, string> = {
  ",": 'comma ","',
  ";": 'semicolon ";"',
  "\t": "tab",
  "|": 'pipe "|"',
};

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < 1) {
      throw new InvalidArgumentError(`${name} must be a positive whole number, got "${value}"`);
    }
    return n;
  };
}

/** The machine-readable summary: every row with `--all`, else the first rows and a count. */
export function inspectionJson(
  table: Table,
  all: boolean,
  firstRows: number,
): Record<string, unknown> {
  const base = {
    format: table.format,
    encoding: table.encoding,
    delimiter: table.delimiter,
    headerRow: table.headerRow,
    headers: table.headers,
  };
  if (all) return { ...base, rows: table.rows, errors: table.errors };
  return {
    ...base,
    sheet: table.sheet,
    sheets: table.sheets,
    rowCount: table.rows.length,
    rows: table.rows.slice(0, firstRows),
    errors: table.errors,
  };
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\r?\n|\r/g, "⏎");
  return flat.length > width ? flat.slice(0, width - 1) + "…" : flat;
}

/** The human-readable summary printed by `inspect`. */
export function inspectionText(
  file: string,
  size: number,
  table: Table,
  firstRows: number,
): string {
  const lines: string[] = [];
  const field = (label: string, value: string) => lines.push(`${(label + ":").padEnd(12)}${value}`);
  field("File", `${file} (${size.toLocaleString("en-US")} bytes)`);
  field("Format", table.format.toUpperCase());
  if (table.encoding) {
    field("Encoding", `${table.encoding.toUpperCase()}${table.bom ? " with BOM" : ""}`);
  }
  if (table.delimiter) field("Delimiter", DELIMITER_NAMES[table.delimiter] ?? table.delimiter);
  if (table.delimiter && table.decimalComma) field("Decimals", "comma (e.g. 1.234,5)");
  if (table.sheet !== null) field("Sheet", `${table.sheet} (sheets: ${table.sheets.join(", ")})`);
  field(
    "Header row",
    table.headerRow === null ? "none (columns by index or letter)" : String(table.headerRow),
  );
  const width = Math.max(
    table.headers.length,
    ...table.rows.slice(0, 1000).map((r) => r.length),
    0,
  );
  field("Columns", String(width));
  for (let c = 0; c < width; c++) {
    lines.push(`  ${columnLetter(c).padEnd(4)}${c + 1}`.padEnd(12) + (table.headers[c] ?? ""));
  }
  field(
    "Data rows",
    `${table.rows.length.toLocaleString("en-US")}, row errors: ${table.errors.length}`,
  );
  const shown = table.rows.slice(0, firstRows);
  if (shown.length > 0) lines.push(`First ${shown.length} rows:`);
  shown.forEach((row, i) => {
    lines.push(
      `  row ${String(table.rowNumbers[i]).padEnd(6)}${row.map((c) => clip(c, 24)).join(" | ")}`,
    );
  });
  if (table.errors.length > 0) lines.push("Row errors:");
  for (const e of table.errors.slice(0, 20)) {
    lines.push(`  row ${e.row}${e.column ? `, column ${e.column}` : ""}: ${e.message}`);
  }
  if (table.errors.length > 20) {
    lines.push(`  … and ${table.errors.length - 20} more (use --json --all)`);
  }
  return lines.join("\n");
}

/**
 * Reads a file and prints what the readers make of it. Returns the exit code: 0, or 1 with
 * one line on stderr when the file cannot be read or is refused.
 */
export async function runInspect(file: string, options: InspectOptions): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    console.error(`error: cannot read ${file}: ${reason}`);
    return 1;
  }
  const name = file.split(/[\\/]/).pop()!;
  try {
    const table = await readTable(bytes, {
      name,
      hasHeaders: options.headers !== false,
      headerRow: options.headerRow,
      sheet: options.sheet,
      stripLeadingZeros: options.stripLeadingZeros,
      limits: { maxBytes: options.maxSize ?? UPLOAD_LIMITS.maxBytes },
    });
    const firstRows = options.rows ?? 10;
    const out = options.json
      ? JSON.stringify(inspectionJson(table, options.all === true, firstRows))
      : inspectionText(file, bytes.length, table, options.all ? table.rows.length : firstRows);
    console.log(out);
    return 0;
  } catch (e) {
    if (e instanceof FileRefusedError) {
      console.error(`error: ${e.message.replace(/\s+/g, " ")}`);
      return 1;
    }
    throw e;
  }
}

/** Registers `inspect <file>` on the CLI program. */
export function registerInspect(program: Command): void {
  program
    .command("inspect")
    .description(
      "show how a CSV, TXT, XLS or XLSX file is read: format, encoding, delimiter, header row, columns, rows",
    )
    .argument("<file>", "the file to read")
    .option("--json", "print JSON for machines")
    .option(
      "--all",
      "include every row (with --json: {format, encoding, delimiter, headerRow, headers, rows, errors})",
    )
    .option("--no-headers", "the file has no header row; columns are numbered")
    .option(
      "--header-row <n>",
      "1-based row of the header (detected when omitted)",
      positiveInt("--header-row"),
    )
    .option("--sheet <name>", "sheet to read in a workbook (default: the first)")
    .option("--strip-leading-zeros", "remove leading zeros from all-digit cells (item numbers)")
    .option(
      "--max-size <bytes>",
      `refuse files larger than this (default ${UPLOAD_LIMITS.maxBytes})`,
      positiveInt("--max-size"),
    )
    .option("--rows <n>", "how many rows to show without --all (default 10)", positiveInt("--rows"))
    .action(async (file: string, options: InspectOptions) => {
      Deno.exitCode = await runInspect(file, options);
    });
}
