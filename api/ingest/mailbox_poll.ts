/**
 * Mailbox ingestion (docs/design.md section 6): reads the new messages of a source's INBOX, claims
 * each one in `mail_messages` in the transaction that stores its files and queues their import
 * runs, and marks it seen (or moves it) on the server only after that commit. A crash anywhere
 * re-reads a message but never claims it twice; see docs/mail_ingestion.md.
 */
import type { ImapFlow } from "imapflow";
import PostalMime, { type Email } from "postal-mime";
import type { PollResult } from "../../shared/contract/email_sources.ts";
import type { Deps } from "../deps.ts";
import type { JobHandler, ScheduleSource } from "../jobs/handlers.ts";
import { runDueJobs, workerName } from "../jobs/runner.ts";
import { syncSchedules } from "../jobs/schedules.ts";
import { INBOX, loadMailAccount, type MailAccount, pollableSourceIds } from "../mail/accounts.ts";
import { type FeedName, type MailRule, registeredFeeds } from "./feeds.ts";
import { connectImap } from "./imap_connect.ts";
import { createRun, IMPORT_RUN_JOB } from "./import_runs.ts";
import { storeImportFile } from "./import_files.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import {
  acquireMailboxLease,
  advancePosition,
  mailboxPosition,
  recordPollOutcome,
  releaseMailboxLease,
  resetPosition,
} from "./mailbox_state.ts";
import { type AttachmentFacts, chooseAttachment, ruleMatches } from "./matching.ts";

/** The job kind that polls one mailbox. */
export const MAIL_POLL_JOB = "mail-poll";

/** How many dropped connections one poll recovers from before it gives up. */
const MAX_RECONNECTS = 3;
/** Messages whose envelopes are fetched in one command. */
const BATCH = 100;

/** Options of {@link pollMailbox}. */
export interface PollOptions {
  /** Process the import runs the poll queued before returning (the "Check now" call, the CLI). */
  processRuns?: boolean;
  /** Called after each claim's commit, before the mark: tests crash or cut the connection here. */
  afterClaim?: (uid: number, client: ImapFlow) => Promise<void> | void;
  log?: (line: string) => void;
}

interface FeedRule {
  feed: FeedName;
  rule: MailRule;
}

interface Progress {
  result: PollResult;
  uidvalidity: bigint;
}

/**
 * Polls one source's INBOX once, now. Returns what it did; an unreachable server or a refused
 * login is recorded on the source (shown on the list) and returned in `error`, not thrown.
 *
 * @example
 * ```ts ignore
 * const result = await pollMailbox(deps, 7, { processRuns: true });
 * ```
 */
export async function pollMailbox(
  deps: Deps,
  emailSourceId: number,
  options: PollOptions = {},
): Promise<PollResult> {
  const { db, config } = deps;
  const log = options.log ?? console.error;
  const result: PollResult = {
    emailSourceId,
    polled: false,
    seen: 0,
    matched: 0,
    ignored: 0,
    failed: 0,
    runs: 0,
    error: null,
  };
  let account: MailAccount;
  try {
    account = await loadMailAccount(db, deps.secrets, emailSourceId);
  } catch (error) {
    result.error = (error as Error).message;
    return result;
  }
  const owner = workerName();
  const leased = await acquireMailboxLease(
    db,
    emailSourceId,
    INBOX,
    owner,
    config.JOB_LEASE_SECONDS,
  );
  if (!leased) return result;
  result.polled = true;
  try {
    const rules = await rulesFor(deps, emailSourceId);
    await pollWithReconnects(deps, account, rules, result, owner, options);
    await recordPollOutcome(db, emailSourceId, INBOX, null);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`Polling e-mail source ${emailSourceId} failed: ${result.error}`);
    await recordPollOutcome(db, emailSourceId, INBOX, result.error).catch(() => {});
  } finally {
    await releaseMailboxLease(db, emailSourceId, INBOX, owner).catch(() => {});
  }
  if (options.processRuns && result.runs > 0) {
    const followUps = registeredFeeds().flatMap((feed) => feed.followUpJobKinds ?? []);
    await runDueJobs(deps, { kinds: [IMPORT_RUN_JOB, ...followUps], log });
  }
  return result;
}

async function rulesFor(deps: Deps, emailSourceId: number): Promise<FeedRule[]> {
  const lists = await Promise.all(
    registeredFeeds().map(async (feed) =>
      (await feed.mailRules(deps.db, emailSourceId)).map((rule) => ({ feed: feed.name, rule }))
    ),
  );
  return lists.flat();
}

/** One pass with a fresh client, and a fresh one again after a dropped connection. */
async function pollWithReconnects(
  deps: Deps,
  account: MailAccount,
  rules: FeedRule[],
  result: PollResult,
  owner: string,
  options: PollOptions,
): Promise<void> {
  for (let reconnects = 0;; reconnects++) {
    const client = await connectImap(deps.config, account);
    try {
      await pollOnce(deps, client, account, rules, result, owner, options);
      return;
    } catch (error) {
      // A session that is no longer usable was dropped (server restart, idle cut, network): what
      // was committed stays claimed, so a new session simply continues after it.
      if (client.usable || reconnects >= MAX_RECONNECTS) throw error;
      (options.log ?? console.error)(
        `E-mail source ${account.id}: connection lost (${(error as Error).message}); reconnecting.`,
      );
    } finally {
      await client.logout().catch(() => client.close());
    }
  }
}

async function pollOnce(
  deps: Deps,
  client: ImapFlow,
  account: MailAccount,
  rules: FeedRule[],
  result: PollResult,
  owner: string,
  options: PollOptions,
): Promise<void> {
  const { db, config } = deps;
  const box = await client.mailboxOpen(INBOX);
  const uidvalidity = BigInt(box.uidValidity);
  let position = await mailboxPosition(db, account.id, INBOX);
  if (position.uidvalidity !== uidvalidity) {
    // First contact, or the mailbox was recreated: look back a few days; what was claimed before
    // under the old UIDVALIDITY is recognised by its Message-ID.
    const since = new Date(Date.now() - config.MAIL_LOOKBACK_DAYS * 86_400_000);
    const recent = config.MAIL_LOOKBACK_DAYS > 0
      ? (await client.search({ since }, { uid: true })) || []
      : [];
    const start = recent.length ? Math.min(...recent) - 1 : Math.max(0, box.uidNext - 1);
    await resetPosition(db, account.id, INBOX, uidvalidity, start);
    position = { uidvalidity, highestUid: start };
  }
  const progress: Progress = { result, uidvalidity };
  await markPending(deps, client, account.id, uidvalidity);
  if (box.uidNext !== undefined && box.uidNext <= position.highestUid + 1) return;
  const found = (await client.search({ uid: `${position.highestUid + 1}:*` }, { uid: true })) ||
    [];
  // "n:*" always includes the last message, even when its UID is below n.
  const uids = found.filter((uid) => uid > position.highestUid).sort((a, b) => a - b);
  for (let i = 0; i < uids.length; i += BATCH) {
    const batch = uids.slice(i, i + BATCH);
    const messages = await client.fetchAll(batch.join(","), {
      uid: true,
      envelope: true,
      size: true,
      internalDate: true,
    }, { uid: true });
    messages.sort((a, b) => a.uid - b.uid);
    for (const message of messages) {
      if (!await acquireMailboxLease(db, account.id, INBOX, owner, config.JOB_LEASE_SECONDS)) {
        throw new Error("Another process took over this mailbox's poll.");
      }
      const claimed = await claimMessage(deps, client, account, rules, message, progress);
      if (claimed === null) continue;
      await options.afterClaim?.(message.uid, client);
      if (claimed) await markMessage(deps, client, account.id, uidvalidity, message.uid);
    }
  }
}

/** An envelope date as ISO text; null when missing or unparseable. */
function isoDate(value: Date | string | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

type Envelope = Awaited<ReturnType<ImapFlow["fetchAll"]>>[number];

/** The Message-ID, or a digest of the envelope for a message without one. */
async function messageKey(message: Envelope): Promise<string> {
  const id = message.envelope?.messageId?.trim();
  if (id) return id;
  const e = message.envelope;
  const facts = [
    isoDate(e?.date),
    e?.from?.map((a) => a.address).join(","),
    e?.subject,
    message.size,
  ];
  return `sha256:${await sha256Hex(JSON.stringify(facts))}`;
}

/**
 * Claims one message. Returns true when it produced runs (to be marked), false when it was
 * claimed without (no source wants it, unreadable), null when it had been claimed before.
 */
async function claimMessage(
  deps: Deps,
  client: ImapFlow,
  account: MailAccount,
  rules: FeedRule[],
  message: Envelope,
  progress: Progress,
): Promise<boolean | null> {
  const { db, config } = deps;
  const { result, uidvalidity } = progress;
  const key = await messageKey(message);
  const from = (message.envelope?.from ?? []).map((a) => a.address ?? "").filter(Boolean);
  const subject = message.envelope?.subject ?? "";
  const receivedAt = message.internalDate ? new Date(message.internalDate) : new Date();
  result.seen++;
  const [known] = await db.query(
    `select 1 from mail_messages where email_source_id = $1 and mailbox = $2 and message_key = $3`,
    [account.id, INBOX, key],
  );
  if (known) {
    await advancePosition(db, account.id, INBOX, uidvalidity, message.uid);
    return null;
  }
  const wanted = rules.filter((r) => ruleMatches(r.rule, { from, subject }));
  let parsed: Email | null = null;
  let raw: Uint8Array | null = null;
  let problem: string | null = null;
  if (wanted.length) {
    // Room for base64 (4/3) and the rest of the message around the largest allowed file.
    if ((message.size ?? 0) > config.MAX_SOURCE_FILE_BYTES * 1.4 + 1_000_000) {
      problem = `The e-mail is ${message.size} bytes, over the limit for files from mailboxes.`;
    } else {
      const full = await client.fetchOne(String(message.uid), { source: true }, { uid: true });
      if (!full || !full.source) {
        problem = "The e-mail disappeared from the server before it could be read.";
      } else {
        raw = new Uint8Array(full.source);
        try {
          parsed = await PostalMime.parse(full.source, { attachmentEncoding: "arraybuffer" });
        } catch (error) {
          problem = `The e-mail could not be read: ${(error as Error).message}`;
        }
      }
    }
  }
  const ruleRuns = wanted.map(({ feed, rule }) => ({
    feed,
    rule,
    run: rule.wholeMessage && parsed && raw
      ? wholeMessageRun(rule, parsed, raw)
      : runForRule(rule, parsed, problem, config.MAX_SOURCE_FILE_BYTES),
  }));
  // Stored first, part by part, so that the claim's transaction only links them (a file stored
  // for a message another worker claims first is the same content, stored once).
  for (const { run } of ruleRuns) if (run.bytes) await storeImportFile(db, run.bytes);
  const claimed = await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `insert into mail_messages (email_source_id, mailbox, uidvalidity, uid, message_key,
         from_address, subject, sent_at, status, error)
       values ($1, $2, $3::bigint, $4, $5, $6, $7, $8, $9, $10)
       on conflict do nothing returning id`,
      [
        account.id,
        INBOX,
        uidvalidity.toString(),
        message.uid,
        key,
        from.join(", "),
        subject.slice(0, 1000),
        isoDate(message.envelope?.date),
        wanted.length ? "matched" : "ignored",
        problem,
      ],
    );
    await advancePosition(tx, account.id, INBOX, uidvalidity, message.uid);
    if (!row) return null;
    let runs = 0;
    for (const { feed, rule, run } of ruleRuns) {
      await createRun(tx, {
        ...run,
        feed,
        sourceId: rule.sourceId,
        trigger: "mail",
        receivedAt,
        mailMessageId: row.id,
      });
      runs++;
    }
    return runs;
  });
  if (claimed === null) return null;
  if (!wanted.length) result.ignored++;
  else if (problem) result.failed++;
  else result.matched++;
  result.runs += claimed;
  return wanted.length > 0;
}

type RuleRun = {
  fileName: string;
  bytes: Uint8Array | null;
  warnings: string[];
  log: string[];
  error?: string;
};

/** A rule with `wholeMessage`: the raw message is the run's file; the feed reads it. */
function wholeMessageRun(rule: MailRule, email: Email, raw: Uint8Array): RuleRun {
  return {
    fileName: "message.eml",
    bytes: raw,
    warnings: [],
    log: [
      `E-mail from ${email.from?.address ?? "unknown sender"}, subject "${email.subject ?? ""}".`,
      `Matched source "${rule.sourceName}".`,
    ],
  };
}

/** What one matched source gets from one message: its best attachment, or a failed run. */
function runForRule(
  rule: MailRule,
  email: Email | null,
  problem: string | null,
  maxBytes: number,
): RuleRun {
  const log = [`Matched source "${rule.sourceName}".`];
  if (!email) return { fileName: "", bytes: null, warnings: [], log, error: problem! };
  log.unshift(
    `E-mail from ${email.from?.address ?? "unknown sender"}, subject "${email.subject ?? ""}".`,
  );
  const attachments = email.attachments.filter((a) => a.filename);
  const facts: AttachmentFacts[] = attachments.map((a) => ({
    filename: a.filename!,
    size: (a.content as ArrayBuffer).byteLength,
  }));
  const warnings: string[] = [];
  if (rule.expectedAttachmentCount && attachments.length < rule.expectedAttachmentCount) {
    warnings.push(
      `The e-mail had ${attachments.length} attachment(s); ${rule.expectedAttachmentCount} expected.`,
    );
  }
  const choice = chooseAttachment(rule, facts);
  const names = facts.map((f) => f.filename);
  if (!choice) {
    const type = rule.fileType ? ` of type ${rule.fileType}` : "";
    const pattern = rule.attachmentName ? ` (looking for "${rule.attachmentName}")` : "";
    return {
      fileName: "",
      bytes: null,
      warnings,
      log,
      error: `No attachment${type} in the e-mail${pattern}; attachments: ${
        names.length ? names.join(", ") : "none"
      }.`,
    };
  }
  const chosen = facts[choice.index];
  log.push(`Processing attachment "${chosen.filename}" (${choice.kind}).`);
  const others = names.filter((_, i) => i !== choice.index);
  if (others.length) log.push(`Ignored attachments: ${others.join(", ")}.`);
  if (chosen.size > maxBytes) {
    return {
      fileName: chosen.filename,
      bytes: null,
      warnings,
      log,
      error:
        `The attachment "${chosen.filename}" is ${chosen.size} bytes, over the limit of ${maxBytes}.`,
    };
  }
  const bytes = new Uint8Array(attachments[choice.index].content as ArrayBuffer);
  return { fileName: chosen.filename, bytes, warnings, log };
}

/** Marks a claimed message seen, or moves it to `MAIL_MOVE_TO`, then records that. */
async function markMessage(
  deps: Deps,
  client: ImapFlow,
  emailSourceId: number,
  uidvalidity: bigint,
  uid: number,
): Promise<void> {
  const target = deps.config.MAIL_MOVE_TO;
  const done = target
    ? await client.messageMove(String(uid), target, { uid: true })
    : await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
  // Left unmarked in the database, the next session marks it (markPending).
  if (!done && !client.usable) throw new Error("The connection closed before the mark.");
  await deps.db.query(
    `update mail_messages set marked_at = now()
      where email_source_id = $1 and mailbox = $2 and uidvalidity = $3::bigint and uid = $4`,
    [emailSourceId, INBOX, uidvalidity.toString(), uid],
  );
}

/** Marks the messages claimed earlier whose mark was cut short (crash, dropped connection). */
async function markPending(
  deps: Deps,
  client: ImapFlow,
  emailSourceId: number,
  uidvalidity: bigint,
): Promise<void> {
  const rows = await deps.db.query<{ uid: number }>(
    `select uid from mail_messages
      where email_source_id = $1 and mailbox = $2 and uidvalidity = $3::bigint
        and status = 'matched' and marked_at is null order by uid`,
    [emailSourceId, INBOX, uidvalidity.toString()],
  );
  for (const { uid } of rows) await markMessage(deps, client, emailSourceId, uidvalidity, uid);
}

/** The job that polls one mailbox (registered by the e-mail sources feature). */
export const mailPollJob: JobHandler = {
  async run(deps, job) {
    const result = await pollMailbox(deps, Number(job.payload.emailSourceId));
    if (result.error) throw new Error(result.error);
  },
};

/** One schedule per pollable mailbox, every MAIL_POLL_SECONDS. */
export const mailPollSchedules: ScheduleSource = async (deps) => {
  const ids = await pollableSourceIds(deps.db);
  await syncSchedules(
    deps.db,
    MAIL_POLL_JOB,
    ids.map((id) => ({
      name: `mail-poll:${id}`,
      kind: MAIL_POLL_JOB,
      payload: { emailSourceId: id },
      everySeconds: deps.config.MAIL_POLL_SECONDS,
    })),
  );
};
