import { lazy } from "react";
import type { AreaAccess, Feature } from "../feature.ts";

/** Who may use the inventory pages (part 2 section 6). */
const INVENTORY_ACCESS: AreaAccess = {
  allowed: (p) => p.inventoryUser,
  area: "inventory sources",
  flags: "Inventory User",
};

/** Inventory sources (spec part 2, section 2). */
export const inventory: Feature = {
  name: "inventory",
  routes: [
    {
      path: "/inventory-sources",
      guard: "user",
      access: INVENTORY_ACCESS,
      Page: lazy(() => import("./source_list_page.tsx")),
      hubCard: {
        title: "Inventory Sources",
        description: "Supplier inventory feeds by e-mail or SFTP, and manual file processing.",
        order: 30,
        visible: (p) => p.inventoryUser,
      },
    },
    {
      path: "/inventory-sources/edit/:sourceId",
      guard: "user",
      access: INVENTORY_ACCESS,
      Page: lazy(() => import("./source_edit_page.tsx")),
    },
    {
      path: "/inventory-sources/manually-process/:id",
      guard: "user",
      access: INVENTORY_ACCESS,
      Page: lazy(() => import("./manual_process_page.tsx")),
    },
    {
      path: "/inventory-sources/:sourceId/items",
      guard: "user",
      access: INVENTORY_ACCESS,
      Page: lazy(() => import("./items_page.tsx")),
    },
    {
      path: "/inventory-sources/:sourceId/items/:item",
      guard: "user",
      access: INVENTORY_ACCESS,
      Page: lazy(() => import("./item_page.tsx")),
    },
  ],
};
