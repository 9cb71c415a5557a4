/**
 * Sending one planned submission (docs/order_submission.md, "Processing"): claim (`pending` or
 * `failed` → `sending`, committed before the SMTP conversation), send with the Message-ID fixed
 * by the outbox key, keep a copy in the send-from mailbox's Sent folder, record `sent`. A
 * submission found still `sending` when its job runs again was cut short between the send and
 * the record: it is looked for in the Sent folder (found → `sent`) and otherwise marked
 * `uncertain`, never sent blindly a second time.
 */
import type { ImapFlow } from "imapflow";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../deps.ts";
import { connectImap } from "../../ingest/imap_connect.ts";
import { sendFromSource } from "../../mail/source_mail.ts";
import { loadMailAccount, type MailAccount } from "../../mail/accounts.ts";
import { noteOnRuns } from "./outbox.ts";

/** Test seams: called at the points where a crash is simulated. Production leaves them unset. */
export const sendHooks: {
  afterSmtpAccept?: (submissionId: number) => void | Promise<void>;
  beforeRecord?: (submissionId: number) => void | Promise<void>;
} = {};

interface Submission {
  id: number;
  vendorId: number;
  vendorName: string;
  status: string;
  emailSourceId: number;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  body: string;
  messageId: string;
  poNumbers: string[];
  rowCount: number;
}

async function loadSubmission(db: Db, id: number): Promise<Submission | null> {
  const [row] = await db.query<Submission>(
    `select s.id, s.vendor_source_id as "vendorId", v.vendor_name_from_file as "vendorName",
            s.status, s.send_from_email_source_id as "emailSourceId", s.to_addresses as to,
            s.cc_addresses as cc, s.bcc_addresses as bcc, s.subject, s.body,
            s.message_id as "messageId", s.po_numbers as "poNumbers", s.row_count as "rowCount"
       from submissions s join vendor_sources v on v.id = s.vendor_source_id where s.id = $1`,
    [id],
  );
  return row ?? null;
}

const SENT_FOLDERS = ["Sent", "Sent Items", "Sent Messages", "INBOX.Sent"];

/** The Sent folder of a mailbox (special use \Sent, else a usual name); null when none. */
async function sentFolder(client: ImapFlow, create: boolean): Promise<string | null> {
  const list = await client.list();
  const special = list.find((box) => box.specialUse === "\\Sent");
  if (special) return special.path;
  const named = list.find((box) => SENT_FOLDERS.includes(box.path));
  if (named) return named.path;
  if (!create) return null;
  await client.mailboxCreate("Sent");
  return "Sent";
}

/** A short copy for the Sent folder: headers and text (attachments named, not copied). */
function sentCopy(account: MailAccount, s: Submission, files: string[]): string {
  const lines = [
    `From: ${account.email}`,
    `To: ${s.to}`,
    ...(s.cc ? [`Cc: ${s.cc}`] : []),
    ...(s.bcc ? [`Bcc: ${s.bcc}`] : []),
    `Subject: ${s.subject.replace(/[\r\n]+/g, " ")}`,
    `Message-ID: ${s.messageId}`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    s.body,
    "",
    `[Attachments sent: ${files.join(", ") || "none"}]`,
    "",
  ];
  return lines.join("\r\n");
}

/** Whether the mailbox can be searched and written over IMAP. */
const hasImap = (account: MailAccount) => account.isMsal || account.incomingServer !== "";

async function withImap<T>(
  deps: Deps,
  account: MailAccount,
  fn: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const client = await connectImap(deps.config, account);
  try {
    return await fn(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** True when a message with `messageId` is in the mailbox's Sent folder. */
async function foundInSent(deps: Deps, account: MailAccount, messageId: string): Promise<boolean> {
  if (!hasImap(account)) return false;
  return await withImap(deps, account, async (client) => {
    const folder = await sentFolder(client, false);
    if (!folder) return false;
    await client.mailboxOpen(folder, { readOnly: true });
    const found = await client.search({ header: { "message-id": messageId } }, { uid: true });
    return Array.isArray(found) && found.length > 0;
  });
}

/** Status of each run touched by a submission, from all of its rows' submissions. */
async function refreshRunStatus(tx: Db, runIds: number[]): Promise<void> {
  for (const runId of runIds) {
    const [state] = await tx.query<{
      failed: string | null;
      vendorFailed: string | null;
      open: boolean;
      waiting: boolean;
    }>(
      `select (select s.last_error from submission_rows r join submissions s on s.id = r.submission_id
                where r.import_run_id = $1 and s.status in ('failed', 'uncertain')
                order by s.id limit 1) as failed,
              (select error from import_runs where id = $1
                and coalesce((counts->>'failedVendors')::int, 0) > 0) as "vendorFailed",
              exists (select 1 from submission_rows r join submissions s on s.id = r.submission_id
                where r.import_run_id = $1 and s.status in ('pending', 'sending')) as open,
              exists (select 1 from submission_inbound i where i.import_run_id = $1
                and i.status = 'waiting') as waiting`,
      [runId],
    );
    // A vendor whose e-mail could not be built (outbox.ts `recordFailedVendor`) keeps the run
    // failed while the other vendors' e-mails go out.
    const error = state.failed ?? state.vendorFailed;
    const status = error !== null ? "failed" : state.open || state.waiting ? "held" : "succeeded";
    await tx.query(
      `update import_runs set status = $2, error = $3, finished_at = now()
        where id = $1 and status <> 'queued'`,
      [runId, status, error],
    );
  }
}

async function runsOf(db: Db, submissionId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select distinct import_run_id as id from submission_rows where submission_id = $1 order by 1`,
    [submissionId],
  );
  return rows.map((r) => r.id);
}

function recipients(s: Submission): string {
  return [`to ${s.to}`, s.cc ? `cc ${s.cc}` : "", s.bcc ? `bcc ${s.bcc}` : ""].filter(Boolean)
    .join("; ");
}

/** Records the outcome of a submission on itself and on its runs, in one transaction. */
async function record(
  deps: Deps,
  s: Submission,
  outcome: { status: "sent" | "failed" | "uncertain"; error?: string; line: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `update submissions set status = $2, last_error = $3,
         sent_at = case when $2 = 'sent' then now() else sent_at end where id = $1`,
      [s.id, outcome.status, outcome.error ?? null],
    );
    const runIds = await runsOf(tx, s.id);
    await noteOnRuns(
      tx,
      runIds,
      [outcome.line],
      outcome.status === "sent" ? { sentEmails: 1, sentRows: s.rowCount } : {},
    );
    await refreshRunStatus(tx, runIds);
  });
}

/**
 * Sends submission `id` once. Throws after recording a refusal, so the job retries later (the
 * next attempt sends once, with the same Message-ID).
 */
export async function sendSubmission(deps: Deps, id: number): Promise<void> {
  const current = await loadSubmission(deps.db, id);
  if (!current || current.status === "sent" || current.status === "uncertain") return;
  const account = await loadMailAccount(deps.db, deps.secrets, current.emailSourceId);
  if (current.status === "sending") {
    // The previous attempt ended between the claim and the record: did the message go out?
    let found = false;
    try {
      found = await foundInSent(deps, account, current.messageId);
    } catch { /* unknown: stay careful */ }
    await record(
      deps,
      current,
      found
        ? {
          status: "sent",
          line: `Vendor ${current.vendorName}: ${current.rowCount} row(s) sent ${
            recipients(current)
          } (found in Sent after an interruption; Message-ID ${current.messageId}).`,
        }
        : {
          status: "uncertain",
          error:
            `Sending to vendor ${current.vendorName} was interrupted; whether it went out is ` +
            `unknown (Message-ID ${current.messageId}). Check the send-from mailbox and resend or ` +
            `dismiss.`,
          line: `Vendor ${current.vendorName}: sending interrupted, not resent automatically ` +
            `(Message-ID ${current.messageId}).`,
        },
    );
    return;
  }
  const [claimed] = await deps.db.query<{ id: number }>(
    `update submissions set status = 'sending', sending_at = now(), attempts = attempts + 1
      where id = $1 and status in ('pending', 'failed') returning id`,
    [id],
  );
  if (!claimed) return;
  const files = await deps.db.query<{ fileName: string; contentType: string; bytes: Uint8Array }>(
    `select file_name as "fileName", content_type as "contentType", bytes
       from submission_files where submission_id = $1 order by position`,
    [id],
  );
  const split = (list: string) => list.split(/,\s*/).filter(Boolean);
  let sent;
  try {
    sent = await sendFromSource(deps.config, account, {
      to: split(current.to),
      cc: split(current.cc),
      bcc: split(current.bcc),
      subject: current.subject,
      text: current.body,
      messageId: current.messageId,
      attachments: files.map((f) => ({
        filename: f.fileName,
        content: new Uint8Array(f.bytes),
        contentType: f.contentType,
      })),
    });
  } catch (error) {
    const reason = (error as Error).message;
    await record(deps, current, {
      status: "failed",
      error: `Sending to vendor ${current.vendorName} failed: ${reason}`,
      line: `Vendor ${current.vendorName}: not sent, ${reason}`,
    });
    throw new Error(`Sending to vendor ${current.vendorName} failed: ${reason}`);
  }
  await sendHooks.afterSmtpAccept?.(id);
  if (hasImap(account)) {
    try {
      await withImap(deps, account, async (client) => {
        const folder = await sentFolder(client, true);
        await client.append(folder!, sentCopy(account, current, files.map((f) => f.fileName)), [
          "\\Seen",
        ]);
      });
    } catch { /* the copy only helps recovery; the sending itself succeeded */ }
  }
  await sendHooks.beforeRecord?.(id);
  const rejected = sent.rejected.length ? ` Refused recipients: ${sent.rejected.join(", ")}.` : "";
  await record(deps, current, {
    status: "sent",
    line: `Vendor ${current.vendorName}: ${current.rowCount} row(s) (PO ${
      current.poNumbers.join(", ") || "none"
    }) sent ${recipients(current)}; files ${
      files.map((f) => f.fileName).join(", ") || "none"
    }; Message-ID ${current.messageId}.${rejected}`,
  });
}
