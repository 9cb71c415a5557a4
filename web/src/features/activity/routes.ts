import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The activity log, under Admin (linked from the Admin Dashboard; docs/activity.md). */
export const activity: Feature = {
  name: "activity",
  routes: [
    {
      path: "/admin/activity",
      guard: "admin",
      Page: lazy(() => import("./activity_page.tsx")),
    },
  ],
};
