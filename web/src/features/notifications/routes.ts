/** The notification screens' entries of the route table (spec part 2, section 2). */
import { lazy } from "react";

export const NOTIFICATION_ROUTES = [
  {
    path: "/notification-settings",
    Page: lazy(() => import("./setting_list_page.tsx")),
  },
  {
    path: "/notification-settings/edit/:settingId",
    Page: lazy(() => import("./setting_edit_page.tsx")),
  },
] as const;
