import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The user's own account page and the admin's user management. */
export const accounts: Feature = {
  name: "accounts",
  routes: [
    { path: "/account", guard: "user", Page: lazy(() => import("./account_page.tsx")) },
    {
      path: "/admin",
      guard: "admin",
      Page: lazy(() => import("./admin_page.tsx")),
      nav: { label: "Admin", order: 40, visible: (p) => p.isAdmin },
    },
    {
      path: "/admin/manage/users",
      guard: "admin",
      Page: lazy(() => import("./users_page.tsx")),
    },
    {
      path: "/admin/manage/users/edit/:userId",
      guard: "admin",
      Page: lazy(() => import("./user_edit_page.tsx")),
    },
  ],
};
