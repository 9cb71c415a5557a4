/** Calls of the /api/accounts contract and the home stats call (spec part 1, section 7). */
import type {
  OrderTrackingSettings,
  UserAccount,
  UserInfo,
} from "../../../shared/contract/accounts.ts";
import type { EnabledColumns } from "../../../shared/contract/order_columns.ts";
import type { UpdateStatsRow } from "../../../shared/contract/home_stats.ts";
import { apiFetch, isSuccess, postJson, readErrorMessage, readJson } from "./http.ts";

export type { OrderTrackingSettings, UpdateStatsRow, UserAccount, UserInfo };

/** A call that did not answer 200/204: its status and the server's message. */
export class RequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function failure(response: Response): Promise<RequestError> {
  const message = (await readErrorMessage(response)) ?? `Request failed (${response.status}).`;
  return new RequestError(response.status, message);
}

/** GETs JSON, throwing a {@link RequestError} on any status but 200/204. */
async function getJson<T>(path: string): Promise<T> {
  const response = await apiFetch(path);
  if (!isSuccess(response)) throw await failure(response);
  return (await readJson<T>(response)) as T;
}

/** POSTs JSON and reads the answer, throwing a {@link RequestError} on any status but 200/204. */
async function postForJson<T>(path: string, body?: unknown): Promise<T> {
  const response = await postJson(path, body);
  if (!isSuccess(response)) throw await failure(response);
  return (await readJson<T>(response)) as T;
}

/** GET /api/order-tracking/list/update-stats */
export function fetchUpdateStats(): Promise<UpdateStatsRow[]> {
  return getJson("/api/order-tracking/list/update-stats");
}

/** GET /api/accounts/user-info/{username} */
export function fetchUserInfo(username: string): Promise<UserInfo> {
  return getJson(`/api/accounts/user-info/${encodeURIComponent(username)}`);
}

/** GET /api/accounts/order-tracking-settings?userId= */
export function fetchSettings(userId: number): Promise<OrderTrackingSettings> {
  return getJson(`/api/accounts/order-tracking-settings?userId=${userId}`);
}

/** POST /api/accounts/update/order-tracking-settings; the answer holds the stored columns. */
export function saveSettings(settings: {
  id: number;
  userId: number;
  enabledColumns: EnabledColumns;
}): Promise<OrderTrackingSettings> {
  return postForJson("/api/accounts/update/order-tracking-settings", settings);
}

/** POST /api/accounts/update/user-info with the contract's keys. */
export function updateUserInfo(
  userId: number,
  fields: { email: string; firstName: string; lastName: string },
): Promise<UserInfo> {
  return postForJson("/api/accounts/update/user-info", {
    UserID: userId,
    Email: fields.email,
    FirstName: fields.firstName,
    LastName: fields.lastName,
  });
}

/** POST /api/accounts/update/username; the caller reads the status (200/204 is success). */
export function updateUsername(
  userId: number,
  oldUsername: string,
  newUsername: string,
): Promise<Response> {
  return postJson("/api/accounts/update/username", {
    UserID: userId,
    OldUsername: oldUsername,
    NewUsername: newUsername,
  });
}

/** POST /api/accounts/update/password; the caller reads the status (200/204 is success). */
export function updatePassword(
  request: { userId: number; username: string; oldPassword: string; newPassword: string },
): Promise<Response> {
  return postJson("/api/accounts/update/password", {
    UserID: request.userId,
    Username: request.username,
    OldPassword: request.oldPassword,
    NewPassword: request.newPassword,
  });
}

/** GET /api/accounts/count */
export function fetchUserCount(): Promise<number> {
  return getJson("/api/accounts/count");
}

/** GET /api/accounts/list */
export function fetchUsers(): Promise<UserAccount[]> {
  return getJson("/api/accounts/list");
}

/** GET /api/accounts/user/{userId} */
export function fetchUser(userId: number): Promise<UserAccount> {
  return getJson(`/api/accounts/user/${userId}`);
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
  return postForJson("/api/accounts/update/user", user);
}

/** POST /api/accounts/delete/{userId} */
export async function deleteUser(userId: number): Promise<void> {
  const response = await postJson(`/api/accounts/delete/${userId}`);
  if (!isSuccess(response)) throw await failure(response);
}
