import { useAtom, useAtomValue, useSetAtom } from "jotai";
import { type ReactNode, useEffect } from "react";
import { Redirect, useLocation } from "wouter";
import { checkSession } from "../api/auth.ts";
import { currentUserAtom, guardMessage, loginNoticeAtom, permissionsOf } from "../state/session.ts";
import { Loading } from "./loading.tsx";

/**
 * Lets children render only for a logged-in user. The check runs on every navigation; the
 * spinner shows only until the first answer, later checks run behind the current page.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  const [user, setUser] = useAtom(currentUserAtom);
  const setNotice = useSetAtom(loginNoticeAtom);

  useEffect(() => {
    let current = true;
    checkSession().then((result) => {
      if (!current) return;
      if (result.allowed) {
        setUser(result.user);
        return;
      }
      setUser(null);
      setNotice(guardMessage(result.status));
      navigate("/", { replace: true });
    });
    return () => {
      current = false;
    };
  }, [location]);

  return user ? children : <Loading label="Checking your session" />;
}

/** Sends users without the Admin role to /home (part 1, section 2). */
export function AdminGuard({ children }: { children: ReactNode }) {
  const { isAdmin } = permissionsOf(useAtomValue(currentUserAtom));
  return isAdmin ? children : <Redirect to="/home" replace />;
}
