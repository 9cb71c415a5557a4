import { lazy } from "react";
import type { AreaAccess, Feature } from "../feature.ts";

/** Who may use the e-mail source pages (part 2 section 6). */
const EMAIL_ACCESS: AreaAccess = {
  allowed: (p) => p.anySourceUser,
  area: "e-mail sources",
  flags: "Inventory User, Order User or Submission User",
};

/** Mailboxes: list, edit, test e-mail, "Check now". */
export const emailSources: Feature = {
  name: "email_sources",
  routes: [
    {
      path: "/email-sources",
      guard: "user",
      access: EMAIL_ACCESS,
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
      access: EMAIL_ACCESS,
      Page: lazy(() => import("./source_edit_page.tsx")),
    },
  ],
};
