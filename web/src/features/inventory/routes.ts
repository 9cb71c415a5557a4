/** The inventory screens' entries of the route table (spec part 2, section 2). */
import { lazy } from "react";

export const INVENTORY_ROUTES = [
  {
    path: "/inventory-sources",
    Page: lazy(() => import("./source_list_page.tsx")),
  },
  {
    path: "/inventory-sources/edit/:sourceId",
    Page: lazy(() => import("./source_edit_page.tsx")),
  },
  {
    path: "/inventory-sources/manually-process/:id",
    Page: lazy(() => import("./manual_process_page.tsx")),
  },
] as const;
