import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The sources hub: one card per source area, gathered from the areas' `hubCard` entries. */
export const sources: Feature = {
  name: "sources",
  routes: [
    {
      path: "/sources",
      guard: "user",
      Page: lazy(() => import("./sources_hub_page.tsx")),
      nav: { label: "Sources", order: 30, visible: (p) => p.anySourceUser },
    },
  ],
};
