/** Calls of the /api/accounts contract (spec part 1, section 7). */
import type {
  AccessToken,
  ConfigWarnings,
  CreatedAccessToken,
  OrderTrackingSettings,
  UserAccount,
  UserInfo,
} from "../../../../shared/contract/accounts.ts";
import type { EnabledColumns } from "../../../../shared/contract/order_columns.ts";
import { call } from "../../api/call.ts";
import { api } from "../../api/client.ts";

export type { AccessToken, CreatedAccessToken, OrderTrackingSettings, UserAccount, UserInfo };

const accounts = api.api.accounts;

/** GET /api/accounts/user-info/{username} */
export function fetchUserInfo(username: string, signal?: AbortSignal): Promise<UserInfo> {
  return call(
    accounts["user-info"][":username"].$get({ param: { username } }, { init: { signal } }),
  );
}

/** GET /api/accounts/order-tracking-settings?userId= */
export function fetchSettings(
  userId: number,
  signal?: AbortSignal,
): Promise<OrderTrackingSettings> {
  return call(
    accounts["order-tracking-settings"].$get({ query: { userId: String(userId) } }, {
      init: { signal },
    }),
  );
}

/** POST /api/accounts/update/order-tracking-settings; the answer holds the stored columns. */
export function saveSettings(
  settings: { id: number; userId: number; enabledColumns: EnabledColumns },
): Promise<OrderTrackingSettings> {
  return call(accounts.update["order-tracking-settings"].$post({ json: settings }));
}

/** POST /api/accounts/update/user-info; answers the saved e-mail and names. */
export function updateUserInfo(
  userId: number,
  fields: { email: string; firstName: string; lastName: string },
): Promise<UserInfo> {
  return call(accounts.update["user-info"].$post({ json: { userId, ...fields } }));
}

/** POST /api/accounts/update/username */
export async function updateUsername(
  userId: number,
  oldUsername: string,
  newUsername: string,
): Promise<void> {
  await call(accounts.update.username.$post({ json: { userId, oldUsername, newUsername } }));
}

/** POST /api/accounts/update/password */
export async function updatePassword(
  request: { userId: number; username: string; oldPassword: string; newPassword: string },
): Promise<void> {
  await call(accounts.update.password.$post({ json: request }));
}

/** GET /api/accounts/count */
export function fetchUserCount(signal?: AbortSignal): Promise<number> {
  return call(accounts.count.$get(undefined, { init: { signal } }));
}

/** GET /api/accounts/list */
export function fetchUsers(signal?: AbortSignal): Promise<UserAccount[]> {
  return call(accounts.list.$get(undefined, { init: { signal } }));
}

/** GET /api/accounts/user/{userId} */
export function fetchUser(userId: number, signal?: AbortSignal): Promise<UserAccount> {
  return call(accounts.user[":id"].$get({ param: { id: String(userId) } }, { init: { signal } }));
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
  return call(accounts.update.user.$post({ json: user }));
}

/** POST /api/accounts/delete/{userId} */
export async function deleteUser(userId: number): Promise<void> {
  await call(accounts.delete[":id"].$post({ param: { id: String(userId) } }));
}

/** GET /api/accounts/tokens: the signed-in user's personal access tokens. */
export function fetchAccessTokens(signal?: AbortSignal): Promise<AccessToken[]> {
  return call(accounts.tokens.$get(undefined, { init: { signal } }));
}

/** POST /api/accounts/tokens: a new token; the answer is the only time it is readable. */
export function createAccessToken(name: string): Promise<CreatedAccessToken> {
  return call(accounts.tokens.$post({ json: { name } }));
}

/** DELETE /api/accounts/tokens/{id} */
export async function revokeAccessToken(id: number): Promise<void> {
  await call(accounts.tokens[":id"].$delete({ param: { id: String(id) } }));
}

/** GET /api/accounts/config-warnings (Admin): what the server's configuration leaves out. */
export function fetchConfigWarnings(signal?: AbortSignal): Promise<ConfigWarnings> {
  return call(accounts["config-warnings"].$get(undefined, { init: { signal } }));
}
