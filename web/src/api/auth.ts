/** The session calls of the /auth contract the app shell needs (spec part 1, section 7). */
import type { CurrentUser } from "../../../shared/contract/auth.ts";
import { ApiError, call } from "./call.ts";
import { api } from "./client.ts";
import { clearClientSession } from "./http.ts";

export type { CurrentUser };

/** Outcome of the route guard's session check. */
export type SessionCheck =
  | { allowed: true; user: CurrentUser }
  | { allowed: false; status: number };

/** Exact console text for a failed server logout (part 1, section 8). */
export const LOGOUT_FAILED_LOG = "Server logout failed, clearing client session anyway";

/**
 * GET /auth/allowed, then GET /auth/user for the flags. `status` is 0 when the network failed
 * or the answer was not a truthy body.
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    if (!(await call(api.auth.allowed.$get()))) return { allowed: false, status: 0 };
    const user = await call(api.auth.user.$get()) as CurrentUser | undefined;
    return user ? { allowed: true, user } : { allowed: false, status: 0 };
  } catch (error) {
    return { allowed: false, status: error instanceof ApiError ? error.status : 0 };
  }
}

/**
 * POST /auth/logout, then clears the client session whatever the server said: a user who
 * asks to leave must not stay logged in because the server was unreachable.
 */
export async function logout(): Promise<void> {
  try {
    await call(api.auth.logout.$post());
  } catch {
    console.warn(LOGOUT_FAILED_LOG);
  }
  clearClientSession();
}
