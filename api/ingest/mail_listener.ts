/**
 * One mailbox's IMAP IDLE listener (docs/mail_ingestion.md, "Listening"): a session that only
 * EXAMINEs the INBOX and waits in IDLE; a new message (EXISTS) asks for the normal poll, which
 * claims it exactly once as before. A dropped session is opened again with exponential back-off;
 * a server without IDLE is reported and left to the periodic poll.
 */
import type { ImapFlow } from "imapflow";
import type { Deps } from "../deps.ts";
import { INBOX, type MailAccount } from "../mail/accounts.ts";
import { connectImap } from "./imap_connect.ts";
import type { ListenerMode } from "./listener_leases.ts";

/** IDLE is ended and started again this often: servers may drop a session idle for 30 min. */
export const MAX_IDLE_MS = 4 * 60_000;
/** A server without IDLE is asked again this much later (it may have been upgraded). */
export const NO_IDLE_RECHECK_MS = 60 * 60_000;
/** A session that lasted this long was healthy: the back-off starts over. */
const HEALTHY_MS = 60_000;

/**
 * Wait before reconnect attempt `failures` (1 = the first after a drop): 1 s doubling, at most
 * 5 minutes.
 *
 * @example
 * ```ts
 * import { reconnectDelayMs } from "./mail_listener.ts";
 * console.assert(reconnectDelayMs(1) === 1000 && reconnectDelayMs(20) === 300_000);
 * ```
 */
export function reconnectDelayMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 300_000);
}

/** What a listener tells its owner. */
export interface ListenerEvents {
  /** New mail may be there (EXISTS, or a (re)connect that may have missed some): poll now. */
  onNewMail(): void;
  onMode(mode: ListenerMode, error?: string | null): void;
  log?(line: string): void;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Listens to `account`'s INBOX until `signal` aborts: connects, waits in IDLE, reconnects after a
 * drop (1 s, 2 s, 4 s … 5 min). Never throws.
 *
 * @example
 * ```ts ignore
 * const stop = new AbortController();
 * listenMailbox(deps, account, { onNewMail: () => poll(), onMode: () => {} }, stop.signal);
 * ```
 */
export async function listenMailbox(
  deps: Deps,
  account: MailAccount,
  events: ListenerEvents,
  signal: AbortSignal,
): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    const started = Date.now();
    let error: string | null = null;
    try {
      events.onMode("connecting");
      if (await listenOnce(deps, account, events, signal) === "no-idle") {
        failures = 0;
        await sleep(NO_IDLE_RECHECK_MS, signal);
        continue;
      }
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    if (signal.aborted) break;
    failures = Date.now() - started > HEALTHY_MS ? 1 : failures + 1;
    const wait = reconnectDelayMs(failures);
    events.onMode("down", error);
    events.log?.(
      `E-mail source ${account.id}: listener disconnected${
        error ? ` (${error})` : ""
      }; reconnecting in ${wait / 1000} s.`,
    );
    await sleep(wait, signal);
  }
}

/** One session: "closed" when it ended (dropped, aborted), "no-idle" when IDLE is missing. */
async function listenOnce(
  deps: Deps,
  account: MailAccount,
  events: ListenerEvents,
  signal: AbortSignal,
): Promise<"closed" | "no-idle"> {
  const client: ImapFlow = await connectImap(deps.config, account, { maxIdleTime: MAX_IDLE_MS });
  const close = () => client.close();
  signal.addEventListener("abort", close, { once: true });
  try {
    if (!client.capabilities.has("IDLE")) {
      events.onMode("no-idle");
      return "no-idle";
    }
    // Read-only: the listener never changes flags; the poll's own session does the marking.
    await client.mailboxOpen(INBOX, { readOnly: true });
    client.on("exists", (info: { count: number; prevCount: number }) => {
      if (info.count > info.prevCount) events.onNewMail();
    });
    events.onMode("idle");
    // Whatever arrived while no listener was connected is picked up now, not at the next poll.
    events.onNewMail();
    while (!signal.aborted && client.usable) {
      const entered = Date.now();
      await client.idle();
      // idle() returns at once when the session is not in a selected state: do not spin.
      if (Date.now() - entered < 50) await sleep(1000, signal);
    }
    return "closed";
  } finally {
    signal.removeEventListener("abort", close);
    if (client.usable) await client.logout().catch(() => client.close());
    else client.close();
  }
}
