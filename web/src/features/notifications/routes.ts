import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** Notification settings (spec part 2, section 2). */
export const notifications: Feature = {
  name: "notifications",
  routes: [
    {
      path: "/notification-settings",
      guard: "user",
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
      Page: lazy(() => import("./setting_edit_page.tsx")),
    },
  ],
};
