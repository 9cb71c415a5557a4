/** The OpenAPI descriptions of /api/notification-settings (spec part 2, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import {
  cronValidationResult,
  emailInfo,
  notificationSetting,
  notificationSourceOption,
  notificationTestResult,
  webhookTestResult,
} from "../../shared/contract/notifications.ts";

const P2 = "Spec part 2, section 7.";

export const notificationsDocs = routeDocs([
  {
    method: "GET",
    path: "/api/notification-settings",
    summary: "Every notification setting",
    response: z.array(notificationSetting),
    description: P2,
  },
  {
    method: "GET",
    path: "/api/notification-settings/email-info",
    summary: "Sender, recipients and a note for the edit page",
    response: emailInfo,
    description: P2,
  },
  {
    method: "GET",
    path: "/api/notification-settings/sources",
    summary: "The sources of one source type, for the edit page's source picker",
    response: z.array(notificationSourceOption),
  },
  {
    method: "POST",
    path: "/api/notification-settings/validate-cron",
    summary: "Check a cron expression; its next execution",
    response: cronValidationResult,
    description: P2,
  },
  {
    method: "POST",
    path: "/api/notification-settings",
    summary: "Create a notification setting",
    response: notificationSetting,
    description: `${P2} \`webhookUrl\` and \`webhookSecret\` are write-only: answers carry ` +
      '"********" when one is stored; sending "********" back keeps it (docs/notifications.md).',
  },
  {
    method: "GET",
    path: "/api/notification-settings/:id",
    summary: "One notification setting",
    response: notificationSetting,
    description: P2,
  },
  {
    method: "PUT",
    path: "/api/notification-settings/:id",
    summary: "Update a notification setting",
    response: notificationSetting,
    description: P2,
  },
  {
    method: "DELETE",
    path: "/api/notification-settings/:id",
    summary: "Delete a notification setting",
    response: "empty",
    description: P2,
  },
  {
    method: "POST",
    path: "/api/notification-settings/:id/test",
    summary: "Send the notification now as a test",
    response: notificationTestResult,
    description: `${P2} 429 with \`Retry-After\` past NOTIFICATION_TESTS_PER_USER_PER_HOUR or ` +
      "NOTIFICATION_TESTS_PER_HOUR (docs/limits.md).",
  },
  {
    method: "POST",
    path: "/api/notification-settings/:id/test-webhook",
    summary: "Post a test message to the setting's webhook now",
    response: webhookTestResult,
    description: 'One post, no retry (docs/notifications.md, "Webhooks"). 400 when the ' +
      "setting has no webhook; 502 naming the webhook's host when the outbound policy " +
      "(OUTBOUND_ALLOW) refused it, it was not reached or it answered other than 2xx. Counts " +
      "against the same limits as the test e-mail (429 with `Retry-After`).",
  },
]);
