/**
 * The one list of the web app's feature areas. The route table (app.tsx), the guards, the
 * navigation bar and the sources hub are all derived from it: a new area is a folder with a
 * `routes.ts` plus one line here (docs/conventions.md, "Adding a feature area: web").
 */
import type { Permissions } from "../state/session.ts";
import { accounts } from "./accounts/routes.ts";
import { activity } from "./activity/routes.ts";
import { auth } from "./auth/routes.ts";
import { emailSources } from "./email_sources/routes.ts";
import type { Feature, FeatureRoute, HubCard, NavItem } from "./feature.ts";
import { home } from "./home/routes.ts";
import { importRuns } from "./import_runs/routes.ts";
import { inventory } from "./inventory/routes.ts";
import { notifications } from "./notifications/routes.ts";
import { orderSubmission } from "./order_submission/routes.ts";
import { orderTracking } from "./order_tracking/routes.ts";
import { runs } from "./runs/routes.ts";
import { sources } from "./sources/routes.ts";

/** Every feature area of the web app. */
export const FEATURES: readonly Feature[] = [
  auth,
  home,
  accounts,
  sources,
  emailSources,
  orderTracking,
  importRuns,
  inventory,
  orderSubmission,
  notifications,
  activity,
  runs,
];

const ALL_ROUTES: readonly FeatureRoute[] = FEATURES.flatMap((feature) => feature.routes);

/** Routes anyone may open (the login and reset pages). */
export const PUBLIC_ROUTES: readonly FeatureRoute[] = ALL_ROUTES.filter((route) =>
  route.guard === "public"
);

/** Routes that need a logged-in user (part 1 section 2, part 2 section 2); admin ones too. */
export const GUARDED_ROUTES: readonly FeatureRoute[] = ALL_ROUTES.filter((route) =>
  route.guard !== "public"
);

const byOrder = (a: { order: number }, b: { order: number }) => a.order - b.order;

/** The menu entries a user may see, in menu order (part 1, section 2, "Navigation bar"). */
export function navItemsFor(permissions: Permissions): NavItem[] {
  return ALL_ROUTES
    .flatMap((route) => route.nav ? [{ ...route.nav, href: route.path }] : [])
    .filter((entry) => entry.visible(permissions))
    .sort(byOrder)
    .map(({ label, href }) => ({ label, href }));
}

/** The sources-hub cards a user with these permissions sees, in hub order (part 2, section 6). */
export function hubCardsFor(permissions: Permissions): HubCard[] {
  return ALL_ROUTES
    .flatMap((route) => route.hubCard ? [{ ...route.hubCard, href: route.path }] : [])
    .filter((card) => card.visible(permissions))
    .sort(byOrder)
    .map(({ title, description, href }) => ({ title, description, href }));
}
