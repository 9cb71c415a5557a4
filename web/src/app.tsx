import { type ReactNode, Suspense } from "react";
import { Route, Switch, useLocation } from "wouter";
import { ErrorBoundary } from "./components/error_boundary.tsx";
import { FallbackPage } from "./components/fallback_page.tsx";
import { Loading } from "./components/loading.tsx";
import { NoAccessPage } from "./components/no_access_page.tsx";
import { NavBar } from "./components/nav_bar.tsx";
import { AdminGuard, RouteGuard } from "./components/route_guard.tsx";
import { useAtomValue } from "jotai";
import { currentUserAtom, permissionsOf } from "./state/session.ts";
import type { FeatureRoute } from "./features/feature.ts";
import { GUARDED_ROUTES, hubCardsFor, navItemsFor, PUBLIC_ROUTES } from "./features/index.ts";
import { HubCardsContext } from "./features/hub_cards.ts";

export { GUARDED_ROUTES } from "./features/index.ts";

/**
 * A route's page behind its guard: admin pages need the Admin role too; an area's page a user
 * lacks says so instead of showing an empty list.
 */
function GuardedPage({ route }: { route: FeatureRoute }) {
  const { Page } = route;
  const permissions = permissionsOf(useAtomValue(currentUserAtom));
  if (route.access && !route.access.allowed(permissions)) {
    return <NoAccessPage area={route.access.area} flags={route.access.flags} />;
  }
  return route.guard === "admin"
    ? (
      <AdminGuard>
        <Page />
      </AdminGuard>
    )
    : <Page />;
}

/** Catches render errors and waits for lazy pages; resets when the user navigates. */
function PageFrame({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ErrorBoundary resetKey={location}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

/** Everything but the login and reset pages: guard, navigation bar, then the page. */
function GuardedShell() {
  return (
    <RouteGuard>
      <NavBar itemsFor={navItemsFor} />
      <main>
        <PageFrame>
          <HubCardsContext.Provider value={hubCardsFor}>
            <Switch>
              {GUARDED_ROUTES.map((route) => (
                <Route key={route.path} path={route.path}>
                  <GuardedPage route={route} />
                </Route>
              ))}
              <Route>
                <FallbackPage />
              </Route>
            </Switch>
          </HubCardsContext.Provider>
        </PageFrame>
      </main>
    </RouteGuard>
  );
}

/**
 * The route table of the SPA, joined from the feature areas (features/index.ts); unknown paths
 * end on the fallback page after the guard.
 */
export function App() {
  return (
    <PageFrame>
      <Switch>
        {PUBLIC_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path}>
            <Page />
          </Route>
        ))}
        <Route>
          <GuardedShell />
        </Route>
      </Switch>
    </PageFrame>
  );
}
