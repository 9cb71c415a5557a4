/**
 * Leases of the mailbox listeners (`mailbox_listeners`): with several processes on one database,
 * each mailbox has one IDLE listener. A process renews the leases of the mailboxes it listens to
 * at every reconcile and takes over a mailbox whose lease has run out (its process died).
 */
import type { Db } from "../db/client.ts";

/** What a listener is doing, as the source page shows it. */
export type ListenerMode = "connecting" | "idle" | "no-idle" | "down";

/**
 * Takes or renews the listener leases of `ids` for `owner`; returns the ids it holds now (the
 * others are held by live listeners of other processes).
 */
export async function acquireListenerLeases(
  db: Db,
  ids: number[],
  owner: string,
  seconds: number,
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.query<{ id: number }>(
    `insert into mailbox_listeners (email_source_id, owner, lease_until)
     select id, $2, now() + make_interval(secs => $3) from unnest($1::int[]) as id
     on conflict (email_source_id) do update
       set owner = excluded.owner, lease_until = excluded.lease_until,
           mode = case when mailbox_listeners.owner = excluded.owner then mailbox_listeners.mode
                       when mailbox_listeners.mode = 'no-idle' then 'no-idle'
                       else 'connecting' end,
           mode_since = case when mailbox_listeners.owner = excluded.owner
                             then mailbox_listeners.mode_since else now() end
       where mailbox_listeners.owner = excluded.owner or mailbox_listeners.lease_until < now()
     returning email_source_id as id`,
    [ids, owner, seconds],
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/** Records what the listener of `emailSourceId` does (only while `owner` holds its lease). */
export async function setListenerMode(
  db: Db,
  emailSourceId: number,
  owner: string,
  mode: ListenerMode,
  error: string | null = null,
): Promise<void> {
  await db.query(
    `update mailbox_listeners
        set mode = $3, last_error = $4,
            mode_since = case when mode = $3 then mode_since else now() end
      where email_source_id = $1 and owner = $2`,
    [emailSourceId, owner, mode, error?.slice(0, 2000) ?? null],
  );
}

/**
 * Gives leases back at once (a stopping process, a deactivated source), so another process takes
 * the mailbox at its next reconcile. What is known about the server (no IDLE) is kept.
 */
export async function releaseListenerLeases(db: Db, owner: string, ids?: number[]): Promise<void> {
  await db.query(
    `update mailbox_listeners
        set lease_until = now() - interval '1 second',
            mode = case when mode = 'no-idle' then mode else 'down' end, mode_since = now()
      where owner = $1 and ($2::int[] is null or email_source_id = any($2::int[]))`,
    [owner, ids ?? null],
  );
}
