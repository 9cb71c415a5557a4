/** Bookkeeping of one mailbox: the poll lease, UIDVALIDITY and highest UID, the last outcome. */
import type { Db } from "../db/client.ts";

/** What a poll needs to know where it left off. */
export interface MailboxPosition {
  uidvalidity: bigint | null;
  highestUid: number;
}

/**
 * Takes the poll lease of a mailbox for `owner`; false while another process holds an unexpired
 * one. A process that died loses its lease when it runs out.
 */
export async function acquireMailboxLease(
  db: Db,
  emailSourceId: number,
  mailbox: string,
  owner: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db.query(
    `insert into mailbox_state (email_source_id, mailbox, lease_owner, lease_until)
     values ($1, $2, $3, now() + make_interval(secs => $4))
     on conflict (email_source_id, mailbox) do update
       set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
       where mailbox_state.lease_until is null or mailbox_state.lease_until < now()
          or mailbox_state.lease_owner = excluded.lease_owner
     returning 1`,
    [emailSourceId, mailbox, owner, seconds],
  );
  return rows.length > 0;
}

/** Gives the lease back (only when `owner` still holds it). */
export async function releaseMailboxLease(
  db: Db,
  emailSourceId: number,
  mailbox: string,
  owner: string,
): Promise<void> {
  await db.query(
    `update mailbox_state set lease_owner = null, lease_until = null
      where email_source_id = $1 and mailbox = $2 and lease_owner = $3`,
    [emailSourceId, mailbox, owner],
  );
}

/** Where the last poll left off. */
export async function mailboxPosition(
  db: Db,
  emailSourceId: number,
  mailbox: string,
): Promise<MailboxPosition> {
  const [row] = await db.query<{ uidvalidity: number | string | null; highestUid: number }>(
    `select uidvalidity::text as uidvalidity, highest_uid as "highestUid"
       from mailbox_state where email_source_id = $1 and mailbox = $2`,
    [emailSourceId, mailbox],
  );
  return {
    uidvalidity: row?.uidvalidity == null ? null : BigInt(row.uidvalidity),
    highestUid: row?.highestUid ?? 0,
  };
}

/** Starts over under a new UIDVALIDITY (first contact, or the mailbox was recreated). */
export async function resetPosition(
  db: Db,
  emailSourceId: number,
  mailbox: string,
  uidvalidity: bigint,
  highestUid: number,
): Promise<void> {
  await db.query(
    `update mailbox_state set uidvalidity = $3::bigint, highest_uid = $4
      where email_source_id = $1 and mailbox = $2`,
    [emailSourceId, mailbox, uidvalidity.toString(), highestUid],
  );
}

/** Moves the highest claimed UID forward (inside the claim's transaction). */
export async function advancePosition(
  db: Db,
  emailSourceId: number,
  mailbox: string,
  uidvalidity: bigint,
  uid: number,
): Promise<void> {
  await db.query(
    `update mailbox_state set highest_uid = greatest(highest_uid, $4)
      where email_source_id = $1 and mailbox = $2 and uidvalidity = $3::bigint`,
    [emailSourceId, mailbox, uidvalidity.toString(), uid],
  );
}

/**
 * Records the outcome of a poll: success clears the error and the failure count; failure keeps
 * the last success and counts one more failure in a row.
 */
export async function recordPollOutcome(
  db: Db,
  emailSourceId: number,
  mailbox: string,
  error: string | null,
): Promise<void> {
  await db.query(
    `insert into mailbox_state (email_source_id, mailbox) values ($1, $2)
     on conflict do nothing`,
    [emailSourceId, mailbox],
  );
  await db.query(
    error === null
      ? `update mailbox_state set last_poll_at = now(), last_success_at = now(), last_error = null,
           last_error_at = null, consecutive_failures = 0
          where email_source_id = $1 and mailbox = $2`
      : `update mailbox_state set last_poll_at = now(), last_error = $3, last_error_at = now(),
           consecutive_failures = consecutive_failures + 1
          where email_source_id = $1 and mailbox = $2`,
    error === null ? [emailSourceId, mailbox] : [emailSourceId, mailbox, error],
  );
}
