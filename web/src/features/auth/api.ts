/** The login and password-reset calls of the /auth contract (spec part 1, section 7). */
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

/** POST /auth/login; throws ApiError on anything but 200/204. */
export async function login(username: string, password: string): Promise<void> {
  await call(api.auth.login.$post({ json: { username, password } }));
}

/** POST /auth/reset-password with the username as a bare JSON string, as the contract says. */
export async function requestPasswordReset(username: string): Promise<void> {
  await call(api.auth["reset-password"].$post({ json: username }));
}

/** POST /auth/reset-password/complete; 204 means the new password is set. */
export async function completePasswordReset(token: string, newPassword: string): Promise<void> {
  await call(api.auth["reset-password"].complete.$post({ json: { token, newPassword } }));
}
