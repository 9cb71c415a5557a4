/**
 * A small feed for the mail tests, a real implementation of the feed interface: its rules live
 * in a table the test fills, and `process` records each file it got (inside the run's
 * transaction, so a rolled-back run leaves no row). A file whose text contains BAD is rejected.
 */
import type { Db } from "../../api/db/client.ts";
import { type FeedName, type MailRule, registerFeed } from "../../api/ingest/feeds.ts";

/** Not one of the real feeds: its runs are for Admin only. */
export const TEST_FEED = "test-feed" as FeedName;

/** Creates the feed's tables (idempotent). */
export async function setupTestFeed(db: Db): Promise<void> {
  await db.exec(`
    create table if not exists test_feed_rules (
      id serial primary key, email_source_id integer not null, from_email text not null,
      subject_value text not null, contains_not_exact boolean not null default false,
      attachment_name text not null default '', file_type text not null default '',
      expected_attachment_count integer);
    create table if not exists test_feed_files (
      run_id bigint primary key, source_id integer not null, file_name text not null,
      content text not null, processed_by integer not null)`);
}

/** Adds a rule and returns its id (the feed's source id). */
export async function addTestRule(
  db: Db,
  rule: Omit<MailRule, "sourceId" | "sourceName">,
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into test_feed_rules (email_source_id, from_email, subject_value, contains_not_exact,
       attachment_name, file_type, expected_attachment_count)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      rule.emailSourceId,
      rule.fromEmail,
      rule.subjectValue,
      rule.containsNotExact,
      rule.attachmentName,
      rule.fileType,
      rule.expectedAttachmentCount,
    ],
  );
  return row.id;
}

registerFeed({
  name: TEST_FEED,
  async mailRules(db, emailSourceId) {
    const exists = await db.query(`select to_regclass('test_feed_rules') is not null as ok`);
    if (!(exists[0] as { ok: boolean }).ok) return [];
    return await db.query<MailRule>(
      `select id as "sourceId", 'test rule ' || id as "sourceName",
         email_source_id as "emailSourceId", from_email as "fromEmail",
         subject_value as "subjectValue", contains_not_exact as "containsNotExact",
         attachment_name as "attachmentName", file_type as "fileType",
         expected_attachment_count as "expectedAttachmentCount"
       from test_feed_rules where email_source_id = $1`,
      [emailSourceId],
    );
  },
  async process(tx, _deps, file) {
    const content = new TextDecoder().decode(file.bytes);
    await tx.query(
      `insert into test_feed_files (run_id, source_id, file_name, content, processed_by)
       values ($1, $2, $3, $4, $5)`,
      [file.runId, file.sourceId, file.fileName, content, Deno.pid],
    );
    // The exactly-once test kills the process here once, in the middle of the transaction.
    const crashOn = Deno.env.get("TEST_FEED_CRASH_ON");
    if (crashOn && content.includes(crashOn)) Deno.kill(Deno.pid, "SIGKILL");
    if (content.includes("BAD")) throw new Error(`Line 1 of ${file.fileName} is not valid.`);
    return {
      status: "succeeded",
      counts: { rows: content.split("\n").filter(Boolean).length },
      rowErrors: [],
      log: [`Read ${file.fileName}.`],
    };
  },
});
