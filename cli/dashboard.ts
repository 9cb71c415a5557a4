/**
 * `cli dashboard`: every source's state, most urgent first (GET /api/dashboard; issue 22,
 * docs/dashboard.md). The areas follow the token's user's flags.
 *
 * @module
 */
import type { Command } from "commander";
import { AREA_LABELS, type DashboardAnswer, STATE_LABELS } from "../shared/contract/dashboard.ts";
import { action, subcommand, table } from "./command.ts";

/** "2026-11-25 03:40" from an ISO time; blank for none. */
const at = (value: string | null) => value ? value.replace("T", " ").slice(0, 16) : "";

/** Registers `dashboard`. */
export function registerDashboard(program: Command): void {
  subcommand(program, "dashboard", "every source's state: failing, held and stale first", [
    "cli dashboard",
    "cli dashboard --json",
  ]).action(action(async (ctx) => {
    const answer = await ctx.api.get<DashboardAnswer>("/api/dashboard");
    ctx.print(answer, () => {
      const rows = answer.lines.map((line) => ({
        state: STATE_LABELS[line.state],
        area: AREA_LABELS[line.area],
        name: line.name,
        lastFile: [line.lastFileName ?? "", at(line.lastFileAt)].filter(Boolean).join(" at "),
        result: line.lastResult ?? "",
        next: line.nextCheckAt
          ? `${line.nextCheckText}, next ${at(line.nextCheckAt)}`
          : line.nextCheckText,
      }));
      const c = answer.counts;
      return `${
        table(rows, [
          ["state", "STATE"],
          ["area", "KIND"],
          ["name", "SOURCE"],
          ["lastFile", "LAST FILE (UTC)"],
          ["result", "LAST RESULT"],
          ["next", "NEXT CHECK (UTC)"],
        ])
      }\n${c.failing} failing, ${c.held} held, ${c.stale} stale, ${c.ok} OK, ${c.inactive} inactive`;
    });
  }));
}
