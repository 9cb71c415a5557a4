/**
 * `cli runs list|show|rerun|release`: import runs (/api/import-runs) and the release of an
 * inventory run held by the guard (POST /api/inventory-sources/runs/{id}/release).
 *
 * @module
 */
import type { Command } from "commander";
import type { ImportRunDetails, ImportRunSummary } from "../shared/contract/email_sources.ts";
import { countsText } from "../shared/catalog/display_names.ts";
import { EXIT } from "./client.ts";
import { action, details, parseId, subcommand, table } from "./command.ts";

/** The exit code a finished run deserves: 1 when it failed, 2 when held or with row errors. */
export function runExitCode(run: Pick<ImportRunSummary, "status" | "rowErrorCount">): number {
  if (run.status === "failed") return EXIT.refused;
  return run.status === "held" || run.rowErrorCount > 0 ? EXIT.attention : EXIT.ok;
}

/** A run in a few lines: status, counts, the first row errors, the error. */
export function runText(run: ImportRunDetails): string {
  const lines = [
    `Import run ${run.id} (${run.feed}, source ${run.sourceId}, ${run.trigger}): ${run.status}`,
    `File: ${run.fileName}${run.fileSize !== null ? ` (${run.fileSize} bytes)` : ""}`,
  ];
  const counts = countsText(run.counts);
  if (counts) lines.push(`Counts: ${counts}`);
  if (run.error) lines.push(`Error: ${run.error}`);
  for (const w of run.warnings ?? []) lines.push(`Warning: ${w}`);
  if (run.rowErrorCount > 0) {
    lines.push(`Row errors: ${run.rowErrorCount}`);
    for (const e of (run.rowErrors ?? []).slice(0, 20)) {
      lines.push(`  row ${e.row}${e.column ? `, ${e.column}` : ""}: ${e.message}`);
    }
    if (run.rowErrorCount > 20) lines.push(`  … and ${run.rowErrorCount - 20} more (use --json)`);
  }
  return lines.join("\n");
}

/** Registers `runs ...`. */
export function registerRuns(program: Command): void {
  const runs = program.command("runs").description("import runs of every feed");
  subcommand(runs, "list", "recent import runs, newest first", [
    "cli runs list --feed order-tracking --limit 20",
    "cli runs list --source 3 --json",
  ])
    .option("--feed <feed>", "only this feed (order-tracking, inventory, order-submission, ...)")
    .option("--source <id>", "only this source id")
    .option("--limit <n>", "at most this many (1 to 1000)")
    .action(action(async (ctx, options: { feed?: string; source?: string; limit?: string }) => {
      const list = await ctx.api.get<ImportRunSummary[]>("/api/import-runs", {
        feed: options.feed,
        sourceId: options.source && parseId(options.source, "--source"),
        limit: options.limit && parseId(options.limit, "--limit"),
      });
      ctx.print(list, () =>
        table(list as unknown as Record<string, unknown>[], [
          ["id", "ID"],
          ["feed", "FEED"],
          ["sourceId", "SOURCE"],
          ["trigger", "TRIGGER"],
          ["status", "STATUS"],
          ["rowErrorCount", "ROW ERRORS"],
          ["fileName", "FILE"],
          ["createdAt", "CREATED"],
        ]));
    }));
  subcommand(runs, "show <id>", "one run with its row errors and log", [
    "cli runs show 42",
  ]).action(action(async (ctx, id: string) => {
    const run = await ctx.api.get<ImportRunDetails>(`/api/import-runs/${parseId(id, "a run id")}`);
    ctx.print(run, () => runText(run));
  }));
  subcommand(
    runs,
    "rerun <id>",
    "run a stored file again as a new run (exit 1 when it fails, 2 when held or with row errors)",
    ["cli runs rerun 42 --json"],
  ).action(action(async (ctx, id: string) => {
    ctx.progress(`re-running import run ${id}`);
    const run = await ctx.api.post<ImportRunDetails>(
      `/api/import-runs/${parseId(id, "a run id")}/rerun`,
    );
    ctx.print(run, () => runText(run));
    return runExitCode(run);
  }));
  subcommand(
    runs,
    "release <id>",
    "release an inventory run held by the guard and deliver its file",
    ["cli runs release 57"],
  ).action(action(async (ctx, id: string) => {
    const run = await ctx.api.post<Record<string, unknown>>(
      `/api/inventory-sources/runs/${parseId(id, "a run id")}/release`,
    );
    ctx.print(run, () => `Released inventory run ${id}.\n${details(run, ["flips", "log"])}`);
  }));
}
