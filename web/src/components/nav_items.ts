import type { Permissions } from "../state/session.ts";

/** One entry of the navigation bar. */
export interface NavItem {
  label: string;
  href: string;
}

/** The menu entries a user may see (part 1, section 2, "Navigation bar"). */
export function navItemsFor(permissions: Permissions): NavItem[] {
  const items: NavItem[] = [{ label: "Home", href: "/home" }];
  if (permissions.orderUser) items.push({ label: "Order Tracking", href: "/order-tracking" });
  if (permissions.anySourceUser) items.push({ label: "Sources", href: "/sources" });
  if (permissions.isAdmin) items.push({ label: "Admin", href: "/admin" });
  return items;
}

/** True when `location` is the item's page or one below it, for aria-current. */
export function isCurrent(item: NavItem, location: string): boolean {
  return location === item.href || location.startsWith(item.href + "/");
}
