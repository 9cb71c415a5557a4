/**
 * The submission outbox (docs/order_submission.md, "Outbox" and "Processing"): order rows enter
 * a per-vendor ledger once (unique on vendor and row fingerprint), batches are released by
 * `decideBatch`, due vendors (`isVendorDue`) get one planned e-mail (a `submissions` row with a
 * unique idempotency key and a Message-ID derived from it) whose sending is a job of its own.
 * Everything here runs inside the caller's transaction and touches no network.
 */
import type { Db } from "../../db/client.ts";
import { readImportFile, storeImportFile } from "../../ingest/import_files.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { splitEmailList } from "../../../shared/contract/order_submission.ts";
import {
  buildVendorSubmission,
  dayIn,
  decideBatch,
  forwardedBody,
  isVendorDue,
  type OrderRow,
  rowFingerprints,
  SubmissionError,
  submissionMessageId,
  type VendorSplit,
} from "../../../shared/submission/mod.ts";
import { sha256Hex } from "../../../shared/sha256.ts";
import {
  loadSubmissionSource,
  loadTemplate,
  loadVendor,
  type ProcessingVendor,
} from "./vendors.ts";

/** The job kind that sends one planned submission. */
export const SEND_JOB = "order-submission-send";

/** Business days are UTC calendar days (no time-zone setting exists yet). */
export const BUSINESS_TIME_ZONE = "UTC";

/** The original e-mail of an order file, for forwards and wildcards. */
export interface OriginalEmail {
  subject: string;
  from: string;
  to: string;
  date: string;
  body: string;
}

/** What one incoming file put into the ledger, per vendor. */
export interface LedgerEntry {
  vendorId: number;
  vendorName: string;
  rows: number;
  added: number;
  alreadyKnown: number;
  /** Submissions of already-known rows whose sending had failed: queued again (a retry). */
  retried: number[];
}

/** Appends lines to runs' logs (and adds to their counts). */
export async function noteOnRuns(
  tx: Db,
  runIds: readonly number[],
  lines: readonly string[],
  counts: Record<string, number> = {},
): Promise<void> {
  if (!runIds.length || (!lines.length && !Object.keys(counts).length)) return;
  for (const runId of runIds) {
    const [run] = await tx.query<{ counts: Record<string, number> }>(
      `select counts from import_runs where id = $1`,
      [runId],
    );
    if (!run) continue;
    const merged = { ...run.counts };
    for (const [key, add] of Object.entries(counts)) merged[key] = (merged[key] ?? 0) + add;
    await tx.query(
      `update import_runs set log = log || $2::text::jsonb, counts = $3::text::jsonb where id = $1`,
      [runId, JSON.stringify(lines), JSON.stringify(merged)],
    );
  }
}

/**
 * Records an incoming file's rows in the ledger (rows known before are skipped: the same order
 * is never planned twice for a vendor) and the e-mail in its batch. Rows of already-known
 * submissions whose sending failed have that submission queued for sending again.
 */
export async function recordIncoming(tx: Db, input: {
  runId: number;
  sourceId: number;
  receivedAt: Date;
  split: VendorSplit<ProcessingVendor>;
  original: OriginalEmail;
  orderFile: { fileName: string; bytes: Uint8Array } | null;
}): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for (const group of input.split.groups) {
    const prints = await rowFingerprints(group.rows.map((r) => r.cells));
    let added = 0;
    for (const [i, row] of group.rows.entries()) {
      const inserted = await tx.query(
        `insert into submission_rows (vendor_source_id, row_fingerprint, import_run_id, row_number,
           po_number, cells, fields, vendor_name, account_number, received_at)
         values ($1, $2, $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8, $9, $10)
         on conflict (vendor_source_id, row_fingerprint) do nothing returning id`,
        [
          group.vendor.id,
          prints[i],
          input.runId,
          row.rowNumber,
          (row.fields.mapPo ?? "").slice(0, 200),
          JSON.stringify(row.cells),
          JSON.stringify(row.fields),
          row.vendorName.slice(0, 200),
          (group.accountNumbers[i] ?? "").slice(0, 200),
          input.receivedAt.toISOString(),
        ],
      );
      if (inserted.length) added++;
    }
    const failed = await tx.query<{ id: number }>(
      `select distinct s.id from submission_rows r join submissions s on s.id = r.submission_id
        where r.vendor_source_id = $1 and r.row_fingerprint = any($2::text[])
          and s.status = 'failed'`,
      [group.vendor.id, prints],
    );
    for (const { id } of failed) await enqueueSend(tx, id);
    entries.push({
      vendorId: group.vendor.id,
      vendorName: group.vendor.vendorNameFromFile,
      rows: group.rows.length,
      added,
      alreadyKnown: group.rows.length - added,
      retried: failed.map((f) => f.id),
    });
  }
  const fileId = input.orderFile ? await storeImportFile(tx, input.orderFile.bytes) : null;
  await tx.query(
    `insert into submission_inbound (import_run_id, order_submission_source_id, batch_day,
       received_at, incoming_headers, original_subject, original_from, original_to, original_date,
       original_body, original_file_name, order_file_id)
     values ($1, $2, $3::date, $4, $5::text::jsonb, $6, $7, $8, $9, $10, $11, $12)
     on conflict (import_run_id) do nothing`,
    [
      input.runId,
      input.sourceId,
      dayIn(input.receivedAt, BUSINESS_TIME_ZONE),
      input.receivedAt.toISOString(),
      JSON.stringify(input.split.headers),
      input.original.subject.slice(0, 1000),
      input.original.from.slice(0, 1000),
      input.original.to.slice(0, 4000),
      input.original.date.slice(0, 200),
      input.original.body.slice(0, 200_000),
      (input.orderFile?.fileName ?? "").slice(0, 1000),
      fileId,
    ],
  );
  return entries;
}

/** Enqueues the sending of one submission (once while one is queued or running). */
export async function enqueueSend(tx: Db, submissionId: number): Promise<void> {
  await enqueueJob(tx, {
    kind: SEND_JOB,
    payload: { submissionId },
    dedupeKey: `${SEND_JOB}:${submissionId}`,
    maxAttempts: 5,
  });
}

/** A vendor e-mail planned by {@link planDue}. */
export interface PlannedSubmission {
  submissionId: number;
  vendorId: number;
  vendorName: string;
  rows: number;
  poNumbers: string[];
  runIds: number[];
}

/** A vendor's rows kept back (non-daily vendor not yet due, or vendor inactive). */
export interface HeldRows {
  vendorId: number;
  vendorName: string;
  rows: number;
  nextDueDay: string | null;
  runIds: number[];
}

/**
 * A due vendor whose e-mail could not be built (its stored item description regex cannot be
 * used, its template no longer fits): its rows stay unsent in the ledger and go out on the next
 * processing once the vendor is fixed; the other vendors are not held back.
 */
export interface FailedVendor {
  vendorId: number;
  vendorName: string;
  rows: number;
  /** Worded for staff: what is wrong and what to change. */
  reason: string;
  runIds: number[];
}

/** What {@link planDue} did. */
export interface PlanResult {
  released: { day: string; reason: string; runIds: number[] }[];
  waiting: { day: string; emails: number; missing: number }[];
  planned: PlannedSubmission[];
  held: HeldRows[];
  failed: FailedVendor[];
}

/** The log line of a vendor's failed part. */
export function failedVendorLine(f: FailedVendor): string {
  return `Vendor ${f.vendorName}: ${f.rows} row(s) not sent: ${f.reason}`;
}

/**
 * Marks runs failed by a vendor's part: the line in their logs, `failedVendors` in their counts
 * (which keeps them failed when the other vendors' e-mails are sent, see send.ts) and the reason
 * as their error. The run being processed (`except`) gets these through its outcome instead.
 */
export async function recordFailedVendor(
  tx: Db,
  failure: FailedVendor,
  except: number | null = null,
): Promise<void> {
  const line = failedVendorLine(failure);
  // The hourly release meets the same failure again: said once per run, not every hour.
  const already = await tx.query<{ id: number }>(
    `select id from import_runs where id = any($1::bigint[]) and error = $2`,
    [failure.runIds, line],
  );
  const runIds = failure.runIds.filter((id) => id !== except && !already.some((r) => r.id === id));
  await noteOnRuns(tx, runIds, [line], { failedVendors: 1 });
  for (const runId of runIds) {
    await tx.query(`update import_runs set status = 'failed', error = $2 where id = $1`, [
      runId,
      line,
    ]);
  }
}

interface LedgerRow {
  id: number;
  vendorId: number;
  runId: number;
  rowNumber: number;
  cells: string[];
  fields: OrderRow["fields"];
  vendorName: string;
  accountNumber: string;
  receivedAt: Date | string;
  batchDay: string;
}

/**
 * Releases the source's batches that `decideBatch` says to send, then plans one e-mail per
 * due vendor with everything released and unsent. Runs in `tx`; the send jobs it enqueues
 * commit with it.
 */
export async function planDue(
  tx: Db,
  sourceId: number,
  now: Date,
): Promise<PlanResult> {
  const result: PlanResult = { released: [], waiting: [], planned: [], held: [], failed: [] };
  const source = await loadSubmissionSource(tx, sourceId);
  if (!source) return result;
  const days = await tx.query<{ day: string; emails: number; completed: boolean }>(
    `select to_char(i.batch_day, 'YYYY-MM-DD') as day, count(*)::int as emails,
            exists (select 1 from submission_batches b where b.order_submission_source_id = $1
                     and b.batch_day = i.batch_day) as completed
       from submission_inbound i where i.order_submission_source_id = $1 and i.status = 'waiting'
      group by i.batch_day order by i.batch_day`,
    [sourceId],
  );
  for (const d of days) {
    const decision = decideBatch({
      expected: source.expectedNumberOfBatchEmails,
      day: d.day,
      pending: d.emails,
      completedEarlier: d.completed,
      now,
      timeZone: BUSINESS_TIME_ZONE,
    });
    if (decision.action === "wait") {
      result.waiting.push({ day: d.day, emails: d.emails, missing: decision.missing });
      continue;
    }
    const runs = await tx.query<{ id: number }>(
      `update submission_inbound set status = 'released', release_reason = $3, released_at = now()
        where order_submission_source_id = $1 and batch_day = $2::date and status = 'waiting'
        returning import_run_id as id`,
      [sourceId, d.day, decision.reason],
    );
    await tx.query(
      `insert into submission_batches (order_submission_source_id, batch_day, reason)
       values ($1, $2::date, $3) on conflict do nothing`,
      [sourceId, d.day, decision.reason],
    );
    const runIds = runs.map((r) => r.id);
    const expected = source.expectedNumberOfBatchEmails;
    if (decision.reason === "day_ended_short") {
      const warning = `short batch: ${d.emails} of ${expected} e-mails`;
      for (const runId of runIds) {
        await tx.query(
          `update import_runs set warnings = warnings || $2::text::jsonb where id = $1`,
          [runId, JSON.stringify([warning])],
        );
      }
      await noteOnRuns(tx, runIds, [`Batch of ${d.day} sent at the day's end: ${warning}.`]);
    } else if (expected > 1 || decision.reason === "extra_after_complete") {
      await noteOnRuns(tx, runIds, [
        decision.reason === "complete"
          ? `Batch of ${d.day} complete: ${d.emails} of ${expected} e-mails.`
          : `E-mail arrived after the batch of ${d.day} was sent: sent on its own.`,
      ]);
    }
    result.released.push({ day: d.day, reason: decision.reason, runIds });
  }

  const rows = await tx.query<LedgerRow>(
    `select r.id, r.vendor_source_id as "vendorId", r.import_run_id as "runId",
            r.row_number as "rowNumber", r.cells, r.fields, r.vendor_name as "vendorName",
            r.account_number as "accountNumber", r.received_at as "receivedAt",
            to_char(i.batch_day, 'YYYY-MM-DD') as "batchDay"
       from submission_rows r join submission_inbound i on i.import_run_id = r.import_run_id
      where i.order_submission_source_id = $1 and i.status = 'released'
        and r.submission_id is null
      order by r.received_at, r.import_run_id, r.row_number, r.id`,
    [sourceId],
  );
  const byVendor = new Map<number, LedgerRow[]>();
  for (const row of rows) byVendor.set(row.vendorId, [...(byVendor.get(row.vendorId) ?? []), row]);
  for (const [vendorId, vendorRows] of byVendor) {
    const vendor = await loadVendor(tx, vendorId);
    const runIds = [...new Set(vendorRows.map((r) => r.runId))];
    const name = vendor?.vendorNameFromFile ?? `vendor ${vendorId}`;
    if (!vendor || !vendor.activeStatus || vendor.deletedStatus) {
      result.held.push({
        vendorId,
        vendorName: name,
        rows: vendorRows.length,
        nextDueDay: null,
        runIds,
      });
      continue;
    }
    const [last] = await tx.query<{ at: Date | string | null }>(
      `select max(sent_at) as at from submissions where vendor_source_id = $1 and status = 'sent'`,
      [vendorId],
    );
    const oldest = vendorRows.reduce(
      (min, r) => Math.min(min, new Date(r.receivedAt).getTime()),
      Infinity,
    );
    const due = isVendorDue({
      vendorWantsNonDailySubmission: vendor.vendorWantsNonDailySubmission,
      vendorCustomSubmitEveryXDay: vendor.vendorCustomSubmitEveryXDay,
      lastSentAt: last?.at ? new Date(last.at) : null,
      oldestPendingAt: new Date(oldest),
      now,
      timeZone: BUSINESS_TIME_ZONE,
    });
    if (!due.due) {
      result.held.push({
        vendorId,
        vendorName: name,
        rows: vendorRows.length,
        nextDueDay: due.nextDueDay,
        runIds,
      });
      continue;
    }
    try {
      // A savepoint: a vendor whose e-mail cannot be built leaves nothing half-written.
      result.planned.push(
        await tx.transaction((inner) =>
          planVendor(inner, {
            sourceOrdersAreAllQuantityOne: source.ordersAreAllQuantityOne,
            sourceId,
            vendor,
            rows: vendorRows,
            runIds,
            now,
          })
        ),
      );
    } catch (error) {
      if (!(error instanceof SubmissionError)) throw error;
      result.failed.push({
        vendorId,
        vendorName: name,
        rows: vendorRows.length,
        reason: error.message,
        runIds,
      });
    }
  }
  return result;
}

async function planVendor(tx: Db, input: {
  sourceOrdersAreAllQuantityOne: boolean;
  sourceId: number;
  vendor: ProcessingVendor;
  rows: LedgerRow[];
  runIds: number[];
  now: Date;
}): Promise<PlannedSubmission> {
  const { vendor, rows, runIds } = input;
  const today = dayIn(input.now, BUSINESS_TIME_ZONE);
  const inbound = await tx.query<{
    runId: number;
    headers: string[];
    subject: string;
    from: string;
    to: string;
    date: string;
    body: string;
    fileName: string;
    fileId: number | null;
  }>(
    `select i.import_run_id as "runId", i.incoming_headers as headers,
            i.original_subject as subject, i.original_from as from, i.original_to as to,
            i.original_date as date, i.original_body as body, i.original_file_name as "fileName",
            i.order_file_id as "fileId"
       from submission_inbound i
      where i.import_run_id = any($1::bigint[]) order by i.received_at, i.import_run_id`,
    [runIds],
  );
  // The newest e-mail stands for the batch in wildcards and the forward.
  const original = inbound.at(-1)!;
  const batchDay = rows.reduce((max, r) => (r.batchDay > max ? r.batchDay : max), "");
  const batch = vendor.vendorWantsNonDailySubmission
    ? `vendor:${vendor.id}/due:${today}`
    : `source:${input.sourceId}/day:${batchDay}`;
  const built = await buildVendorSubmission({
    vendor,
    rows: rows.map((r) => ({
      rowNumber: r.rowNumber,
      cells: r.cells,
      fields: r.fields,
      vendorName: r.vendorName,
    })),
    accountNumbers: rows.map((r) => r.accountNumber),
    template: await loadTemplate(tx, vendor.id),
    context: {
      ordersAreAllQuantityOne: input.sourceOrdersAreAllQuantityOne,
      batch: batchDay,
      incomingHeaders: inbound[0]?.headers ?? [],
    },
    batch,
    original: { subject: original.subject, body: original.body },
    day: today,
  });
  const attachments = built.attachments.map((a) => ({ ...a }));
  let body = built.body;
  if (vendor.vendorWantsForwardedEmail) {
    body = forwardedBody(built.body, {
      from: original.from,
      to: original.to,
      date: original.date,
      subject: original.subject,
      text: original.body,
    });
    for (const e of inbound) {
      const bytes = e.fileId && e.fileName ? await readImportFile(tx, e.fileId) : null;
      if (bytes) {
        attachments.push({ fileName: e.fileName, contentType: "application/octet-stream", bytes });
      }
    }
  }
  const [account] = await tx.query<{ email: string }>(
    `select email from email_sources where id = $1`,
    [vendor.sendFromEmailSourceId],
  );
  const messageId = submissionMessageId(built.key, account?.email ?? "localhost");
  const [created] = await tx.query<{ id: number }>(
    `insert into submissions (vendor_source_id, idempotency_key, batch, po_numbers, row_count,
       send_from_email_source_id, to_addresses, cc_addresses, bcc_addresses, subject, body,
       message_id)
     values ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (idempotency_key) do nothing returning id`,
    [
      vendor.id,
      built.key,
      built.batch.slice(0, 400),
      built.poNumbers,
      rows.length,
      vendor.sendFromEmailSourceId,
      splitEmailList(vendor.submitEmails).join(", "),
      splitEmailList(vendor.submitCcEmails).join(", "),
      splitEmailList(vendor.submitBccEmails).join(", "),
      built.subject.slice(0, 4000),
      body,
      messageId,
    ],
  );
  const submissionId = created?.id ??
    (await tx.query<{ id: number }>(
      `select id from submissions where idempotency_key = $1`,
      [built.key],
    ))[0].id;
  if (created) {
    for (const [position, a] of attachments.entries()) {
      await tx.query(
        `insert into submission_files (submission_id, position, file_name, content_type, size,
           sha256, bytes) values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          submissionId,
          position,
          a.fileName.slice(0, 400),
          a.contentType.slice(0, 200),
          a.bytes.length,
          await sha256Hex(a.bytes),
          a.bytes,
        ],
      );
    }
    await enqueueSend(tx, submissionId);
  }
  await tx.query(
    `update submission_rows set submission_id = $2 where id = any($1::bigint[])
        and submission_id is null`,
    [rows.map((r) => r.id), submissionId],
  );
  return {
    submissionId,
    vendorId: vendor.id,
    vendorName: vendor.vendorNameFromFile,
    rows: rows.length,
    poNumbers: built.poNumbers,
    runIds,
  };
}
