import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** Login and password reset: the two pages open to everyone. */
export const auth: Feature = {
  name: "auth",
  routes: [
    { path: "/", guard: "public", Page: lazy(() => import("./login_page.tsx")) },
    {
      path: "/reset-password",
      guard: "public",
      Page: lazy(() => import("./reset_password_page.tsx")),
    },
  ],
};
