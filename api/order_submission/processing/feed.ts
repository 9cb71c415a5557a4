/**
 * The order submission feed (DESIGN.md section 6, "Order submission and vendors"): an order
 * e-mail (the whole message, see `MailRule.wholeMessage`) becomes rows in the vendors' ledger,
 * released by batch and vendor schedule into outbox e-mails that `send.ts` sends after the run's
 * commit. A file delivered otherwise (upload, CLI, re-run of a file) is read as the order file.
 */
import PostalMime, { type Email } from "postal-mime";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import type { Feed, ImportFile, ImportOutcome } from "../../ingest/feeds.ts";
import { chooseAttachment } from "../../ingest/matching.ts";
import {
  chooseDownloadLinks,
  readOrderFile,
  splitByVendor,
  SubmissionError,
} from "../../../shared/submission/mod.ts";
import { admitSendBeyondTransaction, quotaOf, refusalText } from "../../net/send_quota.ts";
import { downloadLink } from "./link_download.ts";
import {
  failedVendorLine,
  type OriginalEmail,
  planDue,
  recordFailedVendor,
  recordIncoming,
  SEND_JOB,
} from "./outbox.ts";
import {
  loadSubmissionSource,
  loadVendors,
  submissionMailRules,
  type SubmissionSourceSettings,
} from "./vendors.ts";

/** The feed's name in `import_runs.feed`. */
export const FEED_NAME = "order-submission";

/** Time-out of one link download (the whole download, redirects included). */
export const DOWNLOAD_TIMEOUT_MS = 30_000;

const NO_ORIGINAL: OriginalEmail = { subject: "", from: "", to: "", date: "", body: "" };

/** The order file of an e-mail: its chosen attachment, or the download behind its link. */
async function orderFileOf(
  deps: Deps,
  email: Email,
  source: SubmissionSourceSettings,
  log: string[],
): Promise<{ fileName: string; bytes: Uint8Array }> {
  const attachments = email.attachments.filter((a) => a.filename);
  if (!source.noAttachmentsNeedsLinkClick) {
    if (attachments.length < source.expectedAttachmentCount) {
      log.push(
        `Warning: the e-mail had ${attachments.length} attachment(s); ` +
          `${source.expectedAttachmentCount} expected.`,
      );
    }
    const facts = attachments.map((a) => ({
      filename: a.filename!,
      size: (a.content as ArrayBuffer).byteLength,
    }));
    const choice = chooseAttachment(source, facts);
    if (!choice) {
      throw new SubmissionError(
        "no_attachment",
        `No attachment${source.fileType ? ` of type ${source.fileType}` : ""} in the e-mail${
          source.attachmentName ? ` (looking for "${source.attachmentName}")` : ""
        }; attachments: ${facts.map((f) => f.filename).join(", ") || "none"}.`,
      );
    }
    const chosen = facts[choice.index];
    if (chosen.size > deps.config.MAX_SOURCE_FILE_BYTES) {
      throw new SubmissionError(
        "too_large",
        `The attachment "${chosen.filename}" is ${chosen.size} bytes, over the limit of ${deps.config.MAX_SOURCE_FILE_BYTES}.`,
      );
    }
    log.push(`Order file: attachment "${chosen.filename}" (${choice.kind}).`);
    return {
      fileName: chosen.filename,
      bytes: new Uint8Array(attachments[choice.index].content as ArrayBuffer),
    };
  }
  const links = chooseDownloadLinks({ html: email.html, text: email.text }, source);
  if (!links.length) {
    throw new SubmissionError(
      "no_link",
      "The e-mail has no download link matching the source's link-click settings.",
    );
  }
  const problems: string[] = [];
  const quota = quotaOf(deps.config, "linkDownload");
  for (const link of links.slice(0, 5)) {
    // Counted beyond the run's transaction: a run that fails later still made the download.
    const admission = await admitSendBeyondTransaction(deps.db, quota, String(source.id));
    if (!admission.ok) {
      throw new SubmissionError(
        "download_limit",
        `The order file was not downloaded: ${
          refusalText("linkDownload", quota, admission, "This source has")
        } Then re-run this run.`,
      );
    }
    try {
      const file = await downloadLink(link.url, {
        maxBytes: deps.config.MAX_SOURCE_FILE_BYTES,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        maxRedirects: 5,
        outboundAllow: deps.config.OUTBOUND_ALLOW,
      });
      const host = new URL(link.url).host;
      log.push(
        `Order file: "${file.fileName}" downloaded from a link on ${host} (${link.reason}).`,
      );
      return { fileName: file.fileName, bytes: file.bytes };
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new SubmissionError(
    "download_failed",
    `The order file could not be downloaded: ${problems.join(" ")}`,
  );
}

/** Processes one order e-mail (or order file) inside the run's transaction. */
export async function processOrderFile(
  tx: Db,
  deps: Deps,
  file: ImportFile,
  now = new Date(),
): Promise<ImportOutcome> {
  const source = await loadSubmissionSource(tx, file.sourceId);
  if (!source) throw new Error(`Order submission source ${file.sourceId} does not exist.`);
  const log: string[] = [];
  let original = NO_ORIGINAL;
  let orderFile = { fileName: file.fileName, bytes: file.bytes };
  if (/\.eml$/i.test(file.fileName)) {
    const email = await PostalMime.parse(file.bytes, { attachmentEncoding: "arraybuffer" });
    const addresses = (list?: { address?: string; name?: string }[]) =>
      (list ?? []).map((a) => a.address ?? a.name ?? "").filter(Boolean).join(", ");
    original = {
      subject: email.subject ?? "",
      from: email.from?.address ?? "",
      to: addresses(email.to),
      date: email.date ?? "",
      // `[^<>]`, not `[^>]`: linear even on "<<<<…" without a `>` (docs/limits.md "Patterns").
      body: email.text ?? (email.html ?? "").replace(/<[^<>]*>/g, " "),
    };
    orderFile = await orderFileOf(deps, email, source, log);
  }
  const table = await readOrderFile(orderFile.bytes, orderFile.fileName);
  const vendors = await loadVendors(tx, source.id);
  const split = splitByVendor(table, vendors);
  log.push(`Read ${split.rowCount} order row(s) for ${split.groups.length} vendor(s).`);
  const ledger = await recordIncoming(tx, {
    runId: file.runId,
    sourceId: source.id,
    receivedAt: file.receivedAt,
    split,
    original,
    orderFile,
  });
  for (const entry of ledger) {
    const known = entry.alreadyKnown
      ? `; ${entry.alreadyKnown} already sent or planned before, not sent again`
      : "";
    const retry = entry.retried.length ? "; a failed sending of these rows is retried" : "";
    log.push(`Vendor ${entry.vendorName}: ${entry.rows} row(s)${known}${retry}.`);
  }
  for (const u of split.unmatched) {
    log.push(
      `Unmatched vendor "${u.name || "(blank)"}": rows ${u.rowNumbers.join(", ")} not sent.`,
    );
  }
  const plan = await planDue(tx, source.id, now);
  for (const r of plan.released.filter((r) => r.runIds.includes(file.runId))) {
    log.push(`Batch of ${r.day} released (${r.reason.replaceAll("_", " ")}).`);
  }
  for (const w of plan.waiting) {
    log.push(
      `Batch of ${w.day}: ${w.emails} of ${source.expectedNumberOfBatchEmails} e-mails; waiting for ${w.missing} more (sent at the latest after the day ends).`,
    );
  }
  for (const p of plan.planned) {
    log.push(
      `Vendor ${p.vendorName}: ${p.rows} row(s) queued for sending (PO ${
        p.poNumbers.join(", ") || "none"
      }).`,
    );
  }
  const mine = (runIds: number[]) => runIds.includes(file.runId);
  for (const h of plan.held.filter((h) => mine(h.runIds))) {
    log.push(
      h.nextDueDay
        ? `Vendor ${h.vendorName}: ${h.rows} row(s) held until ${h.nextDueDay} (sent every few days).`
        : `Vendor ${h.vendorName}: ${h.rows} row(s) held (vendor inactive).`,
    );
  }
  // A vendor whose e-mail could not be built fails the run; its line is last, as the run's error.
  const failed = plan.failed.filter((f) => mine(f.runIds));
  for (const f of plan.failed) await recordFailedVendor(tx, f, file.runId);
  log.push(...failed.map(failedVendorLine));
  const unmatchedRows = split.unmatched.reduce((n, u) => n + u.rowNumbers.length, 0);
  const heldRows = plan.held.filter((h) => mine(h.runIds)).reduce((n, h) => n + h.rows, 0);
  const waiting = plan.waiting.length > 0 &&
    !plan.released.some((r) => mine(r.runIds));
  const sending = plan.planned.some((p) => mine(p.runIds)) ||
    ledger.some((e) => e.retried.length > 0);
  return {
    status: failed.length > 0 ? "failed" : waiting || sending ? "held" : "succeeded",
    counts: {
      ...(failed.length > 0 ? { failedVendors: failed.length } : {}),
      rows: split.rowCount,
      vendors: split.groups.length,
      newRows: ledger.reduce((n, e) => n + e.added, 0),
      alreadySentRows: ledger.reduce((n, e) => n + e.alreadyKnown, 0),
      unmatchedRows,
      heldRows,
      queuedEmails: plan.planned.filter((p) => mine(p.runIds)).length,
    },
    rowErrors: [
      ...table.errors,
      ...split.unmatched.flatMap((u) =>
        u.rowNumbers.map((row) => ({
          row,
          column: "Vendor",
          message: `No vendor named "${u.name}"; not sent.`,
        }))
      ),
    ],
    log,
  };
}

/** The feed as the ingest seam sees it. */
export const orderSubmissionFeed: Feed = {
  name: FEED_NAME,
  mailRules: submissionMailRules,
  process: (tx, deps, file) => processOrderFile(tx, deps, file),
  followUpJobKinds: [SEND_JOB],
};
