/**
 * `cli mail poll [sourceId...]`: polls mailboxes now, the same code path as the poll job and the
 * "Check now" button, and processes the import runs it queued. Exits 1 when a poll failed.
 *
 * @module
 */
import { type Command, InvalidArgumentError } from "commander";
import { ConfigError, loadConfig } from "../api/config.ts";
import { openDeps } from "../api/server.ts";
import { DbLockedError } from "../api/db/lock.ts";
import { pollMailbox } from "../api/ingest/mailbox_poll.ts";
import { pollableSourceIds } from "../api/mail/accounts.ts";
import type { PollResult } from "../shared/contract/email_sources.ts";

function sourceId(value: string, previous: number[] = []): number[] {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new InvalidArgumentError(
      `an e-mail source id is a positive whole number, got "${value}"`,
    );
  }
  return [...previous, Number(value)];
}

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
  const mail = program.command("mail").description("Mailbox ingestion");
  mail
    .command("poll")
    .description("Poll mailboxes now (every active e-mail source when no id is given)")
    .argument("[sourceIds...]", "e-mail source ids", (v, prev: number[]) => sourceId(v, prev))
    .option("--json", "print the results as JSON")
    .action(async (ids: number[] | undefined, options: { json?: boolean }) => {
      let config;
      try {
        config = loadConfig();
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        console.error(error.message);
        Deno.exit(1);
      }
      let deps;
      try {
        deps = await openDeps(config, () => {});
      } catch (error) {
        if (!(error instanceof DbLockedError)) throw error;
        console.error(error.message);
        Deno.exit(1);
      }
      const results: PollResult[] = [];
      try {
        const targets = ids?.length ? ids : await pollableSourceIds(deps.db);
        for (const id of targets) {
          results.push(await pollMailbox(deps, id, { processRuns: true, log: () => {} }));
        }
      } finally {
        await deps.db.close();
      }
      if (options.json) console.log(JSON.stringify(results, null, 2));
      else if (!results.length) console.log("No active e-mail source to poll.");
      else for (const result of results) console.log(pollSummary(result));
      if (results.some((r) => r.error)) Deno.exit(1);
    });
}
