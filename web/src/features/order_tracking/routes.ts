import { lazy } from "react";
import type { AreaAccess, Feature } from "../feature.ts";

/** Who may use the order tracking pages (part 1 section 2, part 2 section 6). */
const ORDER_ACCESS: AreaAccess = {
  allowed: (p) => p.orderUser,
  area: "order tracking",
  flags: "Order User",
};

/** The order list and detail, and the order tracking sources. */
export const orderTracking: Feature = {
  name: "order_tracking",
  routes: [
    {
      path: "/order-tracking",
      guard: "user",
      access: ORDER_ACCESS,
      Page: lazy(() => import("./order_list_page.tsx")),
      nav: { label: "Order Tracking", order: 20, visible: (p) => p.orderUser },
    },
    {
      path: "/order-tracking/order/:orderId",
      guard: "user",
      access: ORDER_ACCESS,
      Page: lazy(() => import("./order_detail_page.tsx")),
    },
    {
      path: "/order-tracking-sources",
      guard: "user",
      access: ORDER_ACCESS,
      Page: lazy(() => import("./source_list_page.tsx")),
      hubCard: {
        title: "Order Tracking Sources",
        description: "Which e-mails and files update order tracking, and how their columns map.",
        order: 20,
        visible: (p) => p.orderUser,
      },
    },
    {
      path: "/order-tracking-sources/edit/:sourceId",
      guard: "user",
      access: ORDER_ACCESS,
      Page: lazy(() => import("./source_edit_page.tsx")),
    },
  ],
};
