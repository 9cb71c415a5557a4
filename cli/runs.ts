/**
 * `cli runs list|show|rerun|release`: the run history (/api/runs, docs/runs.md), a re-run of an
 * import run (/api/import-runs) and the release of an inventory run held by the guard
 * (POST /api/inventory-sources/runs/{id}/release).
 *
 * @module
 */
import type { Command } from "commander";
import type { ImportRunDetails, ImportRunSummary } from "../shared/contract/email_sources.ts";
import { countsText } from "../shared/catalog/display_names.ts";
import {
  RUN_AREA_KEYS,
  RUN_AREAS,
  RUN_STATE_KEYS,
  RUN_STATES,
  type RunDetails,
  type RunList,
} from "../shared/contract/runs.ts";
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

/**
 * `--since`: "30m", "12h", "1d", "2w" before now as a time, or a date or time as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sinceTime } from "./runs.ts";
 * const now = new Date("2026-11-25T12:00:00Z");
 * assert.equal(sinceTime("1d", now), "2026-11-24T12:00:00.000Z");
 * assert.equal(sinceTime("2026-11-01", now), "2026-11-01");
 * ```
 */
export function sinceTime(since: string, now = new Date()): string {
  const match = /^(\d+)\s*([mhdw])$/i.exec(since.trim());
  if (!match) return since.trim();
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
    match[2].toLowerCase() as "m" | "h" | "d" | "w"
  ];
  return new Date(now.getTime() - Number(match[1]) * unit).toISOString();
}

/** A run of the history in a few lines: result, row errors by reason, error, log. */
export function runDetailsText(run: RunDetails): string {
  const lines = [
    `Run ${run.id}: ${RUN_STATES[run.state]} — ${run.result}`,
    `Source: ${run.sourceName} (${RUN_AREAS[run.area].label}, source ${run.sourceId})`,
    `File: ${run.fileName || "(none)"}, ${run.trigger}${
      run.rerunOf ? ` of run ${run.rerunOf}` : ""
    }`,
    `Received: ${run.receivedAt}${run.finishedAt ? `, finished: ${run.finishedAt}` : ""}`,
  ];
  if (run.error) lines.push(`Error: ${run.error}`);
  for (const w of run.warnings) lines.push(`Warning: ${w}`);
  if (run.rowErrorCount > 0) {
    lines.push(`Row errors: ${run.rowErrorCount}`);
    for (const group of run.rowErrorGroups) {
      lines.push(`  ${group.count} × ${group.column ? `${group.column}: ` : ""}${group.reason}`);
      for (const row of group.rows) lines.push(`    row ${row.row}: ${row.message}`);
    }
  }
  if (run.canRelease) lines.push(`Held: release it with \`cli runs release ${run.id}\`.`);
  if (run.log.length) lines.push("Log:", ...run.log.map((line) => `  ${line}`));
  return lines.join("\n");
}

/** Registers `runs ...`. */
export function registerRuns(program: Command): void {
  const runs = program.command("runs").description("the run history of every area");
  subcommand(runs, "list", "the run history of your areas, newest first, in words", [
    "cli runs list --state failed --since 1d",
    "cli runs list --area inventory --source 3 --json",
  ])
    .option(
      "--area <area>",
      `only this area (${RUN_AREA_KEYS.join(", ")})`,
    )
    .option("--feed <feed>", "the same as --area (the import runs' name)")
    .option("--source <id>", "only this source (with --area; a vendor's id for vendor-sends)")
    .option("--state <state>", `only this state (${RUN_STATE_KEYS.join(", ")})`)
    .option("--since <when>", "from this long ago (30m, 12h, 1d, 2w) or this date or time")
    .option("--until <when>", "up to this date (the whole day) or time")
    .option("--limit <n>", "at most this many (1 to 500)")
    .action(action(async (ctx, options: {
      area?: string;
      feed?: string;
      source?: string;
      state?: string;
      since?: string;
      until?: string;
      limit?: string;
    }) => {
      const list = await ctx.api.get<RunList>("/api/runs", {
        area: options.area ?? options.feed,
        sourceId: options.source && parseId(options.source, "--source"),
        state: options.state,
        from: options.since && sinceTime(options.since),
        to: options.until,
        limit: options.limit && parseId(options.limit, "--limit"),
      });
      ctx.print(list.runs, () =>
        table(
          list.runs.map((run) => ({
            id: run.kind === "send" ? `e-mail ${run.id}` : run.id,
            when: run.createdAt.replace("T", " ").slice(0, 16),
            area: RUN_AREAS[run.area].label,
            source: run.sourceName,
            state: RUN_STATES[run.state],
            result: run.result,
          })),
          [
            ["id", "RUN"],
            ["when", "WHEN (UTC)"],
            ["area", "AREA"],
            ["source", "SOURCE"],
            ["state", "STATE"],
            ["result", "RESULT"],
          ],
        ));
    }));
  subcommand(runs, "show <id>", "one run in words: result, row errors by reason, log", [
    "cli runs show 42",
  ]).action(action(async (ctx, id: string) => {
    const run = await ctx.api.get<RunDetails>(`/api/runs/${parseId(id, "a run id")}`);
    ctx.print(run, () => runDetailsText(run));
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
