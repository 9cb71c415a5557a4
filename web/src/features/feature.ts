/**
 * What a feature area gives the app shell (docs/conventions.md, "Adding a feature area: web"):
 * its routes, each with its guard and, where it has one, its menu entry and sources-hub card.
 * `features/index.ts` joins every area's list into the route table, the guards, the menu and
 * the hub.
 */
import type { ComponentType, LazyExoticComponent } from "react";
import type { Permissions } from "../state/session.ts";

/** Who may open a route: anyone, a logged-in user, or an admin (part 1, section 2). */
export type Guard = "public" | "user" | "admin";

/** A link of the navigation bar; `order` places it among the other areas' links. */
export interface NavEntry {
  label: string;
  order: number;
  visible(permissions: Permissions): boolean;
}

/** A card of the sources hub (/sources); `order` places it among the other cards. */
export interface HubCardEntry {
  title: string;
  description: string;
  order: number;
  visible(permissions: Permissions): boolean;
}

/**
 * Who may use an area's page beyond being logged in (part 2 section 6). Others see the page's
 * "not part of your account" text instead of an empty list.
 */
export interface AreaAccess {
  allowed(permissions: Permissions): boolean;
  /** The area in words, as "Your account does not include …" ends: "inventory sources". */
  area: string;
  /** The user flags that open it, as the user edit page labels them ("Inventory User"). */
  flags: string;
}

/** One page of an area. Pages are lazy, so each is its own chunk. */
export interface FeatureRoute {
  path: string;
  Page: LazyExoticComponent<ComponentType>;
  guard: Guard;
  /** Needed beyond the guard; without it the page says so in words. */
  access?: AreaAccess;
  /** Shown in the navigation bar, linking to `path`. */
  nav?: NavEntry;
  /** Shown as a card of the sources hub, linking to `path`. */
  hubCard?: HubCardEntry;
}

/** A feature area of the web app: one folder under web/src/features/. */
export interface Feature {
  name: string;
  routes: readonly FeatureRoute[];
}

/** A menu link as the navigation bar shows it. */
export interface NavItem {
  label: string;
  href: string;
}

/** A hub card as the sources hub shows it. */
export interface HubCard {
  title: string;
  description: string;
  href: string;
}
