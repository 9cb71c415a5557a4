/** Session state shared by the guard, the navigation bar and the login page. */
import { atom, createStore } from "jotai";
import type { CurrentUser } from "../api/auth.ts";
import { onSessionExpired } from "../api/http.ts";

/** The app's single jotai store, so non-React code (the HTTP layer) can reach the atoms. */
export const store = createStore();

/** The logged-in user with flags, or null until the guard has checked. */
export const currentUserAtom = atom<CurrentUser | null>(null);

/** A message for the login page, set by the guard when it sends the user there. */
export const loginNoticeAtom = atom<string | null>(null);

/** Guard messages by status (part 1, section 8). */
export function guardMessage(status: number): string {
  if (status === 401) return "Your session has expired. Please log in again.";
  if (status === 403) return "Access denied. Please log in with proper credentials.";
  return "Please log in to continue.";
}

/** Flags derived from the current user (part 1 section 6, part 2 section 6). */
export interface Permissions {
  isAdmin: boolean;
  orderUser: boolean;
  inventoryUser: boolean;
  submissionUser: boolean;
  /** Any of orderUser, inventoryUser, submissionUser. */
  anySourceUser: boolean;
}

/** Turns the server's "True"/"False" strings into booleans. */
export function permissionsOf(user: CurrentUser | null): Permissions {
  const orderUser = user?.orderUser === "True";
  const inventoryUser = user?.inventoryUser === "True";
  const submissionUser = user?.submissionUser === "True";
  return {
    isAdmin: user?.role === "Admin",
    orderUser,
    inventoryUser,
    submissionUser,
    anySourceUser: orderUser || inventoryUser || submissionUser,
  };
}

// A session that dies while the user works on a page ends on the login page; tell them why.
// On the login page itself a 401 is a failed login, which has its own message.
onSessionExpired(() => {
  store.set(currentUserAtom, null);
  if (location.pathname !== "/") store.set(loginNoticeAtom, guardMessage(401));
});
