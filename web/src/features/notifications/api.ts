/**
 * Calls of /api/notification-settings (spec part 2, section 7) through the typed client. Readers
 * throw {@link NotificationRequestError} with the server's message when the answer is not 2xx.
 */
import type {
  CronValidationResult,
  EmailInfo,
  NotificationSetting,
  NotificationSourceOption,
  NotificationTestResult,
} from "../../../../shared/contract/notifications.ts";
import { api } from "../../api/client.ts";
import { isSuccess, readErrorMessage, readJson, type ResponseLike } from "../../api/http.ts";

export type {
  CronValidationResult,
  EmailInfo,
  NotificationSetting,
  NotificationSourceOption,
  NotificationTestResult,
};

/** A call that did not answer 2xx: its status and the server's message (when it sent one). */
export class NotificationRequestError extends Error {
  constructor(readonly status: number, readonly serverMessage: string | undefined) {
    super(serverMessage ?? `Request failed (${status}).`);
  }
}

async function answer<T>(call: Promise<ResponseLike>): Promise<T> {
  const response = await call;
  if (!isSuccess(response)) {
    throw new NotificationRequestError(response.status, await readErrorMessage(response));
  }
  return (await readJson<T>(response)) as T;
}

const settings = api.api["notification-settings"];

/** GET /api/notification-settings */
export function fetchNotificationSettings(): Promise<NotificationSetting[]> {
  return answer(settings.$get());
}

/** GET /api/notification-settings/{id} */
export function fetchNotificationSetting(id: number): Promise<NotificationSetting> {
  return answer(settings[":id"].$get({ param: { id: String(id) } }));
}

/** POST (id 0) or PUT /api/notification-settings[/{id}]; answers the stored setting. */
export function saveNotificationSetting(
  id: number,
  payload: Record<string, unknown>,
): Promise<NotificationSetting> {
  // deno-lint-ignore no-explicit-any
  const json = payload as any;
  return id === 0
    ? answer(settings.$post({ json }))
    : answer(settings[":id"].$put({ param: { id: String(id) }, json }));
}

/** DELETE /api/notification-settings/{id} */
export async function deleteNotificationSetting(id: number): Promise<void> {
  await answer(settings[":id"].$delete({ param: { id: String(id) } }));
}

/** GET /api/notification-settings/email-info */
export function fetchEmailInfo(): Promise<EmailInfo> {
  return answer(settings["email-info"].$get());
}

/** POST /api/notification-settings/validate-cron */
export function validateCronExpression(
  cronExpression: string,
  timeZone: string,
): Promise<CronValidationResult> {
  return answer(settings["validate-cron"].$post({ json: { cronExpression, timeZone } }));
}

/** POST /api/notification-settings/{id}/test */
export function sendTestNotification(id: number): Promise<NotificationTestResult> {
  return answer(settings[":id"].test.$post({ param: { id: String(id) } }));
}

/** GET /api/notification-settings/sources?sourceTypeId=N: the live sources of one type. */
export function fetchNotificationSources(
  sourceTypeId: number,
): Promise<NotificationSourceOption[]> {
  return answer(settings.sources.$get({ query: { sourceTypeId: String(sourceTypeId) } }));
}
