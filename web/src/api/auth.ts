/** Calls of the /auth contract (spec part 1, section 7). */
import type { CurrentUser } from "../../../shared/contract/auth.ts";
import { api } from "./client.ts";
import { clearClientSession, isSuccess, readJson } from "./http.ts";

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
    const allowed = await api.auth.allowed.$get();
    if (!allowed.ok) return { allowed: false, status: allowed.status };
    if (!(await readJson(allowed))) return { allowed: false, status: 0 };

    const userResponse = await api.auth.user.$get();
    if (!userResponse.ok) return { allowed: false, status: userResponse.status };
    const user = await readJson<CurrentUser>(userResponse);
    return user ? { allowed: true, user } : { allowed: false, status: 0 };
  } catch {
    return { allowed: false, status: 0 };
  }
}

/** POST /auth/login. The caller reads the status and the error message. */
export function login(username: string, password: string) {
  return api.auth.login.$post({ json: { username, password } });
}

/**
 * POST /auth/logout, then clears the client session whatever the server said: a user who
 * asks to leave must not stay logged in because the server was unreachable.
 */
export async function logout(): Promise<void> {
  try {
    const response = await api.auth.logout.$post();
    if (!isSuccess(response)) console.warn(LOGOUT_FAILED_LOG);
  } catch {
    console.warn(LOGOUT_FAILED_LOG);
  }
  clearClientSession();
}

/** POST /auth/reset-password with the username as a bare JSON string, as the contract says. */
export function requestPasswordReset(username: string) {
  return api.auth["reset-password"].$post({ json: username });
}

/** POST /auth/reset-password/complete; 204 means the new password is set. */
export function completePasswordReset(token: string, newPassword: string) {
  return api.auth["reset-password"].complete.$post({ json: { token, newPassword } });
}
