/**
 * Password reset by e-mail: a random token, stored hashed, single use, valid 30 minutes.
 *
 * The request only enqueues a job (the same work for known and unknown names, so the answer's
 * timing tells nothing); the job looks the user up, makes the token and sends the mail.
 */
import type { Db } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import type { JobHandler } from "../jobs/handlers.ts";
import { enqueueJob } from "../jobs/queue.ts";
import { invalid } from "../db/errors.ts";
import { hashPassword } from "./password.ts";
import { endUserAccess } from "./user_access.ts";
import { hashToken, randomToken } from "./tokens.ts";
import { appLink } from "../../shared/app_link.ts";

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
    [hashToken(token), user.id, RESET_TOKEN_MINUTES],
  );
  return { token, email: user.email, username: user.username };
}

/**
 * Sets a new password with a reset token: the token is spent, the user's other reset tokens are
 * dropped, every session of the user ends and their access tokens are revoked.
 */
export async function completeReset(db: Db, token: string, newPassword: string): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ userId: number }>(
      `update password_reset_tokens set used_at = now()
        where token_hash = $1 and used_at is null and expires_at > now()
        returning user_id as "userId"`,
      [hashToken(token)],
    );
    if (!row) throw invalid("This reset link is invalid or has expired. Request a new one.");
    await tx.query("update users set password_hash = $2 where id = $1", [row.userId, passwordHash]);
    await tx.query("delete from password_reset_tokens where user_id = $1 and used_at is null", [
      row.userId,
    ]);
    await endUserAccess(tx, row.userId, "password reset");
  });
}

/** Job kind of a password-reset mail. */
export const PASSWORD_RESET_JOB = "password-reset-mail";

/**
 * Enqueues the reset mail for `username`, whoever that is: the caller answers the same at once.
 * The request gives the job nothing but the name: the link is built from `PUBLIC_URL` alone when
 * the mail is made, never from the request's Host (docs/auth.md, "Mailed links"). While one
 * request for a name waits, more requests for it add nothing.
 */
export async function requestPasswordReset(db: Db, username: string): Promise<void> {
  await enqueueJob(db, {
    kind: PASSWORD_RESET_JOB,
    payload: { username },
    dedupeKey: `${PASSWORD_RESET_JOB}:${username.toLowerCase()}`,
    maxAttempts: 3,
  });
}

/** The text of the reset mail. */
export function resetMailText(username: string, link: string): string {
  return `Hello ${username},\n\nSomeone asked to reset your password. Open this link within ` +
    `${RESET_TOKEN_MINUTES} minutes to choose a new one:\n\n${link}\n\nIf it was not you, ` +
    `ignore this e-mail; your password stays as it is.\n`;
}

/** The text of the reset mail of a server that knows no public address: no link, whom to ask. */
export function resetMailTextWithoutLink(username: string): string {
  return `Hello ${username},\n\nSomeone asked to reset your password. This server cannot send ` +
    `reset links because its web address is not configured, so please ask your administrator ` +
    `to reset your password for you.\n\nIf it was not you, ignore this e-mail; your password ` +
    `stays as it is.\n`;
}

/**
 * Runs one reset job: a token and a mail for a known active user with an address, else nothing.
 * Without `PUBLIC_URL` the mail carries no link and the token is spent at once (it still counts
 * towards `MAX_RESETS_PER_WINDOW`, so the no-link mail cannot be used to flood a mailbox).
 */
export async function sendResetMail(
  deps: Pick<Deps, "db" | "mailer" | "config">,
  payload: { username: string },
): Promise<void> {
  const reset = await createResetToken(deps.db, payload.username);
  if (!reset) return;
  const tokenHash = hashToken(reset.token);
  const base = deps.config.PUBLIC_URL;
  if (!base) {
    await deps.db.query("update password_reset_tokens set used_at = now() where token_hash = $1", [
      tokenHash,
    ]);
  }
  const text = base
    ? resetMailText(
      reset.username,
      appLink(base, `/reset-password?token=${encodeURIComponent(reset.token)}`),
    )
    : resetMailTextWithoutLink(reset.username);
  try {
    await deps.mailer.send({ to: reset.email, subject: "Password reset", text });
  } catch (error) {
    // A token whose mail never left is useless; the retry makes a new one.
    await deps.db.query("delete from password_reset_tokens where token_hash = $1", [tokenHash]);
    throw new Error(
      `password reset mail for user ${reset.username} failed: ${(error as Error).message}`,
    );
  }
}

/**
 * The job handler of `PASSWORD_RESET_JOB`, registered by the accounts feature. A job queued by an
 * older version may carry a `linkBase` taken from its request: it is ignored.
 */
export const passwordResetJob: JobHandler = {
  async run(deps, job) {
    await sendResetMail(deps, { username: String(job.payload.username) });
  },
};
