/** SQL of the /api/accounts calls. Every select names the contract's fields; no hash leaves here. */
import type { Db } from "../db/client.ts";
import type {
  OrderTrackingSettings,
  UserAccount,
  UserInfo,
} from "../../shared/contract/accounts.ts";
import {
  allColumnsEnabled,
  type EnabledColumns,
  ORDER_TRACKING_COLUMNS,
} from "../../shared/contract/order_columns.ts";

const INFO_COLUMNS = `id as "userId", username, email, first_name as "firstName",
  last_name as "lastName", last_login as "lastLogin", created_on as "createdOn"`;
const ACCOUNT_COLUMNS = `${INFO_COLUMNS}, is_admin as "isAdmin",
  inventory_user as "inventoryUser", order_user as "orderUser",
  submission_user as "submissionUser", send_notifications_to_email as "sendNotificationsToEmail",
  active_status as "activeStatus"`;

type DateLike = Date | string | null;

const iso = (value: DateLike) => (value === null ? null : new Date(value).toISOString());

function withIsoDates<T extends { lastLogin: DateLike; createdOn: DateLike }>(row: T) {
  return { ...row, lastLogin: iso(row.lastLogin), createdOn: iso(row.createdOn) };
}

/** The user-info record of a username (case-insensitive), or null. */
export async function userInfoByUsername(db: Db, username: string): Promise<UserInfo | null> {
  const [row] = await db.query<UserInfo>(
    `select ${INFO_COLUMNS} from users where lower(username) = lower($1)`,
    [username],
  );
  return row ? withIsoDates(row) : null;
}

/** The user-info record of an id, or null. */
export async function userInfoById(db: Db, userId: number): Promise<UserInfo | null> {
  const [row] = await db.query<UserInfo>(`select ${INFO_COLUMNS} from users where id = $1`, [
    userId,
  ]);
  return row ? withIsoDates(row) : null;
}

/** One user's account (flags included), or null. */
export async function accountById(db: Db, userId: number): Promise<UserAccount | null> {
  const [row] = await db.query<UserAccount>(`select ${ACCOUNT_COLUMNS} from users where id = $1`, [
    userId,
  ]);
  return row ? withIsoDates(row) : null;
}

/** Every user, oldest first. */
export async function listAccounts(db: Db): Promise<UserAccount[]> {
  const rows = await db.query<UserAccount>(`select ${ACCOUNT_COLUMNS} from users order by id`);
  return rows.map(withIsoDates);
}

/** How many users there are. */
export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.query<{ count: number }>("select count(*)::int8 as count from users");
  return row.count;
}

/** The id of the user holding `username` (any case), other than `exceptUserId`, or null. */
export async function usernameTakenBy(
  db: Db,
  username: string,
  exceptUserId = 0,
): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    "select id from users where lower(username) = lower($1) and id <> $2",
    [username, exceptUserId],
  );
  return row?.id ?? null;
}

/** Saves e-mail and names; returns the updated record, or null for an unknown id. */
export async function updateUserInfo(
  db: Db,
  userId: number,
  fields: { email: string; firstName: string; lastName: string },
): Promise<UserInfo | null> {
  const [row] = await db.query<UserInfo>(
    `update users set email = $2, first_name = $3, last_name = $4 where id = $1
     returning ${INFO_COLUMNS}`,
    [userId, fields.email, fields.firstName, fields.lastName],
  );
  return row ? withIsoDates(row) : null;
}

/** Renames a user. */
export async function updateUsername(db: Db, userId: number, username: string): Promise<void> {
  await db.query("update users set username = $2 where id = $1", [userId, username]);
}

/** The stored password hash of a user (null: none set yet), for verification only. */
export async function passwordHashOf(db: Db, userId: number): Promise<string | null> {
  const [row] = await db.query<{ hash: string | null }>(
    "select password_hash as hash from users where id = $1",
    [userId],
  );
  return row?.hash ?? null;
}

/** Replaces a user's password hash. */
export async function setPasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db.query("update users set password_hash = $2 where id = $1", [userId, hash]);
}

/** The fields the user form writes; flags left undefined keep their value (or the default). */
export interface UserWrite {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin?: boolean;
  inventoryUser?: boolean;
  orderUser?: boolean;
  submissionUser?: boolean;
  sendNotificationsToEmail?: boolean;
  activeStatus?: boolean;
  /** null keeps the old hash (or none, for a new user). */
  passwordHash: string | null;
}

const flagParams = (user: UserWrite) => [
  user.isAdmin ?? null,
  user.inventoryUser ?? null,
  user.orderUser ?? null,
  user.submissionUser ?? null,
  user.sendNotificationsToEmail ?? null,
  user.activeStatus ?? null,
];

/** Inserts a user; absent flags take the table's defaults (orderUser on, the rest off). */
export async function insertUser(db: Db, user: UserWrite): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into users (username, email, first_name, last_name, is_admin, inventory_user,
                        order_user, submission_user, send_notifications_to_email, active_status,
                        password_hash)
     values ($1, $2, $3, $4, coalesce($5, false), coalesce($6, false), coalesce($7, true),
             coalesce($8, false), coalesce($9, false), coalesce($10, false), $11)
     returning id`,
    [
      user.username,
      user.email,
      user.firstName,
      user.lastName,
      ...flagParams(user),
      user.passwordHash,
    ],
  );
  return row.id;
}

/** Updates a user; returns false for an unknown id. */
export async function updateUser(db: Db, userId: number, user: UserWrite): Promise<boolean> {
  const rows = await db.query(
    `update users set username = $2, email = $3, first_name = $4, last_name = $5,
            is_admin = coalesce($6, is_admin), inventory_user = coalesce($7, inventory_user),
            order_user = coalesce($8, order_user), submission_user = coalesce($9, submission_user),
            send_notifications_to_email = coalesce($10, send_notifications_to_email),
            active_status = coalesce($11, active_status),
            password_hash = coalesce($12, password_hash)
      where id = $1 returning id`,
    [
      userId,
      user.username,
      user.email,
      user.firstName,
      user.lastName,
      ...flagParams(user),
      user.passwordHash,
    ],
  );
  return rows.length > 0;
}

/** Deletes a user (sessions and settings go with it); returns false for an unknown id. */
export async function deleteUser(db: Db, userId: number): Promise<boolean> {
  const rows = await db.query("delete from users where id = $1 returning id", [userId]);
  return rows.length > 0;
}

/** Stored choices over the all-on default, so a column added later starts shown. */
function completeColumns(stored: Partial<Record<string, unknown>> | null): EnabledColumns {
  const columns = allColumnsEnabled();
  for (const name of ORDER_TRACKING_COLUMNS) {
    if (typeof stored?.[name] === "boolean") columns[name] = stored[name] as boolean;
  }
  return columns;
}

/** A user's view settings; id 0 and every column on when they never saved any. */
export async function settingsOf(db: Db, userId: number): Promise<OrderTrackingSettings> {
  const [row] = await db.query<{ id: number; enabledColumns: Record<string, unknown> }>(
    `select id, enabled_columns as "enabledColumns" from order_tracking_view_settings
      where user_id = $1`,
    [userId],
  );
  return { id: row?.id ?? 0, userId, enabledColumns: completeColumns(row?.enabledColumns ?? null) };
}

/** Merges `changes` into a user's stored settings (creating them) and returns the result. */
export async function saveSettings(
  db: Db,
  userId: number,
  changes: Partial<EnabledColumns>,
): Promise<OrderTrackingSettings> {
  const merged = { ...(await settingsOf(db, userId)).enabledColumns, ...changes };
  // Sent as text and cast: postgres.js would store a string parameter as a JSON string value.
  const [row] = await db.query<{ id: number }>(
    `insert into order_tracking_view_settings (user_id, enabled_columns) values ($1, $2::text::jsonb)
     on conflict (user_id) do update set enabled_columns = excluded.enabled_columns
     returning id`,
    [userId, JSON.stringify(merged)],
  );
  return { id: row.id, userId, enabledColumns: merged };
}
