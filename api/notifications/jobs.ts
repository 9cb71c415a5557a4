/**
 * Notifications as durable jobs (docs/notifications.md, "Jobs"): each tick the schedule source
 * enqueues the settings that are due (one job per setting, or one per tick for the consolidated
 * ones) under the dedupe key `notification:<id>:<due time>`; the send job renders, sends through
 * the system mailer and only then stores `lastNotificationSent`. A mailbox whose polls went stale
 * raises one error alert per incident.
 */
import type { Deps } from "../deps.ts";
import type { Db } from "../db/client.ts";
import type { Job } from "../jobs/queue.ts";
import { enqueueJob } from "../jobs/queue.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import type { NotificationTestResult } from "../../shared/contract/notifications.ts";
import {
  type DueSetting,
  planMails,
  recipientsFor,
  type RecipientUser,
} from "../../shared/notifications/recipients.ts";
import {
  type MailboxHealthLimits,
  mailboxProblem,
  type MailboxState,
  renderConsolidated,
  type RenderInput,
  renderMailboxHealthAlert,
  renderNotification,
} from "../../shared/notifications/render.ts";
import { dueNow, resolveTimeZone, windowFor } from "../../shared/notifications/schedule.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { loadNotificationData } from "./content.ts";
import { listSettings, recipientUsers, type StoredSetting } from "./queries.ts";
import { postToChannels } from "./channels.ts";
import { appLink } from "../../shared/app_link.ts";

/** Sends the scheduled mail of one or more settings (payload `{ key, items }`). */
export const NOTIFICATION_SEND_JOB = "notification-send";
/** Sends the error alert of one mailbox-health incident (payload `{ emailSourceId, incidentKey }`). */
export const MAILBOX_HEALTH_JOB = "notification-mailbox-health";
/** Attempts of a send job: back-off 30 s doubling to an hour, about 4.5 hours in all. */
export const SEND_MAX_ATTEMPTS = 10;

/** One setting's due time a send job stands for. */
interface SendItem {
  settingId: number;
  /** ISO: the due time (stored as last_scheduled once sent). */
  scheduledFor: string;
}

/** The dedupe key of one setting's due time. */
export const itemKey = (item: SendItem) => `notification:${item.settingId}:${item.scheduledFor}`;

/**
 * The URL links in mails start with: `PUBLIC_URL`, or null (the mails carry no links and say to
 * ask the administrator). Never a request's origin (docs/auth.md, "Mailed links").
 */
export function publicUrlOf(deps: Pick<Deps, "config">): string | null {
  return deps.config.PUBLIC_URL ?? null;
}

/** The render input of a setting whose mail is sent at `now`. */
async function renderInputFor(
  deps: Deps,
  setting: StoredSetting,
  now: Date,
  publicUrl: string | null,
): Promise<RenderInput> {
  const lastSent = setting.lastNotificationSent ? new Date(setting.lastNotificationSent) : null;
  const window = windowFor(setting.notificationInterval, now, lastSent);
  const data = await loadNotificationData(deps.db, {
    sourceTypeId: setting.sourceTypeId,
    sourceId: setting.sourceId,
    window,
  });
  return { setting, window, data, publicUrl, timeZone: resolveTimeZone(setting.timeZone) };
}

/**
 * Brings due notifications into the job queue (the registered schedule source; `now` is
 * injectable for tests). A setting due several times while nothing ran gets one job, for the
 * latest due time. Returns the dedupe keys of the jobs enqueued (or already waiting).
 */
export async function enqueueDueNotifications(deps: Deps, now = new Date()): Promise<string[]> {
  const settings = await deps.db.query<{ id: number }>(
    `select id from notification_settings
      where notification_enabled and notification_interval <> 'None' limit 1`,
  );
  if (settings.length === 0) return [];
  const single: SendItem[][] = [];
  const consolidated: SendItem[] = [];
  for (const setting of await listSettings(deps.db)) {
    const lastSent = setting.lastNotificationSent ? new Date(setting.lastNotificationSent) : null;
    const decision = dueNow(setting, lastSent, setting.lastScheduled, now);
    if (!decision.due || !decision.scheduledFor) continue;
    const item = { settingId: setting.id, scheduledFor: decision.scheduledFor.toISOString() };
    if (setting.consolidatedEmail) consolidated.push(item);
    else single.push([item]);
  }
  if (consolidated.length > 0) single.push(consolidated);
  const keys: string[] = [];
  for (const items of single) {
    const key = items.map(itemKey).join(",");
    await enqueueJob(deps.db, {
      kind: NOTIFICATION_SEND_JOB,
      payload: { key, items },
      dedupeKey: key,
      maxAttempts: SEND_MAX_ATTEMPTS,
    });
    keys.push(key);
  }
  return keys;
}

/** Settings of `items` still waiting for this due time (a duplicate job finds none). */
async function stillDue(db: Db, items: SendItem[]): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number }>(
    `select s.id from notification_settings s
       join jsonb_to_recordset($1::text::jsonb) as i("settingId" int, "scheduledFor" timestamptz)
         on i."settingId" = s.id
      where s.last_scheduled < i."scheduledFor"`,
    [JSON.stringify(items)],
  );
  const ids = new Set(rows.map((row) => row.id));
  return new Map(
    items.filter((item) => ids.has(item.settingId)).map((item) => [
      item.settingId,
      item.scheduledFor,
    ]),
  );
}

/**
 * Runs a send job: renders and sends each planned mail not yet delivered for these due times
 * (`notification_deliveries` remembers accepted ones across retries), then stores the due times
 * and when the mail server accepted the mail. A failing mail server throws: the job is retried
 * with back-off and nothing is marked sent.
 */
export async function runSendJob(deps: Deps, job: Pick<Job, "payload">, now = new Date()) {
  const items = (job.payload.items ?? []) as SendItem[];
  const due = await stillDue(deps.db, items);
  if (due.size === 0) return;
  const settings = (await listSettings(deps.db)).filter((s) => due.has(s.id));
  const users = await recipientUsers(deps.db);
  const plan = planMails(settings.map((setting): DueSetting => ({
    settingId: setting.id,
    consolidatedEmail: setting.consolidatedEmail,
    recipients: recipientsFor(setting.sourceTypeId, setting.overrideEmailRecipients, users)
      .addresses,
  })));
  const publicUrl = publicUrlOf(deps);
  const byId = new Map(settings.map((setting) => [setting.id, setting]));
  for (const mail of plan) {
    const deliveryKey = `${
      mail.settingIds.map((id) => itemKey({ settingId: id, scheduledFor: due.get(id)! })).join(",")
    }|${mail.recipients.map((address) => address.toLowerCase()).sort().join(",")}`;
    const [done] = await deps.db.query(
      `select 1 from notification_deliveries where key = $1`,
      [deliveryKey],
    );
    if (done) continue;
    const inputs: RenderInput[] = [];
    for (const id of mail.settingIds) {
      inputs.push(await renderInputFor(deps, byId.get(id)!, now, publicUrl));
    }
    const rendered = mail.consolidated ? renderConsolidated(inputs) : renderNotification(inputs[0]);
    await deps.mailer.send({
      to: mail.recipients.join(", "),
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
    });
    await deps.db.query(
      `insert into notification_deliveries (key, recipients, subject) values ($1, $2, $3)
       on conflict (key) do nothing`,
      [deliveryKey, mail.recipients.join(", "), rendered.subject],
    );
  }
  // The settings with a webhook post their own summary too, once per due time (docs/notifications.md,
  // "Webhooks"); the post is a job of its own, so a receiver that is down does not hold the mails.
  for (const setting of settings) {
    if (setting.webhookPreset === "") continue;
    const rendered = renderNotification(await renderInputFor(deps, setting, now, publicUrl));
    await postToChannels(deps, setting, {
      title: rendered.subject,
      text: rendered.text,
      link: publicUrl ? appLink(publicUrl, `/notification-settings/edit/${setting.id}`) : undefined,
      kind: "summary",
    }, { onceKey: itemKey({ settingId: setting.id, scheduledFor: due.get(setting.id)! }) });
  }
  // Every mail accepted: the due times are handled. A setting without recipients is handled too
  // (nothing to send), but keeps its lastNotificationSent.
  await deps.db.transaction(async (tx) => {
    for (const setting of settings) {
      const scheduledFor = due.get(setting.id)!;
      const [accepted] = await tx.query<{ at: Date | string | null }>(
        `select max(accepted_at) as at from notification_deliveries
          where key like $1 or key like $2`,
        [
          `%${itemKey({ settingId: setting.id, scheduledFor })},%`,
          `%${itemKey({ settingId: setting.id, scheduledFor })}|%`,
        ],
      );
      await tx.query(
        `update notification_settings
            set last_scheduled = $2,
                last_notification_sent = coalesce($3::timestamptz, last_notification_sent)
          where id = $1 and last_scheduled < $2`,
        [setting.id, scheduledFor, accepted?.at ?? null],
      );
    }
  });
}

/**
 * Sends a setting's mail now (POST {id}/test): the setting's window, its recipients; does not
 * change lastNotificationSent. 400 without recipients, 502 when the mail server refuses.
 */
export async function sendTestNotification(
  deps: Deps,
  setting: StoredSetting,
  now = new Date(),
): Promise<NotificationTestResult> {
  const recipients = recipientsFor(
    setting.sourceTypeId,
    setting.overrideEmailRecipients,
    await recipientUsers(deps.db),
  ).addresses;
  if (recipients.length === 0) {
    throw badRequest(
      "No recipients: add override e-mail recipients, or give users of this area " +
        '"send notifications to e-mail" and an e-mail address.',
    );
  }
  const input = await renderInputFor(deps, setting, now, publicUrlOf(deps));
  const rendered = renderNotification(input);
  try {
    await deps.mailer.send({
      to: recipients.join(", "),
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
    });
  } catch (error) {
    throw new ApiError(
      502,
      `The mail server did not accept the test notification: ${(error as Error).message}`,
    );
  }
  return {
    success: true,
    message: `Test notification sent to ${recipients.join(", ")}`,
    subject: rendered.subject,
    recipients,
    windowFrom: input.window.from.toISOString(),
    windowTo: input.window.to.toISOString(),
    details: `Sent "${rendered.subject}" to ${recipients.join(", ")}.`,
  };
}

// ---- Mailbox health ----

/** When a mailbox is unhealthy: `MAILBOX_ALERT_HOURS` and `MAILBOX_ALERT_FAILURES` (0: no count). */
function healthLimits(config: Deps["config"]): MailboxHealthLimits {
  return {
    maxAgeMs: config.MAILBOX_ALERT_HOURS * 3_600_000,
    maxFailures: config.MAILBOX_ALERT_FAILURES || Number.POSITIVE_INFINITY,
  };
}

/** Pollable mailboxes with their last successful poll and failures in a row. */
async function mailboxStates(db: Db): Promise<MailboxState[]> {
  return await db.query<MailboxState>(
    `select e.id, e.email, e.active_status as "activeStatus", e.created_at as "createdAt",
            m.last_success_at as "lastSuccessfulPoll", m.last_error as "lastPollError",
            m.last_error_at as "lastPollErrorAt",
            coalesce(m.consecutive_failures, 0) as "consecutiveFailures"
       from email_sources e
       left join mailbox_state m on m.email_source_id = e.id and m.mailbox = 'INBOX'
      where e.deleted_at is null and e.active_status and (e.incoming_server <> '' or e.is_msal)
      order by e.id`,
  );
}

/**
 * Enqueues an alert for every stale mailbox whose incident was not alerted yet
 * (`MAILBOX_ALERT_HOURS`, 0 = off). Returns the incident keys enqueued (or already waiting).
 */
export async function enqueueMailboxAlerts(deps: Deps, now = new Date()): Promise<string[]> {
  const hours = deps.config.MAILBOX_ALERT_HOURS;
  if (hours <= 0) return [];
  const keys: string[] = [];
  for (const mailbox of await mailboxStates(deps.db)) {
    const problem = mailboxProblem(mailbox, now, healthLimits(deps.config));
    if (!problem) continue;
    const [known] = await deps.db.query(`select 1 from notification_incidents where key = $1`, [
      problem.incidentKey,
    ]);
    if (known) continue;
    await enqueueJob(deps.db, {
      kind: MAILBOX_HEALTH_JOB,
      payload: { emailSourceId: mailbox.id, incidentKey: problem.incidentKey },
      dedupeKey: problem.incidentKey,
      maxAttempts: SEND_MAX_ATTEMPTS,
    });
    keys.push(problem.incidentKey);
  }
  return keys;
}

/** The recipients of error alerts: those of every enabled setting with error alerts on. */
function alertRecipients(settings: StoredSetting[], users: RecipientUser[]): string[] {
  const seen = new Map<string, string>();
  for (const setting of settings) {
    if (!setting.notificationEnabled || !setting.includeErrorAlerts) continue;
    for (
      const address of recipientsFor(setting.sourceTypeId, setting.overrideEmailRecipients, users)
        .addresses
    ) {
      if (!seen.has(address.toLowerCase())) seen.set(address.toLowerCase(), address);
    }
  }
  return [...seen.values()];
}

/** Sends one incident's alert (unless already recorded) and records the incident. */
export async function runMailboxHealthJob(deps: Deps, job: Pick<Job, "payload">, now = new Date()) {
  const incidentKey = String(job.payload.incidentKey);
  const emailSourceId = Number(job.payload.emailSourceId);
  const [known] = await deps.db.query(`select 1 from notification_incidents where key = $1`, [
    incidentKey,
  ]);
  if (known) return;
  const mailbox = (await mailboxStates(deps.db)).find((m) => m.id === emailSourceId);
  const problem = mailbox ? mailboxProblem(mailbox, now, healthLimits(deps.config)) : null;
  // Polled again (or removed) since: the incident is over without an alert.
  if (!mailbox || !problem || problem.incidentKey !== incidentKey) return;
  const settings = await listSettings(deps.db);
  const recipients = alertRecipients(settings, await recipientUsers(deps.db));
  if (recipients.length > 0) {
    const prefix = settings.find((s) => s.includeErrorAlerts && s.emailSubjectPrefix)
      ?.emailSubjectPrefix;
    const rendered = renderMailboxHealthAlert({
      mailbox,
      problem,
      now,
      publicUrl: publicUrlOf(deps),
      timeZone: resolveTimeZone(null),
      subjectPrefix: prefix ?? "",
    });
    await deps.mailer.send({
      to: recipients.join(", "),
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
    });
  }
  await deps.db.query(
    `insert into notification_incidents (key, email_source_id) values ($1, $2)
     on conflict (key) do nothing`,
    [incidentKey, emailSourceId],
  );
}

/** The job handlers of notifications, by kind. */
export const notificationJobHandlers: Record<string, JobHandler> = {
  [NOTIFICATION_SEND_JOB]: {
    run: (deps, job) => runSendJob(deps, job),
    onGiveUp: (_deps, job, error) => {
      // The setting stays due: the next tick enqueues it again (its back-off starts over).
      console.error(`Notification ${String(job.payload.key)} gave up for now: ${error}`);
      return Promise.resolve();
    },
  },
  [MAILBOX_HEALTH_JOB]: { run: (deps, job) => runMailboxHealthJob(deps, job) },
};

/** The schedule source: due notifications and mailbox-health alerts, each tick. */
export async function notificationScheduleSource(deps: Deps): Promise<void> {
  const now = new Date();
  await enqueueDueNotifications(deps, now);
  await enqueueMailboxAlerts(deps, now);
}
