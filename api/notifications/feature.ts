/**
 * The notifications feature: its routes, its job handlers and its schedule source, in the shape
 * the feature list (api/features.ts) takes.
 */
import { notificationRoutes } from "./routes.ts";
import { notificationJobHandlers, notificationScheduleSource } from "./jobs.ts";
import { registerJobHandler, registerScheduleSource } from "../jobs/handlers.ts";

export const notificationsFeature = {
  name: "notifications",
  flag: "any",
  mountPath: "/api/notification-settings",
  routes: notificationRoutes,
  jobHandlers: notificationJobHandlers,
  scheduleSources: [notificationScheduleSource],
} as const;

/** Registers the feature's job handlers and schedule source with the job runner (once). */
export function registerNotificationJobs(): void {
  for (const [kind, handler] of Object.entries(notificationsFeature.jobHandlers)) {
    registerJobHandler(kind, handler);
  }
  for (const source of notificationsFeature.scheduleSources) registerScheduleSource(source);
}
