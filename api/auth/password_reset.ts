/**
 * Password reset by e-mail: a random token, stored hashed, single use, valid 30 minutes.
 */
import type { Db } from "../db/client.ts";
import { invalid } from "../db/errors.ts";
import { hashPassword } from "./password.ts";
import { revokeUserSessions } from "./sessions.ts";
import { hashToken, randomToken } from "./tokens.ts";

export const RESET_TOKEN_MINUTES = 30;
/** More requests than this within the validity window send nothing, so no mailbox is flooded. */
export const MAX_RESETS_PER_WINDOW = 3;

/**
 * Creates a reset token for an active user who has an e-mail address and has not asked too often.
 * Returns null otherwise, so that the caller answers the same either way.
 */
export async function createResetToken(
  db: Db,
  username: string,
): Promise<{ token: string; email: string; username: string } | null> {
  const [user] = await db.query<{ id: number; email: string; username: string }>(
    `select id, email, username from users
      where lower(username) = lower($1) and active_status and email <> ''`,
    [username.trim()],
  );
  if (!user) return null;
  const [{ recent }] = await db.query<{ recent: number }>(
    `select count(*)::int as recent from password_reset_tokens
      where user_id = $1 and created_at > now() - make_interval(mins => $2)`,
    [user.id, RESET_TOKEN_MINUTES],
  );
  if (recent >= MAX_RESETS_PER_WINDOW) return null;
  const token = randomToken();
  await db.query(
    `insert into password_reset_tokens (token_hash, user_id, expires_at)
     values ($1, $2, now() + make_interval(mins => $3))`,
    [await hashToken(token), user.id, RESET_TOKEN_MINUTES],
  );
  return { token, email: user.email, username: user.username };
}

/**
 * Sets a new password with a reset token: the token is spent, the user's other reset tokens are
 * dropped and every session of the user ends.
 */
export async function completeReset(db: Db, token: string, newPassword: string): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ userId: number }>(
      `update password_reset_tokens set used_at = now()
        where token_hash = $1 and used_at is null and expires_at > now()
        returning user_id as "userId"`,
      [await hashToken(token)],
    );
    if (!row) throw invalid("This reset link is invalid or has expired. Request a new one.");
    await tx.query("update users set password_hash = $2 where id = $1", [row.userId, passwordHash]);
    await tx.query("delete from password_reset_tokens where user_id = $1 and used_at is null", [
      row.userId,
    ]);
    await revokeUserSessions(tx, row.userId, "password reset");
  });
}
