/**
 * Delivery of a processed inventory run: the generated file to the source's SFTP server and/or
 * by e-mail with a summary (system mailer), each channel once; a held run instead sends its
 * alert once and waits for a release. A delivered run's item statuses become the ones the next
 * run's flips and guard compare with. Failures fail the import run with the reason; the file
 * stays stored and a retry (the job's back-off, or POST runs/{id}/deliver) delivers it.
 */
import { Buffer } from "node:buffer";
import type { Deps } from "../deps.ts";
import { logError } from "../http/log_error.ts";
import { inventoryRecipients } from "./feed.ts";
import { sftpSettings } from "./queries.ts";
import { SftpError, uploadFile } from "./sftp.ts";
import { appLink } from "../../shared/app_link.ts";
import { markItemsDelivered } from "./items.ts";

/** What a delivery attempt did. */
export interface DeliveryOutcome {
  status: "pending" | "held" | "delivering" | "delivered" | "failed";
  log: string[];
  error: string | null;
  /** The error needs someone to change the source first (see `SftpError.needsPerson`). */
  needsPerson?: boolean;
}

interface RunRow {
  sourceId: number;
  sourceName: string;
  status: DeliveryOutcome["status"];
  deliverSftp: boolean;
  deliverEmail: boolean;
  emailTo: string;
  outputFileName: string | null;
  outputBytes: Uint8Array | null;
  result: { message?: string; processingLogs?: string[] };
  guard: { turnedInactive?: number; previouslyActive?: number; threshold?: number };
  sftpDeliveredAt: Date | null;
  emailSentAt: Date | null;
  holdAlertSentAt: Date | null;
}

async function loadRun(deps: Deps, runId: number): Promise<RunRow | null> {
  const [row] = await deps.db.query<RunRow>(
    `select r.inventory_source_id as "sourceId", s.source_name as "sourceName",
       r.delivery_status as status, r.deliver_sftp as "deliverSftp",
       r.deliver_email as "deliverEmail", r.email_to as "emailTo",
       r.output_file_name as "outputFileName", r.output_bytes as "outputBytes", r.result,
       r.guard, r.sftp_delivered_at as "sftpDeliveredAt", r.email_sent_at as "emailSentAt",
       r.hold_alert_sent_at as "holdAlertSentAt"
       from inventory_runs r join inventory_sources s on s.id = r.inventory_source_id
      where r.import_run_id = $1`,
    [runId],
  );
  return row ?? null;
}

async function appendRunLog(deps: Deps, runId: number, lines: string[]) {
  if (!lines.length) return;
  await deps.db.query(
    `update import_runs set log = log || $2::text::jsonb where id = $1`,
    [runId, JSON.stringify(lines)],
  );
  await deps.db.query(
    `update inventory_runs set delivery_log = delivery_log || $2::text::jsonb
      where import_run_id = $1`,
    [runId, JSON.stringify(lines)],
  );
}

/**
 * Where the hold alert sends people: the run's page, where it can be released (docs/runs.md).
 * Links carry PUBLIC_URL only, never a request's Host (shared/app_link.ts); without it, the way
 * there in words.
 */
function runLinkLine(deps: Deps, runId: number): string {
  const base = deps.config.PUBLIC_URL;
  return base
    ? `Review and release the run: ${appLink(base, `/runs/${runId}`)}\n`
    : `Review and release the run in the application under Runs (run ${runId}).\n`;
}

/** Sends the hold alert of a held run once (system mail to the inventory recipients). */
async function sendHoldAlert(deps: Deps, runId: number, run: RunRow): Promise<string[]> {
  if (run.holdAlertSentAt) return [];
  const to = await inventoryRecipients(deps.db);
  const g = run.guard;
  const line =
    `Run ${runId} of inventory source "${run.sourceName}" is held: ${g.turnedInactive} of ` +
    `${g.previouslyActive} previously active items would turn inactive (threshold ${
      Math.round((g.threshold ?? 0.5) * 100)
    } %). Nothing was delivered; release the run to deliver it.`;
  let log: string;
  if (!deps.mailer.configured || !to.length) {
    log = `Hold alert not e-mailed (${
      deps.mailer.configured ? "no inventory recipients" : "system mail is not configured"
    }).`;
  } else {
    try {
      await deps.mailer.send({
        to: to.join(", "),
        subject: `Inventory run held: ${run.sourceName}`,
        text: `${line}\n${runLinkLine(deps, runId)}\n${
          (run.result.processingLogs ?? []).join("\n")
        }\n`,
      });
      log = `Hold alert e-mailed to ${to.join(", ")}.`;
    } catch (error) {
      logError(`Hold alert of inventory run ${runId}`, error);
      return [`Hold alert could not be sent: ${(error as Error).message}`];
    }
  }
  await deps.db.query(
    "update inventory_runs set hold_alert_sent_at = now() where import_run_id = $1",
    [runId],
  );
  return [log];
}

/**
 * Delivers run `runId` (or sends its hold alert). Safe to call twice and from two processes: a
 * delivery is claimed first, and each channel that succeeded is not repeated.
 */
export async function deliverRun(deps: Deps, runId: number): Promise<DeliveryOutcome> {
  const run = await loadRun(deps, runId);
  if (!run) return { status: "failed", log: [], error: `Inventory run ${runId} does not exist.` };
  if (run.status === "held") {
    const log = await sendHoldAlert(deps, runId, run);
    await appendRunLog(deps, runId, log);
    return { status: "held", log, error: null };
  }
  if (run.status === "delivered") return { status: "delivered", log: [], error: null };
  const claimed = await deps.db.query(
    `update inventory_runs set delivery_status = 'delivering',
       delivery_claimed_until = now() + interval '10 minutes'
      where import_run_id = $1 and (delivery_status in ('pending', 'failed')
        or (delivery_status = 'delivering' and delivery_claimed_until < now()))
      returning import_run_id`,
    [runId],
  );
  if (!claimed.length) return { status: "delivering", log: [], error: null };
  const log: string[] = [];
  let error: string | null = null;
  let needsPerson = false;
  const bytes = run.outputBytes ? new Uint8Array(run.outputBytes) : null;
  const name = run.outputFileName ?? `inventory-${runId}`;
  try {
    if (!bytes) throw new Error("The run has no generated file.");
    if (run.deliverSftp && !run.sftpDeliveredAt) {
      const settings = await sftpSettings(deps.db, deps.secrets, run.sourceId);
      if (!settings) throw new Error("The source has no SFTP server to deliver to.");
      const written = await uploadFile(deps, run.sourceId, settings, name, bytes);
      await deps.db.query(
        "update inventory_runs set sftp_delivered_at = now() where import_run_id = $1",
        [runId],
      );
      log.push(`Delivered "${written}" to the SFTP server ${settings.host}:${settings.port}.`);
    }
    if (run.deliverEmail && !run.emailSentAt) {
      if (!run.emailTo.trim()) throw new Error("No e-mail recipient to send the file to.");
      await deps.mailer.send({
        to: run.emailTo,
        subject: `Inventory file: ${run.sourceName}`,
        text: `${run.result.message ?? ""}\n\n${(run.result.processingLogs ?? []).join("\n")}\n`,
        attachments: [{ filename: name, content: Buffer.from(bytes) }],
      });
      await deps.db.query(
        "update inventory_runs set email_sent_at = now() where import_run_id = $1",
        [runId],
      );
      log.push(`E-mailed "${name}" to ${run.emailTo}.`);
    }
    if (!run.deliverSftp && !run.deliverEmail) {
      log.push("Nothing to deliver to (no SFTP server, no e-mail): the file is kept for download.");
    }
  } catch (e) {
    error = `Delivery failed: ${(e as Error).message}`;
    needsPerson = e instanceof SftpError && e.needsPerson;
    log.push(error);
  }
  await deps.db.transaction(async (tx) => {
    if (error) {
      await tx.query(
        `update inventory_runs set delivery_status = 'failed', delivery_error = $2,
           delivery_claimed_until = null where import_run_id = $1`,
        [runId, error],
      );
      await tx.query(
        `update import_runs set status = 'failed', error = $2 where id = $1`,
        [runId, error],
      );
      return;
    }
    await tx.query(
      `update inventory_runs set delivery_status = 'delivered', delivery_error = null,
         delivered_at = now(), delivery_claimed_until = null where import_run_id = $1`,
      [runId],
    );
    await tx.query(
      `update import_runs set status = 'succeeded', error = null
        where id = $1 and status in ('failed', 'held')`,
      [runId],
    );
    // This run's statuses are now what the seller has: the next flips compare with them.
    await tx.query(
      "delete from inventory_delivered_statuses where inventory_source_id = $1",
      [run.sourceId],
    );
    await tx.query(
      `insert into inventory_delivered_statuses (inventory_source_id, item_number, status,
         import_run_id)
       select $1, e->>'itemNumber', e->>'status', $2
         from inventory_runs r, jsonb_array_elements(r.statuses) e
        where r.import_run_id = $2
       on conflict do nothing`,
      [run.sourceId, runId],
    );
    await markItemsDelivered(tx, run.sourceId);
  });
  await appendRunLog(deps, runId, log);
  return { status: error ? "failed" : "delivered", log, error, needsPerson };
}

/**
 * Releases a held run: it becomes a succeeded run and is delivered at once. Returns null when
 * the run is not held.
 */
export async function releaseRun(
  deps: Deps,
  runId: number,
  userId: number | null,
): Promise<DeliveryOutcome | null> {
  const released = await deps.db.transaction(async (tx) => {
    const rows = await tx.query(
      `update inventory_runs set delivery_status = 'pending', released_by = $2, released_at = now()
        where import_run_id = $1 and delivery_status = 'held' returning import_run_id`,
      [runId, userId],
    );
    if (!rows.length) return false;
    await tx.query(
      `update import_runs set status = 'succeeded',
         log = log || jsonb_build_array('Released' || coalesce(' by ' ||
           (select username from users where id = $2), '') || '.')
        where id = $1`,
      [runId, userId],
    );
    return true;
  });
  if (!released) return null;
  return await deliverRun(deps, runId);
}
