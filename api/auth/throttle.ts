/**
 * Login throttling, per account and per client address, counted in the database so that every
 * server process sees the same failures.
 */
import type { Db } from "../db/client.ts";

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

/** True when either the account or the address has failed too often within the window. */
export async function isThrottled(db: Db, account: string, address: string): Promise<boolean> {
  const [row] = await db.query<{ perAccount: number; perAddress: number }>(
    `select count(*) filter (where account = $1)::int as "perAccount",
            count(*) filter (where address = $2)::int as "perAddress"
       from login_failures
      where (account = $1 or address = $2) and at > now() - make_interval(secs => $3)`,
    [account.toLowerCase(), address, THROTTLE_WINDOW_SECONDS],
  );
  return row.perAccount >= MAX_FAILURES_PER_ACCOUNT || row.perAddress >= MAX_FAILURES_PER_ADDRESS;
}

/** Records one failed attempt and forgets those older than the window. */
export async function recordFailure(db: Db, account: string, address: string): Promise<void> {
  await db.query("insert into login_failures (account, address) values ($1, $2)", [
    account.toLowerCase(),
    address,
  ]);
  await db.query("delete from login_failures where at < now() - make_interval(secs => $1)", [
    THROTTLE_WINDOW_SECONDS,
  ]);
}

/** A successful login clears the account's failures. */
export async function clearFailures(db: Db, account: string): Promise<void> {
  await db.query("delete from login_failures where account = $1", [account.toLowerCase()]);
}
