/**
 * The inventory feed: which sources read which mailbox, and one supplier file through the
 * engine (shared/inventory) before the short transaction that ends the import run. The generated file, the item
 * statuses and the guard's verdict are stored with the run; delivery (SFTP, e-mail) or the
 * hold alert follows after the commit, as a job (delivery.ts).
 */
import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import type {
  DeliveryRule,
  Feed,
  ImportFile,
  ImportOutcome,
  MailRule,
  PreparedImport,
} from "../ingest/feeds.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { processInventoryOffThread } from "../ingest/file_work.ts";
import { FEED_LIMITS, UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import {
  DEFAULT_PREDICTION,
  type ItemStatusEntry,
  type QuantitySnapshot,
} from "../../shared/inventory/mod.ts";
import type { InventorySource } from "../../shared/contract/inventory.ts";
import { findInventorySource } from "./queries.ts";
import { storeRunItems } from "./items.ts";

/** The job kind that delivers a processed run (or sends its hold alert). */
export const DELIVER_JOB = "inventory-deliver";

/** The active inventory sources reading mailbox `emailSourceId`. */
async function mailRules(db: Db, emailSourceId: number): Promise<MailRule[]> {
  return await db.query<MailRule>(
    `select id as "sourceId", source_name as "sourceName", email_source_id as "emailSourceId",
            from_email as "fromEmail", subject_value as "subjectValue",
            contains_not_exact as "containsNotExact", attachment_name as "attachmentName",
            file_type as "fileType", expected_attachment_count as "expectedAttachmentCount"
       from inventory_sources
      where email_source_id = $1 and active_status and not deleted_status
      order by id`,
    [emailSourceId],
  );
}

async function emailSourceUsers(db: Db, emailSourceId: number): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select source_name as name from inventory_sources
      where email_source_id = $1 and not deleted_status order by id`,
    [emailSourceId],
  );
  return rows.map((r) => `inventory source "${r.name}"`);
}

/** What the engine needs from the database besides the source: history and last statuses. */
export async function engineHistory(db: Db, source: InventorySource, now: Date) {
  const previous = await db.query<ItemStatusEntry>(
    `select item_number as "itemNumber", status from inventory_delivered_statuses
      where inventory_source_id = $1`,
    [source.id],
  );
  let snapshots: QuantitySnapshot[] = [];
  if (source.usesPredictiveAlgorithm) {
    const days = source.lookbackDays ?? DEFAULT_PREDICTION.lookbackDays;
    snapshots = await db.query<QuantitySnapshot>(
      `select item_number as "itemNumber", quantity, taken_at as "takenAt"
         from inventory_item_snapshots
        where inventory_source_id = $1 and taken_at >= $2::timestamptz - make_interval(days => $3)
          and taken_at <= $2::timestamptz
        order by taken_at`,
      [source.id, now.toISOString(), days],
    );
  }
  return { previousStatuses: previous.length ? previous : null, snapshots };
}

/** Active users with the inventory flag who asked for notification e-mails. */
export async function inventoryRecipients(db: Db): Promise<string[]> {
  const rows = await db.query<{ email: string }>(
    `select distinct email from users
      where active_status and inventory_user and send_notifications_to_email and email <> ''
      order by email`,
  );
  return rows.map((r) => r.email);
}

/** The guard threshold of a source: its own, else INVENTORY_GUARD_RATIO. */
export const guardThresholdOf = (deps: Deps, source: InventorySource) =>
  source.guardThreshold ?? deps.config.INVENTORY_GUARD_RATIO;

/**
 * Runs the engine on one supplier file for `file.sourceId` outside any transaction (in the file
 * workers; on the embedded database the one connection is free meanwhile), and gives the short
 * transaction that stores its result (`finish`, with no batches before it). A refused file or
 * configuration throws (the run fails with the engine's message, nothing written); otherwise
 * the run succeeds, or is held by the guard.
 */
async function prepare(db: Db, deps: Deps, file: ImportFile): Promise<PreparedImport> {
  const source = await findInventorySource(db, file.sourceId);
  if (!source) throw new Error(`Inventory source ${file.sourceId} does not exist.`);
  const now = file.receivedAt;
  const history = await engineHistory(db, source, now);
  const upload = file.trigger === "upload";
  // In the file workers, within FILE_WORK_SECONDS; the bytes move there (not used after).
  const outcome = await processInventoryOffThread(deps, {
    source,
    supplierFile: { name: file.fileName, bytes: file.bytes },
    snapshots: history.snapshots,
    previousStatuses: history.previousStatuses,
    guardThreshold: guardThresholdOf(deps, source),
    now,
    limits: upload
      ? UPLOAD_LIMITS
      : { ...FEED_LIMITS, maxBytes: deps.config.MAX_SOURCE_FILE_BYTES },
    checkFileType: upload,
    // The item view's raw rows and reasons (items.ts).
    keepRows: true,
  }, true);
  if (outcome.refused || !outcome.output) throw new Error(outcome.result.message);
  const output = outcome.output;
  // Recipients are read now: the finishing transaction only writes.
  const automatic = file.trigger !== "upload";
  const recipients = automatic && deps.mailer.configured ? await inventoryRecipients(db) : [];
  return {
    batches: 0,
    apply: () => Promise.reject(new Error("An inventory run has no batches.")),
    finish: (tx) => storeOutcome(tx, file, source, { ...outcome, output }, recipients),
  };
}

type EngineOutcome = Awaited<ReturnType<typeof processInventoryOffThread>>;

/** Stores the engine's result with the run and enqueues its delivery, in the run's last transaction. */
async function storeOutcome(
  tx: Db,
  file: ImportFile,
  source: InventorySource,
  outcome: EngineOutcome & { output: NonNullable<EngineOutcome["output"]> },
  recipients: string[],
): Promise<ImportOutcome> {
  const now = file.receivedAt;
  if (outcome.snapshots.length) {
    const kept = outcome.snapshots.filter((s) => s.itemNumber.length <= 4000);
    await tx.query(
      `insert into inventory_item_snapshots (inventory_source_id, import_run_id, item_number,
         quantity, taken_at)
       select $1, $2, item, qty, $5::timestamptz
         from unnest($3::text[], $4::float8[]) as t(item, qty)`,
      [
        source.id,
        file.runId,
        kept.map((s) => s.itemNumber),
        kept.map((s) => s.quantity),
        now.toISOString(),
      ],
    );
  }
  // Delivery of runs from mail, SFTP and re-runs (docs/inventory.md): SFTP when the source has
  // a server, e-mail to the inventory recipients when system mail is set up. A manual upload
  // has already stored its choices in its inventory_runs row.
  const automatic = file.trigger !== "upload";
  const { fileData: _file, ...result } = outcome.result;
  const { flips: _flips, ...verdict } = outcome.guard;
  await tx.query(
    `insert into inventory_runs (import_run_id, inventory_source_id, output_file_name,
       output_bytes, result, statuses, flips, guard, deliver_sftp, deliver_email, email_to,
       delivery_status)
     values ($1, $2, $3, $4, $5::text::jsonb, $6::text::jsonb, $7::text::jsonb, $8::text::jsonb,
       $9, $10, $11, $12)
     on conflict (import_run_id) do update set output_file_name = excluded.output_file_name,
       output_bytes = excluded.output_bytes, result = excluded.result,
       statuses = excluded.statuses, flips = excluded.flips, guard = excluded.guard,
       delivery_status = excluded.delivery_status`,
    [
      file.runId,
      source.id,
      outcome.output.fileName,
      outcome.output.bytes,
      JSON.stringify(result),
      JSON.stringify(outcome.items.map((i) => ({ itemNumber: i.itemNumber, status: i.status }))),
      JSON.stringify(outcome.flips),
      JSON.stringify(verdict),
      automatic && source.sftpServerAddress.trim() !== "",
      recipients.length > 0,
      recipients.join(", "),
      outcome.held ? "held" : "pending",
    ],
  );
  await enqueueJob(tx, {
    kind: DELIVER_JOB,
    payload: { runId: file.runId },
    dedupeKey: `${DELIVER_JOB}:${file.runId}`,
  });
  const counts: Record<string, number> = { ...outcome.counts, flips: outcome.flips.length };
  return {
    status: outcome.held ? "held" : "succeeded",
    counts,
    rowErrors: outcome.rowErrors,
    log: outcome.result.processingLogs,
    // The item view's table (items.ts): up to a catalogue's worth of rows, written after the
    // run commits in background batches (docs/inventory.md, "Cost of storing a run's items").
    afterCommit: (db) => storeRunItems(db, source.id, file.runId, now, outcome),
  };
}

/** The inventory feed object (registered in feature.ts). */
export const inventoryFeed: Feed = {
  name: "inventory",
  mailRules,
  emailSourceUsers,
  prepare,
  // Everything in one transaction (the engine's interface; the import-run engine uses `prepare`).
  process: async (tx, deps, file) => await (await prepare(tx, deps, file)).finish(tx, {}),
  // The delivery the run enqueues goes right after the run (the listener's drain and "Check
  // now" run follow-ups at once), not at the job runner's next tick (issue 25, docs/inventory.md).
  followUpJobKinds: [DELIVER_JOB],
  // Sources that may pull their file from a URL (docs/url_feeds.md): the active ones.
  deliveries: {
    url: (db) =>
      db.query<DeliveryRule>(
        `select id as "sourceId", source_name as "sourceName" from inventory_sources
          where active_status and not deleted_status order by id`,
      ),
  },
};
