/**
 * `inventory process FILE --config source.json --out OUT`: the inventory engine run headless,
 * with no server and no database (docs/inventory.md, "CLI"). The source settings and the sample
 * file come from a JSON file shaped like `GET /api/inventory-sources/inventory/{id}`.
 */
import { type Command, InvalidArgumentError } from "commander";
import { CliError, EXIT as API_EXIT, EXIT_HELP as API_EXIT_HELP } from "./client.ts";
import {
  action,
  type Ctx,
  details,
  parseId,
  pick,
  printError,
  subcommand,
  table,
} from "./command.ts";
import { contextOf } from "./command.ts";
import { registerInventoryItems } from "./inventory_items.ts";
import { readLocalFile } from "./orders.ts";
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
Two forms:
  --source ID_OR_NAME  on the server (the manual processing screen's call): the run is stored,
                       the guard compares with the last delivered run; --dry-run only previews
                       (the flips), --sftp / --email deliver the file. Exit codes of every server
                       command (below, "Server form").
  --config FILE        headless, no server, no database: exit codes just below.

Exit codes of the --config form:
  0  done: the generated file was written to --out
  1  refused input: the supplier file (type, size, content, a missing column), the --config,
     --previous or --snapshots file (the message says which; with --json a JSON error)
  2  held by the guard: more than the threshold of the previously active items (from
     --previous) would turn inactive; the file is written to --out for review, not for delivery
  3  the generated file could not be written, or an unexpected error
Usage errors (an unknown option, no FILE) exit 1 with commander's message.

Server form:${API_EXIT_HELP.replace(/^\nExit codes:/, "")}`;

/** Options of `inventory process` as commander hands them over. */
export interface ProcessOptions {
  config?: string;
  source?: string;
  dryRun?: boolean;
  sftp?: boolean;
  email?: boolean;
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
    if (!options.config) {
      throw new InputError(
        "--config <source.json> is required (or --source ID_OR_NAME to process on the server)",
      );
    }
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

const INVENTORY_LIST = "/api/inventory-sources/inventories";

type Row = Record<string, unknown>;

/** The server form's report: counts, guard, flips, delivery. */
function serverReport(result: Row, dryRun: boolean): string {
  const flips = (result.flips as { itemNumber: string; from: string; to: string }[]) ?? [];
  const lines = [
    `${dryRun ? "Dry run" : result.held ? "HELD" : result.success === false ? "FAILED" : "Done"}: ${
      result.message ?? ""
    }`,
    `Items: ${result.processedCount ?? 0} (${result.activeCount ?? 0} Active, ${
      result.inactiveCount ?? 0
    } Inactive)`,
  ];
  if (result.runId) {
    lines.push(
      `Run ${result.runId}: ${result.runStatus}; delivery ${result.deliveryStatus ?? "none"}${
        result.held ? " — held: release it with `cli runs release " + result.runId + "`" : ""
      }`,
    );
  }
  const guard = result.guard as Row | undefined;
  if (dryRun) {
    lines.push(
      `Flips against the last delivered run: ${flips.length}${
        guard?.compared === false ? " (no delivered run to compare with)" : ""
      }${result.held ? " — the run would be held by the guard" : ""}`,
    );
    for (const f of flips.slice(0, 50)) lines.push(`  ${f.itemNumber}: ${f.from} → ${f.to}`);
    if (flips.length > 50) lines.push(`  … and ${flips.length - 50} more (use --json)`);
  }
  for (const e of ((result.errors as string[]) ?? []).slice(0, 20)) lines.push(`  error: ${e}`);
  return lines.join("\n");
}

/** `inventory process FILE --source`: the manual processing call (or the preview). */
async function processOnServer(ctx: Ctx, file: string, options: ProcessOptions): Promise<number> {
  if (options.config) throw new CliError("give either --source (server) or --config (headless)");
  if (options.dryRun && (options.sftp || options.email)) {
    throw new CliError("--dry-run delivers nothing: leave out --sftp and --email");
  }
  const upload = await readLocalFile(file);
  const list = await ctx.api.get<Row[]>(INVENTORY_LIST);
  const source = pick(list, options.source!, "sourceName", "inventory source");
  const form = new FormData();
  form.set("file", upload);
  form.set("sourceId", String(source.id));
  form.set("trigger", "cli");
  form.set("submitViaSftp", String(options.sftp === true));
  form.set("sendEmailNotification", String(options.email === true));
  ctx.progress(options.dryRun ? "previewing" : "processing");
  const dryRun = options.dryRun === true;
  const result = await ctx.api.request<Row>(
    "POST",
    dryRun ? "/api/inventory-sources/preview" : "/api/inventory-sources/manually-process",
    { form },
  );
  // The generated file stays on the server (GET runs/{id}/file); JSON without the base64 bulk.
  const { fileData: _data, ...shown } = result;
  ctx.print(shown, () => serverReport(result, dryRun));
  if (result.success === false) return API_EXIT.refused;
  return result.held ? API_EXIT.attention : API_EXIT.ok;
}

/** Registers `inventory process|list|show|release` on the CLI program. */
export function registerInventory(program: Command): void {
  const inventory = program
    .command("inventory")
    .description("inventory feeds: process supplier files, sources and runs");
  inventory
    .command("process")
    .description(
      "process a supplier file: on the server (--source), or headless with no server (--config)",
    )
    .argument("<file>", "the supplier's stock file (CSV, TXT, XLS or XLSX)")
    .option("--source <id-or-name>", "the inventory source on the server (the manual-process call)")
    .option("--dry-run", "with --source: preview only, show the flips, store and deliver nothing")
    .option("--sftp", "with --source: submit the generated file to the source's SFTP server")
    .option("--email", "with --source: e-mail the generated file to the inventory recipients")
    .option(
      "--config <source.json>",
      "headless: the source as GET /api/inventory-sources/inventory/{id} answers it, sample file in fileData.inventoryFileData (base64)",
    )
    .option("--out <file>", "headless: where to write the generated file")
    .option("--json", "print JSON for machines (on every path, errors included)")
    .option(
      "--previous <file>",
      "headless: last delivered statuses, for the flips and the guard: a JSON array of {itemNumber, status} or a previously generated file",
    )
    .option(
      "--snapshots <file>",
      "headless: stored quantities for the prediction: a JSON array of {itemNumber, quantity, takenAt}",
    )
    .option(
      "--snapshots-out <file>",
      "headless: write the snapshots plus this run's quantities (for the next run's --snapshots)",
    )
    .option(
      "--threshold <share>",
      "headless: guard threshold, 0 to 1 (default: the source's, else 0.5)",
      share,
    )
    .option(
      "--now <iso-time>",
      "headless: the run's time (default: now): the date column, the prediction's window",
    )
    .option(
      "--max-size <bytes>",
      `headless: refuse supplier files larger than this (default ${FEED_LIMITS.maxBytes})`,
      positiveInt,
    )
    .addHelpText(
      "after",
      EXIT_HELP + `

Example:
  $ cli inventory process stock.csv --source "Widgets Inc" --dry-run
  $ cli inventory process stock.csv --source 4 --sftp --json
  $ cli inventory process stock.csv --config widgets.json --out widgets_out.csv
`,
    )
    .action(async (file: string, options: ProcessOptions, command: Command) => {
      if (options.source === undefined) {
        Deno.exitCode = await runProcess(file, options);
        return;
      }
      try {
        Deno.exitCode = await processOnServer(await contextOf(command), file, options);
      } catch (error) {
        Deno.exitCode = printError(error, options.json === true);
      }
    });
  subcommand(inventory, "list", "the inventory sources", [
    "cli inventory list",
  ]).action(action(async (ctx) => {
    const list = await ctx.api.get<Row[]>(INVENTORY_LIST);
    ctx.print(
      list,
      () =>
        table(list.map((r) => ({ ...r, active: r.activeStatus === false ? "no" : "yes" })), [
          ["id", "ID"],
          ["sourceName", "NAME"],
          ["fromEmail", "FROM"],
          ["fileType", "TYPE"],
          ["active", "ACTIVE"],
        ]),
    );
  }));
  subcommand(inventory, "show <source>", "an inventory source and its recent runs", [
    'cli inventory show "Widgets Inc"',
  ]).action(action(async (ctx, idOrName: string) => {
    const found = pick(
      await ctx.api.get<Row[]>(INVENTORY_LIST),
      idOrName,
      "sourceName",
      "inventory source",
    );
    const source = await ctx.api.get<Row>(`/api/inventory-sources/inventory/${found.id}`);
    const runs = await ctx.api.get<Row[]>(`/api/inventory-sources/inventory/${found.id}/runs`);
    if (typeof source.sftpPassword === "string" && source.sftpPassword) {
      source.sftpPassword = "********";
    }
    const fileData = source.fileData as Row | undefined;
    ctx.print({ source, runs }, () =>
      [
        details({ ...source, fileData: fileData ? "(sample file and columns: use --json)" : null }),
        "",
        "Recent runs:",
        table(runs, [
          ["runId", "RUN"],
          ["status", "STATUS"],
          ["deliveryStatus", "DELIVERY"],
          ["flipCount", "FLIPS"],
          ["fileName", "FILE"],
          ["createdAt", "CREATED"],
        ]),
      ].join("\n"));
  }));
  subcommand(
    inventory,
    "release <run-id>",
    "release a run held by the guard and deliver its file",
    ["cli inventory release 57"],
  ).action(action(async (ctx, id: string) => {
    const run = await ctx.api.post<Row>(
      `/api/inventory-sources/runs/${parseId(id, "a run id")}/release`,
    );
    ctx.print(run, () => `Released inventory run ${id}: delivery ${run.deliveryStatus}.`);
  }));
  registerInventoryItems(inventory);
}
