/**
 * The notifications feature: settings (`/api/notification-settings`), the scheduled summary
 * e-mails and the mailbox-health alerts, and their webhooks (docs/notifications.md).
 */
import { defineFeature } from "../feature.ts";
import { notificationsDocs } from "./docs.ts";
import { notificationRoutes } from "./routes.ts";
import { notificationJobHandlers, notificationScheduleSource } from "./jobs.ts";
import { webhookJobHandlers } from "./channels.ts";

/** Any flag or Admin may use it (spec part 2, section 6). */
export const notifications = defineFeature({
  name: "notifications",
  flag: "anyFlag",
  routes: [{ path: "/api/notification-settings", router: notificationRoutes }],
  jobHandlers: { ...notificationJobHandlers, ...webhookJobHandlers },
  scheduleSources: [notificationScheduleSource],
  docs: notificationsDocs,
});
