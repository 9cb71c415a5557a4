/** The order submission pages' route entries, spread into the app's guarded route table. */
import { lazy } from "react";

/** Sources list and edit, vendor list and edit (spec part 2, section 2). */
export const ORDER_SUBMISSION_ROUTES = [
  {
    path: "/order-submission/sources",
    Page: lazy(() => import("./source_list_page.tsx")),
  },
  {
    path: "/order-submission/sources/edit/:sourceId",
    Page: lazy(() => import("./source_edit_page.tsx")),
  },
  {
    path: "/order-submission/vendor",
    Page: lazy(() => import("./vendor_list_page.tsx")),
  },
  {
    path: "/order-submission/vendor/edit/:vendorId",
    Page: lazy(() => import("./vendor_edit_page.tsx")),
  },
  // "0 (or missing) creates"
  {
    path: "/order-submission/vendor/edit",
    Page: lazy(() => import("./vendor_edit_page.tsx")),
  },
] as const;
