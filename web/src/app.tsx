import {
  type ComponentType,
  lazy,
  type LazyExoticComponent,
  type ReactNode,
  Suspense,
} from "react";
import { Route, Switch, useLocation } from "wouter";
import { ErrorBoundary } from "./components/error_boundary.tsx";
import { FallbackPage } from "./components/fallback_page.tsx";
import { Loading } from "./components/loading.tsx";
import { NavBar } from "./components/nav_bar.tsx";
import { AdminGuard, RouteGuard } from "./components/route_guard.tsx";
import { ORDER_SUBMISSION_ROUTES } from "./features/order_submission/routes.ts";
import { NOTIFICATION_ROUTES } from "./features/notifications/routes.ts";
import { INVENTORY_ROUTES } from "./features/inventory/routes.ts";

type Page = LazyExoticComponent<ComponentType>;

interface GuardedRoute {
  path: string;
  Page: Page;
  /** Under /admin: the Admin role is required too. */
  admin?: boolean;
}

// Every page is its own chunk, so the login page's first load carries none of the others.
const LoginPage = lazy(() => import("./routes/login/login_page.tsx"));
const ResetPasswordPage = lazy(() => import("./routes/reset_password/reset_password_page.tsx"));

/** Routes that need a logged-in user (part 1 section 2, part 2 section 2). */
export const GUARDED_ROUTES: readonly GuardedRoute[] = [
  { path: "/home", Page: lazy(() => import("./routes/home/home_page.tsx")) },
  { path: "/account", Page: lazy(() => import("./routes/account/account_page.tsx")) },
  { path: "/sources", Page: lazy(() => import("./routes/sources/sources_hub_page.tsx")) },
  { path: "/admin", admin: true, Page: lazy(() => import("./routes/admin/admin_page.tsx")) },
  {
    path: "/admin/manage/users",
    admin: true,
    Page: lazy(() => import("./routes/admin/users_page.tsx")),
  },
  {
    path: "/admin/manage/users/edit/:userId",
    admin: true,
    Page: lazy(() => import("./routes/admin/user_edit_page.tsx")),
  },
  {
    path: "/order-tracking",
    Page: lazy(() => import("./routes/order_tracking/order_list_page.tsx")),
  },
  {
    path: "/order-tracking/order/:orderId",
    Page: lazy(() => import("./routes/order_tracking/order_detail_page.tsx")),
  },
  {
    path: "/order-tracking-sources",
    Page: lazy(() => import("./routes/order_tracking_sources/source_list_page.tsx")),
  },
  {
    path: "/order-tracking-sources/edit/:sourceId",
    Page: lazy(() => import("./routes/order_tracking_sources/source_edit_page.tsx")),
  },
  {
    path: "/email-sources",
    Page: lazy(() => import("./routes/email_sources/source_list_page.tsx")),
  },
  {
    path: "/email-sources/edit/:sourceId",
    Page: lazy(() => import("./routes/email_sources/source_edit_page.tsx")),
  },
  {
    path: "/import-runs",
    Page: lazy(() => import("./routes/import_runs/import_runs_page.tsx")),
  },
  ...INVENTORY_ROUTES,
  ...ORDER_SUBMISSION_ROUTES,
  ...NOTIFICATION_ROUTES,
];

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
      <NavBar />
      <main>
        <PageFrame>
          <Switch>
            {GUARDED_ROUTES.map(({ path, Page, admin }) => (
              <Route key={path} path={path}>
                {admin
                  ? (
                    <AdminGuard>
                      <Page />
                    </AdminGuard>
                  )
                  : <Page />}
              </Route>
            ))}
            <Route>
              <FallbackPage />
            </Route>
          </Switch>
        </PageFrame>
      </main>
    </RouteGuard>
  );
}

/** The route table of the SPA; unknown paths end on the fallback page after the guard. */
export function App() {
  return (
    <PageFrame>
      <Switch>
        <Route path="/">
          <LoginPage />
        </Route>
        <Route path="/reset-password">
          <ResetPasswordPage />
        </Route>
        <Route>
          <GuardedShell />
        </Route>
      </Switch>
    </PageFrame>
  );
}
