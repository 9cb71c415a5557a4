/**
 * Calls of /api/notification-settings (spec part 2, section 7), each one `call(...)` over the
 * typed client; failures throw `ApiError` (web/src/api/call.ts), loaders take an AbortSignal.
 */
import type {
  CronValidationResult,
  EmailInfo,
  NotificationSetting,
  NotificationSourceOption,
  NotificationTestResult,
  WebhookTestResult,
} from "../../../../shared/contract/notifications.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type {
  CronValidationResult,
  EmailInfo,
  NotificationSetting,
  NotificationSourceOption,
  NotificationTestResult,
  WebhookTestResult,
};

const settings = api.api["notification-settings"];

/** GET /api/notification-settings */
export function fetchNotificationSettings(signal?: AbortSignal): Promise<NotificationSetting[]> {
  return call(settings.$get(undefined, { init: { signal } })) as Promise<NotificationSetting[]>;
}

/** GET /api/notification-settings/{id} */
export function fetchNotificationSetting(
  id: number,
  signal?: AbortSignal,
): Promise<NotificationSetting> {
  return call(
    settings[":id"].$get({ param: { id: String(id) } }, { init: { signal } }),
  ) as Promise<NotificationSetting>;
}

/** POST (id 0) or PUT /api/notification-settings[/{id}]; answers the stored setting. */
export function saveNotificationSetting(
  id: number,
  payload: Record<string, unknown>,
): Promise<NotificationSetting> {
  // deno-lint-ignore no-explicit-any
  const json = payload as any;
  return (id === 0
    ? call(settings.$post({ json }))
    : call(settings[":id"].$put({ param: { id: String(id) }, json }))) as Promise<
      NotificationSetting
    >;
}

/** DELETE /api/notification-settings/{id} */
export async function deleteNotificationSetting(id: number): Promise<void> {
  await call(settings[":id"].$delete({ param: { id: String(id) } }));
}

/** GET /api/notification-settings/email-info */
export function fetchEmailInfo(signal?: AbortSignal): Promise<EmailInfo> {
  return call(settings["email-info"].$get(undefined, { init: { signal } })) as Promise<EmailInfo>;
}

/** POST /api/notification-settings/validate-cron */
export function validateCronExpression(
  cronExpression: string,
  timeZone: string,
  signal?: AbortSignal,
): Promise<CronValidationResult> {
  return call(
    settings["validate-cron"].$post({ json: { cronExpression, timeZone } }, { init: { signal } }),
  ) as Promise<CronValidationResult>;
}

/** POST /api/notification-settings/{id}/test */
export function sendTestNotification(id: number): Promise<NotificationTestResult> {
  return call(
    settings[":id"].test.$post({ param: { id: String(id) } }),
  ) as Promise<NotificationTestResult>;
}

/** POST /api/notification-settings/{id}/test-webhook: posts a test message to the saved webhook. */
export function sendWebhookTest(id: number): Promise<WebhookTestResult> {
  return call(
    settings[":id"]["test-webhook"].$post({ param: { id: String(id) } }),
  ) as Promise<WebhookTestResult>;
}

/** GET /api/notification-settings/sources?sourceTypeId=N: the live sources of one type. */
export function fetchNotificationSources(
  sourceTypeId: number,
  signal?: AbortSignal,
): Promise<NotificationSourceOption[]> {
  return call(
    settings.sources.$get(
      { query: { sourceTypeId: String(sourceTypeId) } },
      { init: { signal } },
    ),
  ) as Promise<NotificationSourceOption[]>;
}
