/** Calls of the /api/accounts contract and the home stats call (spec part 1, section 7). */
import type {
  AccessToken,
  CreatedAccessToken,
  OrderTrackingSettings,
  UserAccount,
  UserInfo,
} from "../../../shared/contract/accounts.ts";
import type { EnabledColumns } from "../../../shared/contract/order_columns.ts";
import type { UpdateStatsRow } from "../../../shared/contract/home_stats.ts";
import type { ClientResponse } from "hono/client";
import { api } from "./client.ts";
import { isSuccess, readErrorMessage, readJson, type ResponseLike } from "./http.ts";

export type {
  AccessToken,
  CreatedAccessToken,
  OrderTrackingSettings,
  UpdateStatsRow,
  UserAccount,
  UserInfo,
};

const accounts = api.api.accounts;

/** A call that did not answer 200/204: its status and the server's message. */
export class RequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * Waits for a call and reads its JSON answer; any status but 200/204 throws a
 * {@link RequestError} carrying the server's message.
 */
// deno-lint-ignore no-explicit-any
async function answer<T>(call: Promise<ClientResponse<T, any, any>>): Promise<T> {
  const response = await call;
  if (!isSuccess(response)) {
    const message = (await readErrorMessage(response)) ?? `Request failed (${response.status}).`;
    throw new RequestError(response.status, message);
  }
  return (await readJson<T>(response)) as T;
}

/** GET /api/order-tracking/list/update-stats */
export function fetchUpdateStats(): Promise<UpdateStatsRow[]> {
  return answer(api.api["order-tracking"].list["update-stats"].$get());
}

/** GET /api/accounts/user-info/{username} */
export function fetchUserInfo(username: string): Promise<UserInfo> {
  return answer(accounts["user-info"][":username"].$get({ param: { username } }));
}

/** GET /api/accounts/order-tracking-settings?userId= */
export function fetchSettings(userId: number): Promise<OrderTrackingSettings> {
  return answer(
    accounts["order-tracking-settings"].$get({ query: { userId: String(userId) } }),
  );
}

/** POST /api/accounts/update/order-tracking-settings; the answer holds the stored columns. */
export function saveSettings(
  settings: { id: number; userId: number; enabledColumns: EnabledColumns },
): Promise<OrderTrackingSettings> {
  return answer(accounts.update["order-tracking-settings"].$post({ json: settings }));
}

/** POST /api/accounts/update/user-info; answers the saved e-mail and names. */
export function updateUserInfo(
  userId: number,
  fields: { email: string; firstName: string; lastName: string },
): Promise<UserInfo> {
  return answer(accounts.update["user-info"].$post({ json: { userId, ...fields } }));
}

/** POST /api/accounts/update/username; the caller reads the status (200/204 is success). */
export function updateUsername(
  userId: number,
  oldUsername: string,
  newUsername: string,
): Promise<ResponseLike> {
  return accounts.update.username.$post({ json: { userId, oldUsername, newUsername } });
}

/** POST /api/accounts/update/password; the caller reads the status (200/204 is success). */
export function updatePassword(
  request: { userId: number; username: string; oldPassword: string; newPassword: string },
): Promise<ResponseLike> {
  return accounts.update.password.$post({ json: request });
}

/** GET /api/accounts/count */
export function fetchUserCount(): Promise<number> {
  return answer(accounts.count.$get());
}

/** GET /api/accounts/list */
export function fetchUsers(): Promise<UserAccount[]> {
  return answer(accounts.list.$get());
}

/** GET /api/accounts/user/{userId} */
export function fetchUser(userId: number): Promise<UserAccount> {
  return answer(accounts.user[":id"].$get({ param: { id: String(userId) } }));
}

/** The user form as sent: userId 0 creates; a blank password keeps (or leaves unset) the old one. */
export interface SaveUser {
  userId: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  isAdmin: boolean;
  inventoryUser: boolean;
  orderUser: boolean;
  submissionUser: boolean;
  sendNotificationsToEmail: boolean;
  activeStatus: boolean;
}

/** POST /api/accounts/update/user; answers the saved user. */
export function saveUser(user: SaveUser): Promise<UserAccount> {
  return answer(accounts.update.user.$post({ json: user }));
}

/** POST /api/accounts/delete/{userId} */
export async function deleteUser(userId: number): Promise<void> {
  await answer(accounts.delete[":id"].$post({ param: { id: String(userId) } }));
}

/** GET /api/accounts/tokens: the signed-in user's personal access tokens. */
export function fetchAccessTokens(): Promise<AccessToken[]> {
  return answer(accounts.tokens.$get());
}

/** POST /api/accounts/tokens: a new token; the answer is the only time it is readable. */
export function createAccessToken(name: string): Promise<CreatedAccessToken> {
  return answer(accounts.tokens.$post({ json: { name } }));
}

/** DELETE /api/accounts/tokens/{id} */
export async function revokeAccessToken(id: number): Promise<void> {
  await answer(accounts.tokens[":id"].$delete({ param: { id: String(id) } }));
}
