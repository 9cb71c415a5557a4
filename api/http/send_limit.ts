/** The 429 of a send limit (docs/limits.md, "Sending"): checks and records one use. */
import type { Deps } from "../deps.ts";
import { admitSend, quotaOf, refusalText, type SendKind } from "../net/send_quota.ts";
import { tooManyRequests } from "./errors.ts";

/**
 * Takes one use of `kind` for the user `userId`, or throws 429 `{ message }` with `Retry-After`
 * naming the limit that was reached. Call it after the request is validated, before sending.
 *
 * @example
 * ```ts ignore
 * await requireSendAllowance(c.var.deps, "testEmail", c.var.user.userId);
 * ```
 */
export async function requireSendAllowance(
  deps: Pick<Deps, "config" | "db">,
  kind: SendKind,
  userId: number,
): Promise<void> {
  const quota = quotaOf(deps.config, kind);
  const admission = await admitSend(deps.db, quota, String(userId));
  if (admission.ok) return;
  throw tooManyRequests(
    refusalText(kind, quota, admission, "You have"),
    admission.retryAfterSeconds,
  );
}
