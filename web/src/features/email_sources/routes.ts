import { lazy } from "react";
import type { Feature } from "../feature.ts";

/** Mailboxes: list, edit, test e-mail, "Check now". */
export const emailSources: Feature = {
  name: "email_sources",
  routes: [
    {
      path: "/email-sources",
      guard: "user",
      Page: lazy(() => import("./source_list_page.tsx")),
      hubCard: {
        title: "Email Sources",
        description: "Mailboxes the system reads files from and sends e-mail with.",
        order: 10,
        visible: (p) => p.anySourceUser,
      },
    },
    {
      path: "/email-sources/edit/:sourceId",
      guard: "user",
      Page: lazy(() => import("./source_edit_page.tsx")),
    },
  ],
};
