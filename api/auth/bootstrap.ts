/** First start: the `admin` account. */
import type { Db } from "../db/client.ts";
import { argon2Hash } from "./argon2.ts";
import { randomToken } from "./tokens.ts";

/**
 * Creates `admin` (role Admin, every flag on, active) when no user exists yet. Its password is
 * `password`, else a random one returned so that the caller prints it once.
 */
export async function ensureFirstAdmin(
  db: Db,
  password: string | undefined,
): Promise<{ created: false } | { created: true; generatedPassword?: string }> {
  const [{ count }] = await db.query<{ count: number }>("select count(*)::int as count from users");
  if (count > 0) return { created: false };
  const chosen = password ?? randomToken().slice(0, 20);
  await db.query(
    `insert into users (username, password_hash, is_admin, inventory_user, order_user,
                        submission_user, send_notifications_to_email, active_status)
     values ('admin', $1, true, true, true, true, true, true)
     on conflict do nothing`,
    // Hashed here rather than in the password pool: once, at start, before any request; and a
    // CLI command that opens the database then exits without waiting for an idle worker.
    [await argon2Hash(chosen)],
  );
  return { created: true, ...(password ? {} : { generatedPassword: chosen }) };
}
