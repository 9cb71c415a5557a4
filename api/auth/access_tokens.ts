/**
 * Personal access tokens (docs/auth.md, "Personal access tokens"): long-lived bearer tokens for
 * the CLI and CI. The database keeps the SHA-256 of the token only; a token acts with its user's
 * flags as they are at each request and stops working when the user is deactivated or deleted.
 */
import type { Db } from "../db/client.ts";
import { ACCESS_TOKEN_PREFIX, type AccessToken } from "../../shared/contract/accounts.ts";
import type { SessionUser } from "./sessions.ts";
import { hashToken, randomToken } from "./tokens.ts";

/** Characters of the token kept in clear to tell tokens apart (prefix plus four). */
const HINT_LENGTH = ACCESS_TOKEN_PREFIX.length + 4;
/** `last_used_at` is written at most this often per token (one write per request is waste). */
const LAST_USED_GRANULARITY_SECONDS = 60;

const COLUMNS = `id, name, token_hint as hint,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "createdAt",
  to_char(last_used_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "lastUsedAt"`;

/** True when a bearer value looks like one of our tokens (cheap test before hashing). */
export const isAccessToken = (value: string): boolean =>
  value.startsWith(ACCESS_TOKEN_PREFIX) && value.length > HINT_LENGTH;

/** Creates a token for a user; the answer carries the token, which is never readable again. */
export async function createAccessToken(
  db: Db,
  userId: number,
  name: string,
): Promise<AccessToken & { token: string }> {
  const token = ACCESS_TOKEN_PREFIX + randomToken();
  const [row] = await db.query<AccessToken>(
    `insert into access_tokens (user_id, name, token_hash, token_hint) values ($1, $2, $3, $4)
     returning ${COLUMNS}`,
    [userId, name, hashToken(token), token.slice(0, HINT_LENGTH)],
  );
  return { ...row, token };
}

/** The user's tokens that are not revoked, newest first. */
export async function listAccessTokens(db: Db, userId: number): Promise<AccessToken[]> {
  return await db.query<AccessToken>(
    `select ${COLUMNS} from access_tokens where user_id = $1 and revoked_at is null
      order by created_at desc, id desc`,
    [userId],
  );
}

/** Revokes one of the user's tokens; false when the user has no such live token. */
export async function revokeAccessToken(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(
    `update access_tokens set revoked_at = now(), revoked_reason = 'revoked by its user'
      where id = $1 and user_id = $2 and revoked_at is null returning id`,
    [id, userId],
  );
  return rows.length > 0;
}

/**
 * Revokes every live token of a user (with their sessions: `endUserAccess` in user_access.ts).
 * Revoked stays revoked: reactivating the user brings none back.
 */
export async function revokeUserAccessTokens(
  db: Db,
  userId: number,
  reason: string,
): Promise<void> {
  await db.query(
    `update access_tokens set revoked_at = now(), revoked_reason = $2
      where user_id = $1 and revoked_at is null`,
    [userId, reason],
  );
}

/** The id of the live token with this value (for `cli logout`, which revokes its own token). */
export async function accessTokenId(db: Db, token: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(
    "select id from access_tokens where token_hash = $1 and revoked_at is null",
    [hashToken(token)],
  );
  return row?.id ?? null;
}

/**
 * The active user behind a live token, with the flags they have now, or null. Records the use.
 * `sessionId` is `token:<id>`: code that keeps "the caller's own session" keeps no browser session.
 */
export async function userForBearerToken(db: Db, token: string): Promise<SessionUser | null> {
  if (!isAccessToken(token)) return null;
  const [row] = await db.query<SessionUser & { tokenId: number; stale: boolean }>(
    `select t.id as "tokenId", 'token:' || t.id as "sessionId", u.id as "userId", u.username,
            u.is_admin as "isAdmin", u.inventory_user as "inventoryUser",
            u.order_user as "orderUser", u.submission_user as "submissionUser",
            (t.last_used_at is null
               or t.last_used_at < now() - make_interval(secs => $2)) as stale
       from access_tokens t join users u on u.id = t.user_id
      where t.token_hash = $1 and t.revoked_at is null and u.active_status`,
    [hashToken(token), LAST_USED_GRANULARITY_SECONDS],
    { prepare: true },
  );
  if (!row) return null;
  if (row.stale) {
    await db.query("update access_tokens set last_used_at = now() where id = $1", [row.tokenId]);
  }
  const { tokenId: _id, stale: _stale, ...user } = row;
  return user;
}
