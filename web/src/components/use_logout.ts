import { useSetAtom } from "jotai";
import { useLocation } from "wouter";
import { logout } from "../api/auth.ts";
import { currentUserAtom, loginNoticeAtom } from "../state/session.ts";

/** Returns a function that logs out and lands on the login page, even if the server fails. */
export function useLogout(): () => Promise<void> {
  const [, navigate] = useLocation();
  const setUser = useSetAtom(currentUserAtom);
  const setNotice = useSetAtom(loginNoticeAtom);
  return async () => {
    await logout();
    setUser(null);
    setNotice(null);
    navigate("/", { replace: true });
  };
}
