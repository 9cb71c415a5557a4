import { lazy } from "react";
import type { AreaAccess, Feature } from "../feature.ts";

/** Who may use the notification pages (part 2 section 6). */
const NOTIFICATION_ACCESS: AreaAccess = {
  allowed: (p) => p.isAdmin || p.anySourceUser,
  area: "notification settings",
  flags: "Inventory User, Order User or Submission User",
};

/** Notification settings (spec part 2, section 2). */
export const notifications: Feature = {
  name: "notifications",
  routes: [
    {
      path: "/notification-settings",
      guard: "user",
      access: NOTIFICATION_ACCESS,
      Page: lazy(() => import("./setting_list_page.tsx")),
      hubCard: {
        title: "Notification Settings",
        description: "Scheduled summary e-mails about sources.",
        order: 60,
        visible: (p) => p.isAdmin || p.anySourceUser,
      },
    },
    {
      path: "/notification-settings/edit/:settingId",
      guard: "user",
      access: NOTIFICATION_ACCESS,
      Page: lazy(() => import("./setting_edit_page.tsx")),
    },
  ],
};
