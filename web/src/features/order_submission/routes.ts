import { lazy } from "react";
import type { AreaAccess, Feature } from "../feature.ts";

/** Who may use the order submission pages (part 2 section 6). */
const SUBMISSION_ACCESS: AreaAccess = {
  allowed: (p) => p.submissionUser,
  area: "order submission",
  flags: "Submission User",
};

/** Order submission sources and vendors (spec part 2, section 2). */
export const orderSubmission: Feature = {
  name: "order_submission",
  routes: [
    {
      path: "/order-submission/sources",
      guard: "user",
      access: SUBMISSION_ACCESS,
      Page: lazy(() => import("./source_list_page.tsx")),
      hubCard: {
        title: "Order Submission Sources",
        description: "Incoming order files to be split and submitted to vendors.",
        order: 40,
        visible: (p) => p.submissionUser,
      },
    },
    {
      path: "/order-submission/sources/edit/:sourceId",
      guard: "user",
      access: SUBMISSION_ACCESS,
      Page: lazy(() => import("./source_edit_page.tsx")),
    },
    {
      path: "/order-submission/vendor",
      guard: "user",
      access: SUBMISSION_ACCESS,
      Page: lazy(() => import("./vendor_list_page.tsx")),
      hubCard: {
        title: "Submission Vendor Sources",
        description: "Per-vendor submission settings, templates and field mapping.",
        order: 50,
        visible: (p) => p.submissionUser,
      },
    },
    {
      path: "/order-submission/vendor/edit/:vendorId",
      guard: "user",
      access: SUBMISSION_ACCESS,
      Page: lazy(() => import("./vendor_edit_page.tsx")),
    },
    // "0 (or missing) creates"
    {
      path: "/order-submission/vendor/edit",
      guard: "user",
      access: SUBMISSION_ACCESS,
      Page: lazy(() => import("./vendor_edit_page.tsx")),
    },
  ],
};
