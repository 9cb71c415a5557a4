/**
 * Ending what lets a user in (docs/auth.md): a password change or reset, an admin's password
 * reset and a deactivation end the user's sessions and revoke their access tokens together, so
 * no path can forget one of them (issue 28: tokens outlived resets and came back on
 * reactivation).
 */
import type { Db } from "../db/client.ts";
import { revokeUserAccessTokens } from "./access_tokens.ts";
import { revokeUserSessions } from "./sessions.ts";

/**
 * Ends every session of the user except `keepSessionId` (the caller's own browser session, when
 * they changed their own password) and revokes all their access tokens.
 */
export async function endUserAccess(
  db: Db,
  userId: number,
  reason: string,
  keepSessionId?: string,
): Promise<void> {
  await revokeUserSessions(db, userId, reason, keepSessionId);
  await revokeUserAccessTokens(db, userId, reason);
}
