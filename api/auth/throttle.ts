/**
 * Login throttling that does not hand out lockouts (docs/auth.md, "Throttling"). Counted in the
 * database so that every server process sees the same failures.
 *
 * - Per (account, client address): the first {@link FREE_FAILURES} failures cost nothing; after
 *   that every attempt from that address on that account waits a delay that doubles from one
 *   second up to {@link MAX_DELAY_SECONDS}. An attacker elsewhere never delays the owner.
 * - Per client address across accounts: {@link MAX_FAILURES_PER_ADDRESS} failures within
 *   {@link ADDRESS_WINDOW_SECONDS}; beyond that the address waits until old failures age out.
 *
 * An attempt is counted before the password is checked (and forgotten again on success), so
 * parallel guesses from one address cannot all slip in before the first failure is written.
 */
import type { Context } from "hono";
import type { Db } from "../db/client.ts";

/** Failures per (account, address) before delays start. */
export const FREE_FAILURES = 3;
/** The longest delay between two attempts of one (account, address). */
export const MAX_DELAY_SECONDS = 15 * 60;
/** A (account, address) pair quiet this long starts from zero again. */
export const PAIR_RESET_SECONDS = 24 * 60 * 60;
/** The window of the per-address budget. */
export const ADDRESS_WINDOW_SECONDS = 15 * 60;
/** Failures per address (any accounts) within the window. */
export const MAX_FAILURES_PER_ADDRESS = 30;

/** Outcome of asking to attempt: admitted, or wait this many seconds. */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Delay before the attempt after `failures` failures, in seconds (0 while free).
 *
 * @example
 * delayAfter(3); // 0
 * delayAfter(4); // 1
 * delayAfter(5); // 2
 * delayAfter(40); // 900
 */
export function delayAfter(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** Math.min(failures - FREE_FAILURES - 1, 30));
}

/** A stable key for a login name: NFKC, trimmed, lower case. */
export function accountKey(account: string): string {
  return account.normalize("NFKC").trim().toLowerCase();
}

/**
 * Asks to try a password for `account` from `address`. When admitted, the attempt is already
 * counted as a failure and the next attempt's delay is set; call {@link recordSuccess} or
 * {@link recordFailure} once the password has been checked.
 */
export async function admitAttempt(db: Db, account: string, address: string): Promise<Admission> {
  const key = accountKey(account);
  const [budget] = await db.query<{ wait: number | null }>(
    // The budget-th newest failure in the window: once it ages out, the address is under budget.
    `select extract(epoch from at + make_interval(secs => $2) - now())::float8 as wait
       from login_failures
      where address = $1 and at > now() - make_interval(secs => $2)
      order by at desc offset $3 limit 1`,
    [address, ADDRESS_WINDOW_SECONDS, MAX_FAILURES_PER_ADDRESS - 1],
  );
  if (budget?.wait != null) return { ok: false, retryAfterSeconds: Math.ceil(budget.wait) };

  // One statement, so two processes (or two parallel requests) cannot both be admitted past the
  // delay: the row is claimed only when it is not blocked, and the claim sets the next delay.
  const delay = (failures: string) =>
    `case when ${failures} > ${FREE_FAILURES}
       then now() + make_interval(secs => least(${MAX_DELAY_SECONDS},
                                              power(2, least(${failures} - ${FREE_FAILURES} - 1, 30))))
     end`;
  const fresh = `(t.last_attempt_at < now() - make_interval(secs => ${PAIR_RESET_SECONDS}))`;
  const next = `(case when ${fresh} then 1 else t.failures + 1 end)`;
  const claimed = await db.query<{ failures: number }>(
    `insert into login_throttle as t (account, address, failures, last_attempt_at, blocked_until)
     values ($1, $2, 1, now(), null)
     on conflict (account, address) do update
        set failures = ${next}, last_attempt_at = now(), blocked_until = ${delay(next)}
      where t.blocked_until is null or t.blocked_until <= now()
     returning failures`,
    [key, address],
  );
  if (claimed.length) return { ok: true };
  const [row] = await db.query<{ wait: number }>(
    `select greatest(1, extract(epoch from blocked_until - now()))::float8 as wait
       from login_throttle where account = $1 and address = $2`,
    [key, address],
  );
  return { ok: false, retryAfterSeconds: Math.ceil(row?.wait ?? 1) };
}

/** Records a failed check (for the per-address budget) and forgets stale rows. */
export async function recordFailure(db: Db, account: string, address: string): Promise<void> {
  await db.query("insert into login_failures (account, address) values ($1, $2)", [
    accountKey(account),
    address,
  ]);
  await db.query("delete from login_failures where at < now() - make_interval(secs => $1)", [
    ADDRESS_WINDOW_SECONDS,
  ]);
  await db.query(
    `delete from login_throttle
      where last_attempt_at < now() - make_interval(secs => $1)
        and (blocked_until is null or blocked_until < now())`,
    [PAIR_RESET_SECONDS],
  );
}

/**
 * A correct password clears this (account, address) pair, and its failures in the address
 * budget: the owner's typos do not count against their office. Other addresses keep their delays.
 */
export async function recordSuccess(db: Db, account: string, address: string): Promise<void> {
  const key = accountKey(account);
  await db.query("delete from login_throttle where account = $1 and address = $2", [key, address]);
  await db.query("delete from login_failures where account = $1 and address = $2", [key, address]);
}

/** The one message of a throttled attempt, whatever the account (no enumeration). */
export const THROTTLED = "Too many failed login attempts. Please wait a moment and try again.";

/** 429 with `Retry-After` (seconds) and the one throttling message. */
export function throttled(c: Context, retryAfterSeconds: number): Response {
  return c.json({ message: THROTTLED }, 429, { "Retry-After": String(retryAfterSeconds) });
}
