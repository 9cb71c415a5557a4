/**
 * `cli activity list`: the activity log (GET /api/activity, Admin only; docs/activity.md).
 *
 * @module
 */
import type { Command } from "commander";
import { type ActivityPage, describeActivity } from "../shared/contract/activity.ts";
import { action, parseId, subcommand, table } from "./command.ts";

/** Registers `activity ...`. */
export function registerActivity(program: Command): void {
  const activity = program.command("activity").description("who changed what, and sign-ins");
  subcommand(activity, "list", "the activity log, newest first (Admin)", [
    "cli activity list --user alice --from 2026-11-01",
    "cli activity list --entity-type order-tracking-source --entity-id 3 --json",
  ])
    .option("--user <name>", "only this user's entries (for failed sign-ins: the name tried)")
    .option("--action <action>", 'only this action ("changed", "signed in", "sign-in failed", ...)')
    .option(
      "--entity-type <type>",
      "only this kind of record (email-source, vendor, user, run, ...)",
    )
    .option("--entity-id <id>", "only this record")
    .option("--from <date>", "from this date or time (2026-11-01)")
    .option("--to <date>", "up to this date (the whole day) or time")
    .option("--page <n>", "page, from 1", "1")
    .option("--page-size <n>", "entries per page (at most 200)", "50")
    .action(action(async (ctx, options: {
      user?: string;
      action?: string;
      entityType?: string;
      entityId?: string;
      from?: string;
      to?: string;
      page: string;
      pageSize: string;
    }) => {
      const page = await ctx.api.get<ActivityPage>("/api/activity", {
        user: options.user,
        action: options.action,
        entityType: options.entityType,
        entityId: options.entityId && parseId(options.entityId, "--entity-id"),
        from: options.from,
        to: options.to,
        page: parseId(options.page, "--page"),
        pageSize: parseId(options.pageSize, "--page-size"),
      });
      ctx.print(page, () => {
        const rows = page.entries.map((entry) => ({
          at: entry.at.replace("T", " ").slice(0, 19),
          what: describeActivity(entry),
          address: entry.address,
        }));
        const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
        return `${
          table(rows, [["at", "TIME (UTC)"], ["what", "WHAT"], ["address", "ADDRESS"]])
        }\n` +
          `page ${page.page} of ${page.totalCapped ? "more than " : ""}${pages} ` +
          `(${page.totalCapped ? "more than " : ""}${page.total} entries)`;
      });
    }));
}
