/**
 * `cli mail poll [ID...]`: polls mailboxes now through the server (POST /api/email-sources/poll/
 * {id}, the "Check now" button's call), which processes the import runs it queues. Without ids,
 * every active e-mail source. Exits 1 when a poll failed.
 *
 * @module
 */
import type { Command } from "commander";
import type { EmailSource, PollResult } from "../shared/contract/email_sources.ts";
import { CliError, EXIT } from "./client.ts";
import { action, parseId, subcommand } from "./command.ts";

/** One line per polled mailbox. */
export function pollSummary(result: PollResult): string {
  const head = `E-mail source ${result.emailSourceId}:`;
  if (result.error) return `${head} failed: ${result.error}`;
  if (!result.polled) return `${head} skipped, another process is polling it right now.`;
  return `${head} ${result.seen} new message(s), ${result.matched} matched, ${result.ignored} ` +
    `ignored, ${result.failed} unreadable; ${result.runs} import run(s).`;
}

/** Registers `mail poll` on the program. */
export function registerMail(program: Command): void {
  const mail = program.command("mail").description("mailbox ingestion");
  subcommand(
    mail,
    "poll",
    "poll mailboxes now (every active e-mail source when no id is given)",
    ["cli mail poll", "cli mail poll 3 --json"],
  )
    .argument("[sourceIds...]", "e-mail source ids")
    .action(action(async (ctx, raw: string[] | undefined) => {
      const ids = (raw ?? []).map((v) => parseId(v, "an e-mail source id"));
      const targets = ids.length ? ids : (await ctx.api.get<EmailSource[]>(
        "/api/email-sources/emails",
      )).filter((s) => s.activeStatus).map((s) => s.id);
      const results: PollResult[] = [];
      for (const [i, id] of targets.entries()) {
        ctx.progress(`polling e-mail source ${id} (${i + 1} of ${targets.length})`);
        try {
          results.push(await ctx.api.post<PollResult>(`/api/email-sources/poll/${id}`));
        } catch (error) {
          // The server said no for this one (unknown id, ...): report it, go on with the rest.
          if (!(error instanceof CliError) || error.exitCode !== EXIT.refused) throw error;
          results.push({
            emailSourceId: id,
            polled: false,
            seen: 0,
            matched: 0,
            ignored: 0,
            failed: 0,
            runs: 0,
            error: error.message,
          });
        }
      }
      ctx.print(
        results,
        () =>
          results.length ? results.map(pollSummary).join("\n") : "No active e-mail source to poll.",
      );
      return results.some((r) => r.error) ? EXIT.refused : EXIT.ok;
    }));
}
