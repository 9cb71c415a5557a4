/**
 * Alert channels besides e-mail (docs/notifications.md, "Webhooks"). `postToChannels` is the one
 * way a message reaches a setting's channels: the scheduled summaries call it, and so do the
 * incident alerts ("source failing / recovered"). It queues a durable job per post
 * (`notification-webhook`), so a receiver that is down gets the message later with the job
 * table's back-off (docs/jobs.md) and a restart loses nothing. The address and signing secret are
 * read from the setting when the job runs, never kept in the job's payload.
 */
import type { Deps } from "../deps.ts";
import type { Db } from "../db/client.ts";
import { enqueueJob, type Job, PermanentJobError } from "../jobs/queue.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import {
  type ChannelMessage,
  postWebhook,
  webhookBody,
  WebhookError,
  webhookHostOf,
} from "../net/webhook.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { logError } from "../http/log_error.ts";
import { WEBHOOK_MESSAGES, type WebhookTestResult } from "../../shared/contract/notifications.ts";
import { appLink } from "../../shared/app_link.ts";
import { loadWebhook } from "./queries.ts";

export type { ChannelMessage };

/** Posts one message to one setting's webhook (payload `{ settingId, deliveryId, message, at }`). */
export const WEBHOOK_JOB = "notification-webhook";
/** Attempts of a post: 30 s doubling to an hour between them, about 4.5 hours in all. */
export const WEBHOOK_MAX_ATTEMPTS = 10;

/** Options of {@link postToChannels}. */
export interface PostOptions {
  /**
   * Posts this message once per key, even when the caller runs again (a retried summary job, an
   * incident seen by two ticks): the key is remembered in `notification_deliveries`.
   */
  onceKey?: string;
}

/**
 * Queues `message` for every channel of `setting` besides e-mail (today its webhook, when one is
 * set). Returns how many posts were queued (0: no channel, or already queued for `onceKey`).
 * Safe inside the caller's transaction (`deps.db` may be one).
 *
 * @example
 * ```ts ignore
 * await postToChannels(deps, { id: settingId }, {
 *   title: "Acme Inventory is failing",
 *   text: "3 runs in a row failed: Missing column Qty",
 *   link: "https://backoffice.example.com/runs?source=4",
 *   kind: "incident",
 * }, { onceKey: "incident:inventory:4:2026-01-01T07:00:00Z" });
 * ```
 */
export async function postToChannels(
  deps: Pick<Deps, "db">,
  setting: { id: number },
  message: ChannelMessage,
  options: PostOptions = {},
): Promise<number> {
  return await deps.db.transaction(async (tx) => {
    const [row] = await tx.query<{ preset: string }>(
      `select webhook_preset as preset from notification_settings
        where id = $1 and webhook_preset <> '' and webhook_url_secret_enc is not null`,
      [setting.id],
    );
    if (!row) return 0;
    if (
      options.onceKey && !await firstTime(tx, `webhook:${setting.id}:${options.onceKey}`, message)
    ) {
      return 0;
    }
    await enqueueJob(tx, {
      kind: WEBHOOK_JOB,
      payload: {
        settingId: setting.id,
        deliveryId: crypto.randomUUID(),
        message,
        at: new Date().toISOString(),
      },
      maxAttempts: WEBHOOK_MAX_ATTEMPTS,
    });
    return 1;
  });
}

/** Records `key`; false when it was recorded before. */
async function firstTime(db: Db, key: string, message: ChannelMessage): Promise<boolean> {
  const rows = await db.query(
    `insert into notification_deliveries (key, recipients, subject) values ($1, 'webhook', $2)
     on conflict (key) do nothing returning key`,
    [key, message.title.slice(0, 500)],
  );
  return rows.length > 0;
}

/**
 * Runs a post job: loads the setting's webhook, builds the body in its format and posts it. A
 * setting whose webhook was removed meanwhile drops the message. A refusal that trying again
 * cannot mend (the outbound policy, a 4xx) fails the job at once.
 */
export async function runWebhookJob(deps: Deps, job: Pick<Job, "payload">): Promise<void> {
  const settingId = Number(job.payload.settingId);
  const webhook = await loadWebhook(deps.db, deps.secrets, settingId);
  if (!webhook) return;
  const message = job.payload.message as ChannelMessage;
  const body = JSON.stringify(webhookBody(webhook.preset, message, {
    sentAt: new Date(String(job.payload.at ?? new Date().toISOString())),
    setting: { id: settingId, name: webhook.name },
  }));
  try {
    await postWebhook(deps.config, {
      url: webhook.url,
      body,
      secret: webhook.secret,
      deliveryId: String(job.payload.deliveryId),
    });
  } catch (error) {
    if (error instanceof WebhookError && !error.retry) throw new PermanentJobError(error.message);
    throw error;
  }
}

/**
 * POST {id}/test-webhook: posts a test message now, once, and answers how it went (no retry: the
 * person is waiting). 400 without a webhook; 502 when the webhook refused or was not reached.
 */
export async function sendWebhookTest(
  deps: Deps,
  setting: { id: number; name: string },
  now = new Date(),
): Promise<WebhookTestResult> {
  const webhook = await loadWebhook(deps.db, deps.secrets, setting.id);
  if (!webhook) throw badRequest(WEBHOOK_MESSAGES.noWebhook);
  const publicUrl = deps.config.PUBLIC_URL;
  const message: ChannelMessage = {
    title: `Test message from the back office: ${setting.name}`,
    text: "If you can read this, the notification setting's webhook works.",
    link: publicUrl ? appLink(publicUrl, `/notification-settings/edit/${setting.id}`) : undefined,
    kind: "test",
  };
  const body = JSON.stringify(webhookBody(webhook.preset, message, {
    sentAt: now,
    setting: { id: setting.id, name: webhook.name },
  }));
  try {
    const { status } = await postWebhook(deps.config, {
      url: webhook.url,
      body,
      secret: webhook.secret,
      deliveryId: crypto.randomUUID(),
    });
    return {
      success: true,
      message: `Test message posted to ${webhookHostOf(webhook.url)} (answer ${status}).`,
      status,
    };
  } catch (error) {
    if (error instanceof WebhookError) throw new ApiError(502, error.message);
    logError("webhook test", error);
    throw new ApiError(502, WEBHOOK_MESSAGES.testFailed);
  }
}

/** The job handler of webhook posts. */
export const webhookJobHandlers: Record<string, JobHandler> = {
  [WEBHOOK_JOB]: {
    run: (deps, job) => runWebhookJob(deps, job),
    onGiveUp: (_deps, job, error) => {
      // The job row keeps the reason (host only, never the address) for the operator.
      console.error(
        `Webhook post of setting ${String(job.payload.settingId)} gave up: ${error}`,
      );
      return Promise.resolve();
    },
  },
};
