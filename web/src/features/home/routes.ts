import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** The home page with the order tracking update stats. */
export const home: Feature = {
  name: "home",
  routes: [
    {
      path: "/home",
      guard: "user",
      Page: lazy(() => import("./home_page.tsx")),
      nav: { label: "Home", order: 10, visible: () => true },
    },
  ],
};
