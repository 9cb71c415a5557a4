import type { Permissions } from "../../state/session.ts";

/** One card of the sources hub. */
export interface HubCard {
  title: string;
  description: string;
  href: string;
  visible: (permissions: Permissions) => boolean;
}

/** The six hub cards and who sees them (part 2, section 6). */
export const HUB_CARDS: readonly HubCard[] = [
  {
    title: "Email Sources",
    description: "Mailboxes the system reads files from and sends e-mail with.",
    href: "/email-sources",
    visible: (p) => p.anySourceUser,
  },
  {
    title: "Order Tracking Sources",
    description: "Which e-mails and files update order tracking, and how their columns map.",
    href: "/order-tracking-sources",
    visible: (p) => p.orderUser,
  },
  {
    title: "Inventory Sources",
    description: "Supplier inventory feeds by e-mail or SFTP, and manual file processing.",
    href: "/inventory-sources",
    visible: (p) => p.inventoryUser,
  },
  {
    title: "Order Submission Sources",
    description: "Incoming order files to be split and submitted to vendors.",
    href: "/order-submission/sources",
    visible: (p) => p.submissionUser,
  },
  {
    title: "Submission Vendor Sources",
    description: "Per-vendor submission settings, templates and field mapping.",
    href: "/order-submission/vendor",
    visible: (p) => p.submissionUser,
  },
  {
    title: "Notification Settings",
    description: "Scheduled summary e-mails about sources.",
    href: "/notification-settings",
    visible: (p) => p.isAdmin || p.anySourceUser,
  },
];

/** The cards a user with these permissions sees, in hub order. */
export function hubCardsFor(permissions: Permissions): HubCard[] {
  return HUB_CARDS.filter((card) => card.visible(permissions));
}
