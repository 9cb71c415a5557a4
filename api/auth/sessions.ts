/**
 * Server-side sessions. A login opens a session (the refresh-token family); it hands out a
 * short-lived access token and a refresh token that is replaced on every use. A refresh token
 * used again after the grace window means it leaked: the whole session is revoked.
 */
import type { Db } from "../db/client.ts";
import { hashToken, randomToken } from "./tokens.ts";
import { rememberedUser } from "./session_cache.ts";
import type { SessionUser } from "../deps.ts";

export type { SessionUser };

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 14 * 24 * 60 * 60;
export const SESSION_MAX_SECONDS = 30 * 24 * 60 * 60;
/** Parallel refreshes (two tabs, several requests) may present the same token this long. */
export const REFRESH_GRACE_SECONDS = 10;

/** The two cookie values handed to the browser. */
export interface TokenPair {
  access: string;
  refresh: string;
}

async function issueTokens(db: Db, sessionId: string): Promise<TokenPair> {
  const pair = { access: randomToken(), refresh: randomToken() };
  await db.query(
    `insert into session_tokens (token_hash, session_id, kind, expires_at) values
       ($1, $3, 'access', now() + make_interval(secs => $4)),
       ($2, $3, 'refresh', now() + make_interval(secs => $5))`,
    [
      hashToken(pair.access),
      hashToken(pair.refresh),
      sessionId,
      ACCESS_TOKEN_SECONDS,
      REFRESH_TOKEN_SECONDS,
    ],
  );
  return pair;
}

/** Opens a session for a user who just proved their password. */
export async function openSession(
  db: Db,
  userId: number,
  client: { ip: string; userAgent: string },
): Promise<TokenPair> {
  return await db.transaction(async (tx) => {
    const id = randomToken();
    await tx.query(
      `insert into sessions (id, user_id, expires_at, ip, user_agent)
       values ($1, $2, now() + make_interval(secs => $3), $4, $5)`,
      [id, userId, SESSION_MAX_SECONDS, client.ip, client.userAgent.slice(0, 300)],
    );
    return await issueTokens(tx, id);
  });
}

/**
 * True when the session was opened (the password proven at login) within the last `minutes`.
 * Sessions are only opened by a login with the password; refreshes keep the opening time.
 */
export async function sessionProvedPasswordWithin(
  db: Db,
  sessionId: string,
  minutes: number,
): Promise<boolean> {
  const [row] = await db.query<{ recent: boolean }>(
    `select created_at > now() - make_interval(mins => $2) as recent
       from sessions where id = $1 and revoked_at is null`,
    [sessionId, minutes],
  );
  return row?.recent === true;
}

/**
 * Finds the active user behind an access token, or null when it is unknown, expired or revoked.
 * A process remembers the answer until the token expires or a user, session or token changes
 * (api/auth/session_cache.ts).
 */
export function userForAccessToken(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<SessionUser | null> {
  const tokenHash = hashToken(token);
  return rememberedUser(db, tokenHash, async () => {
    const [row] = await db.query<SessionUser & { secondsLeft: number }>(
      `select s.id as "sessionId", u.id as "userId", u.username, u.is_admin as "isAdmin",
              u.inventory_user as "inventoryUser", u.order_user as "orderUser",
              u.submission_user as "submissionUser",
              extract(epoch from least(t.expires_at, s.expires_at) - now())::float8 as "secondsLeft"
         from session_tokens t
         join sessions s on s.id = t.session_id
         join users u on u.id = s.user_id
        where t.token_hash = $1 and t.kind = 'access' and t.expires_at > now()
          and s.revoked_at is null and s.expires_at > now() and u.active_status`,
      [tokenHash],
      { prepare: true },
    );
    if (!row) return null;
    const { secondsLeft, ...user } = row;
    return { user, secondsLeft: Number(secondsLeft) };
  }, now);
}

/** Outcome of presenting a refresh token. */
export type RefreshResult =
  | { ok: true; tokens: TokenPair; username: string }
  | { ok: false; reason: "unknown" | "expired" | "reused" };

/**
 * Exchanges a refresh token for a new pair. The first use wins atomically; a repeat inside the
 * grace window gets a pair of its own; a repeat after it revokes the session.
 */
export async function refreshSession(db: Db, token: string): Promise<RefreshResult> {
  const tokenHash = hashToken(token);
  return await db.transaction(async (tx) => {
    const [row] = await tx.query<{
      sessionId: string;
      username: string;
      usable: boolean;
      usedSecondsAgo: number | null;
    }>(
      `select t.session_id as "sessionId", u.username,
              (t.expires_at > now() and s.revoked_at is null and s.expires_at > now()
                 and u.active_status) as usable,
              extract(epoch from now() - t.used_at)::float8 as "usedSecondsAgo"
         from session_tokens t
         join sessions s on s.id = t.session_id
         join users u on u.id = s.user_id
        where t.token_hash = $1 and t.kind = 'refresh'
        for update of t`,
      [tokenHash],
    );
    if (!row) return { ok: false, reason: "unknown" };
    if (!row.usable) return { ok: false, reason: "expired" };
    if (row.usedSecondsAgo !== null && row.usedSecondsAgo > REFRESH_GRACE_SECONDS) {
      await revokeSession(tx, row.sessionId, "refresh token reused");
      return { ok: false, reason: "reused" };
    }
    if (row.usedSecondsAgo === null) {
      await tx.query("update session_tokens set used_at = now() where token_hash = $1", [
        tokenHash,
      ]);
    }
    await tx.query(
      "delete from session_tokens where session_id = $1 and kind = 'access' and expires_at < now()",
      [row.sessionId],
    );
    return { ok: true, tokens: await issueTokens(tx, row.sessionId), username: row.username };
  });
}

/** Ends one session. */
export async function revokeSession(db: Db, sessionId: string, reason: string): Promise<void> {
  await db.query(
    "update sessions set revoked_at = now(), revoked_reason = $2 where id = $1 and revoked_at is null",
    [sessionId, reason],
  );
}

/** Ends every session of a user, except `keepSessionId` when given (the caller's own). */
export async function revokeUserSessions(
  db: Db,
  userId: number,
  reason: string,
  keepSessionId?: string,
): Promise<void> {
  await db.query(
    `update sessions set revoked_at = now(), revoked_reason = $2
      where user_id = $1 and revoked_at is null and id <> coalesce($3, '')`,
    [userId, reason, keepSessionId ?? null],
  );
}

/** The session a refresh token belongs to (for logout when the access token has expired). */
export async function sessionForRefreshToken(db: Db, token: string): Promise<string | null> {
  const [row] = await db.query<{ sessionId: string }>(
    `select session_id as "sessionId" from session_tokens where token_hash = $1 and kind = 'refresh'`,
    [hashToken(token)],
  );
  return row?.sessionId ?? null;
}

/**
 * The session an access token belongs to, expired or not (for logout with only the access
 * cookie: the session must end all the same).
 */
export async function sessionForAccessToken(db: Db, token: string): Promise<string | null> {
  const [row] = await db.query<{ sessionId: string }>(
    `select session_id as "sessionId" from session_tokens where token_hash = $1 and kind = 'access'`,
    [hashToken(token)],
  );
  return row?.sessionId ?? null;
}
