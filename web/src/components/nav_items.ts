/** One entry of the navigation bar; the entries come from the feature list (features/index.ts). */
export interface NavItem {
  label: string;
  href: string;
}

/** True when `location` is the item's page or one below it, for aria-current. */
export function isCurrent(item: NavItem, location: string): boolean {
  return location === item.href || location.startsWith(item.href + "/");
}
