import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The run history of every area the user has (docs/runs.md), in the navigation bar. */
export const runs: Feature = {
  name: "runs",
  routes: [
    {
      path: "/runs",
      guard: "user",
      Page: lazy(() => import("./runs_page.tsx")),
      access: {
        allowed: (p) => p.anySourceUser || p.isAdmin,
        area: "runs",
        flags: "Order User, Inventory User or Submission User",
      },
      nav: { label: "Runs", order: 35, visible: (p) => p.anySourceUser || p.isAdmin },
    },
    {
      path: "/runs/:runId",
      guard: "user",
      Page: lazy(() => import("./run_page.tsx")),
      access: {
        allowed: (p) => p.anySourceUser || p.isAdmin,
        area: "runs",
        flags: "Order User, Inventory User or Submission User",
      },
    },
  ],
};
