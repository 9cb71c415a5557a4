/**
 * `inventory process FILE --config source.json --out OUT`: the inventory engine run headless,
 * with no server and no database (docs/inventory.md, "CLI"). The source settings and the sample
 * file come from a JSON file shaped like `GET /api/inventory-sources/inventory/{id}`.
 */
import { type Command, InvalidArgumentError } from "commander";
import { FEED_LIMITS, FileRefusedError, findColumn, readTable } from "../shared/files/mod.ts";
import type { InventorySource, ItemStatus } from "../shared/contract/inventory.ts";
import {
  type InventoryOutcome,
  type ItemStatusEntry,
  parseInventorySource,
  processInventory,
  type QuantitySnapshot,
  rowErrorText,
} from "../shared/inventory/mod.ts";

/** Exit codes of `inventory process` (also in its --help and docs/inventory.md). */
export const EXIT = {
  /** The file was processed and the generated file written. */
  done: 0,
  /** The input was refused: the supplier file, the config, the previous statuses or snapshots. */
  refused: 1,
  /** Processed and written, but held by the guard: do not deliver it without a release. */
  held: 2,
  /** The generated file could not be written, or an unexpected error. */
  failed: 3,
} as const;

const EXIT_HELP = `
Exit codes:
  0  done: the generated file was written to --out
  1  refused input: the supplier file (type, size, content, a missing column), the --config,
     --previous or --snapshots file (the message says which; with --json a JSON error)
  2  held by the guard: more than the threshold of the previously active items (from
     --previous) would turn inactive; the file is written to --out for review, not for delivery
  3  the generated file could not be written, or an unexpected error
Usage errors (an unknown option, no FILE) exit 1 with commander's message.`;

/** Options of `inventory process` as commander hands them over. */
export interface ProcessOptions {
  config?: string;
  out?: string;
  json?: boolean;
  previous?: string;
  snapshots?: string;
  snapshotsOut?: string;
  threshold?: number;
  now?: string;
  maxSize?: number;
}

class InputError extends Error {}

function share(value: string): number {
  const n = Number(value);
  if (!/^\s*\d*(\.\d+)?\s*$/.test(value) || !(n >= 0 && n <= 1)) {
    throw new InvalidArgumentError(`--threshold must be a share from 0 to 1, got "${value}"`);
  }
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) {
    throw new InvalidArgumentError(`--max-size must be a positive whole number, got "${value}"`);
  }
  return n;
}

async function readInput(path: string, what: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new InputError(`cannot read the ${what} ${path}: ${reason}`);
  }
}

async function readJson(path: string, what: string): Promise<unknown> {
  const bytes = await readInput(path, what);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new InputError(`the ${what} ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

const baseName = (path: string) => path.split(/[\\/]/).pop()!;

/** Reads the source settings (GET inventory/{id} shape). */
export async function loadSource(path: string): Promise<InventorySource> {
  const json = await readJson(path, "config");
  try {
    return parseInventorySource(json);
  } catch (e) {
    const issues = (e as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    const detail = issues
      ? issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; ")
      : (e as Error).message;
    throw new InputError(`the config ${path} is not an inventory source: ${detail}`);
  }
}

/**
 * The last delivered statuses: a JSON array of `{ itemNumber, status }`, or a previously
 * generated file read with the source's generated-file columns.
 */
export async function loadPrevious(
  path: string,
  source: InventorySource,
): Promise<ItemStatusEntry[]> {
  const status = (s: unknown): ItemStatus =>
    String(s ?? "").trim().toLowerCase() === "active" ? "Active" : "Inactive";
  if (path.toLowerCase().endsWith(".json")) {
    const json = await readJson(path, "previous statuses");
    if (!Array.isArray(json)) {
      throw new InputError(`${path}: expected an array of { itemNumber, status }`);
    }
    return json.map((e, i) => {
      if (!e || typeof e !== "object" || typeof e.itemNumber !== "string") {
        throw new InputError(`${path}: entry ${i + 1} has no itemNumber`);
      }
      return { itemNumber: e.itemNumber, status: status(e.status) };
    });
  }
  const fd = source.fileData;
  try {
    const table = await readTable(await readInput(path, "previous file"), {
      name: baseName(path),
      hasHeaders: fd.fileHasHeader,
      headerRow: fd.fileHasHeader && fd.headerRowIndex ? fd.headerRowIndex : undefined,
      limits: FEED_LIMITS,
    });
    const width = Math.max(table.headers.length, ...table.rows.map((r) => r.length));
    const item = findColumn(table.headers, fd.itemNumberColumnName, width);
    const st = findColumn(table.headers, fd.itemStatusColumnName, width);
    return table.rows.filter((r) => (r[item] ?? "").trim() !== "").map((r) => ({
      itemNumber: r[item].trim(),
      status: status(r[st]),
    }));
  } catch (e) {
    if (e instanceof FileRefusedError) {
      throw new InputError(`the previous file ${path}: ${e.message}`);
    }
    throw e;
  }
}

/** Stored snapshots: a JSON array of `{ itemNumber, quantity, takenAt }`. */
export async function loadSnapshots(path: string): Promise<QuantitySnapshot[]> {
  const json = await readJson(path, "snapshots");
  if (!Array.isArray(json)) {
    throw new InputError(`${path}: expected an array of { itemNumber, quantity, takenAt }`);
  }
  json.forEach((s, i) => {
    if (
      !s || typeof s.itemNumber !== "string" || typeof s.quantity !== "number" ||
      (typeof s.takenAt !== "string" && typeof s.takenAt !== "number") ||
      Number.isNaN(typeof s.takenAt === "number" ? s.takenAt : Date.parse(s.takenAt))
    ) {
      throw new InputError(`${path}: entry ${i + 1} is not { itemNumber, quantity, takenAt }`);
    }
  });
  return json;
}

/** The machine-readable report (every path, errors included, prints one of these). */
export function reportJson(
  status: "done" | "held" | "refused" | "failed",
  exitCode: number,
  message: string,
  outcome?: InventoryOutcome,
  out?: string,
): Record<string, unknown> {
  return {
    status,
    exitCode,
    message,
    out: outcome?.output ? out ?? null : null,
    fileName: outcome?.output?.fileName ?? null,
    format: outcome?.output?.format ?? null,
    refused: outcome?.refused ?? null,
    counts: outcome?.counts ?? null,
    guard: outcome
      ? {
        held: outcome.guard.held,
        compared: outcome.guard.compared,
        previouslyActive: outcome.guard.previouslyActive,
        turnedInactive: outcome.guard.turnedInactive,
        turnedActive: outcome.guard.turnedActive,
        share: outcome.guard.share,
        threshold: outcome.guard.threshold,
      }
      : null,
    flips: outcome?.flips ?? [],
    rowErrors: outcome?.rowErrors ?? [],
    modifications: outcome?.result.processingSummary?.modifications ?? [],
    logs: outcome?.result.processingLogs ?? [],
  };
}

/** The human-readable report. */
export function reportText(outcome: InventoryOutcome, out: string): string {
  const c = outcome.counts;
  const n = (x: number) => x.toLocaleString("en-US");
  const lines = [
    `${outcome.held ? "HELD" : "Done"}: ${outcome.result.message}`,
    `Items: ${n(c.items)} (${n(c.active)} Active, ${n(c.inactive)} Inactive; ${
      n(c.missing)
    } missing from the file, ${n(c.decidedByStatus)} by status, ${
      n(c.predictedInactive)
    } by prediction)`,
    `Rows: ${n(c.totalRows)} (${n(c.rowErrors)} row errors, ${
      n(c.duplicateItems)
    } duplicated items summed, ${n(c.rowsNotInCatalogue)} not in the catalogue)`,
  ];
  if (outcome.guard.compared) {
    lines.push(
      `Flips against --previous: ${n(outcome.flips.length)} (${
        n(outcome.guard.turnedInactive)
      } to Inactive, ${n(outcome.guard.turnedActive)} to Active; ${
        Math.round(outcome.guard.share * 100)
      } % of the previously active, threshold ${Math.round(outcome.guard.threshold * 100)} %)`,
    );
    for (const f of outcome.flips.slice(0, 50)) {
      lines.push(`  ${f.itemNumber}: ${f.from} → ${f.to}`);
    }
    if (outcome.flips.length > 50) {
      lines.push(`  … and ${n(outcome.flips.length - 50)} more (use --json)`);
    }
  } else {
    lines.push("Flips: no --previous statuses given, nothing compared");
  }
  if (outcome.rowErrors.length > 0) lines.push("Row errors:");
  for (const e of outcome.rowErrors.slice(0, 20)) lines.push(`  ${rowErrorText(e)}`);
  if (outcome.rowErrors.length > 20) {
    lines.push(`  … and ${n(outcome.rowErrors.length - 20)} more (use --json)`);
  }
  lines.push(
    `Wrote ${out} (${outcome.output!.format.toUpperCase()}, ${
      n(outcome.output!.bytes.length)
    } bytes)${outcome.held ? " — held: review it, do not deliver it without a release" : ""}`,
  );
  return lines.join("\n");
}

/** Writes under a temporary name, then renames, so a reader never sees half a file. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/** Runs `inventory process`; returns the exit code. */
export async function runProcess(file: string, options: ProcessOptions): Promise<number> {
  const json = options.json === true;
  const progress = !json && Deno.stdout.isTerminal();
  const encoder = new TextEncoder();
  const showProgress = (step: string) => {
    if (progress) Deno.stdout.writeSync(encoder.encode(`\r\x1b[2K${step}…`));
  };
  const clearProgress = () => {
    if (progress) Deno.stdout.writeSync(encoder.encode("\r\x1b[2K"));
  };
  const fail = (
    status: "refused" | "failed",
    code: number,
    message: string,
    outcome?: InventoryOutcome,
  ) => {
    clearProgress();
    if (json) console.log(JSON.stringify(reportJson(status, code, message, outcome)));
    else console.error(`error: ${message.replace(/\s+/g, " ")}`);
    return code;
  };
  try {
    if (!options.config) throw new InputError("--config <source.json> is required");
    if (!options.out) throw new InputError("--out <file> is required");
    let now = new Date();
    if (options.now) {
      now = new Date(options.now);
      if (Number.isNaN(now.getTime())) throw new InputError(`--now "${options.now}" is not a date`);
    }
    showProgress("reading the config");
    const source = await loadSource(options.config);
    const bytes = await readInput(file, "supplier file");
    const previousStatuses = options.previous ? await loadPrevious(options.previous, source) : null;
    const snapshots = options.snapshots ? await loadSnapshots(options.snapshots) : [];
    const outcome = await processInventory({
      source,
      supplierFile: { name: baseName(file), bytes },
      snapshots,
      previousStatuses,
      guardThreshold: options.threshold,
      now,
      limits: { maxBytes: options.maxSize ?? FEED_LIMITS.maxBytes },
      onProgress: (step) => showProgress(step),
    });
    if (outcome.refused) return fail("refused", EXIT.refused, outcome.result.message, outcome);
    showProgress("saving");
    try {
      await writeAtomically(options.out, outcome.output!.bytes);
      if (options.snapshotsOut) {
        await Deno.writeTextFile(
          options.snapshotsOut,
          JSON.stringify([...snapshots, ...outcome.snapshots]),
        );
      }
    } catch (e) {
      return fail(
        "failed",
        EXIT.failed,
        `cannot write ${options.out}: ${(e as Error).message}`,
        outcome,
      );
    }
    clearProgress();
    const code = outcome.held ? EXIT.held : EXIT.done;
    if (json) {
      console.log(
        JSON.stringify(
          reportJson(
            outcome.held ? "held" : "done",
            code,
            outcome.result.message,
            outcome,
            options.out,
          ),
        ),
      );
    } else {
      console.log(reportText(outcome, options.out));
    }
    return code;
  } catch (e) {
    if (e instanceof InputError) return fail("refused", EXIT.refused, e.message);
    return fail("failed", EXIT.failed, `unexpected error: ${(e as Error)?.message ?? String(e)}`);
  }
}

/** Registers `inventory process` on the CLI program. */
export function registerInventory(program: Command): void {
  const inventory = program
    .command("inventory")
    .description("inventory feeds: run the engine on a supplier file");
  inventory
    .command("process")
    .description(
      "process a supplier file headless (no server, no database) and write the generated file",
    )
    .argument("<file>", "the supplier's stock file (CSV, TXT, XLS or XLSX)")
    .option(
      "--config <source.json>",
      "the source as GET /api/inventory-sources/inventory/{id} answers it, sample file in fileData.inventoryFileData (base64)",
    )
    .option("--out <file>", "where to write the generated file")
    .option("--json", "print JSON for machines (on every path, errors included)")
    .option(
      "--previous <file>",
      "last delivered statuses, for the flips and the guard: a JSON array of {itemNumber, status} or a previously generated file",
    )
    .option(
      "--snapshots <file>",
      "stored quantities for the prediction: a JSON array of {itemNumber, quantity, takenAt}",
    )
    .option(
      "--snapshots-out <file>",
      "write the snapshots plus this run's quantities (for the next run's --snapshots)",
    )
    .option(
      "--threshold <share>",
      "guard threshold, 0 to 1 (default: the source's, else 0.5)",
      share,
    )
    .option(
      "--now <iso-time>",
      "the run's time (default: now): the date column, the prediction's window",
    )
    .option(
      "--max-size <bytes>",
      `refuse supplier files larger than this (default ${FEED_LIMITS.maxBytes})`,
      positiveInt,
    )
    .addHelpText("after", EXIT_HELP)
    .action(async (file: string, options: ProcessOptions) => {
      Deno.exitCode = await runProcess(file, options);
    });
}
