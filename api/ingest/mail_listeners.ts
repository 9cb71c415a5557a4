/**
 * The mailbox listeners of one process (docs/mail_ingestion.md, "Listening"): every
 * `JOBS_TICK_SECONDS` the process takes or renews the listener lease of each pollable mailbox
 * (one listener per mailbox across processes), starts listeners for the mailboxes it holds, and
 * stops those whose source was deactivated, deleted or changed (a changed one starts again with
 * the new details). New mail makes the listener run the normal poll (`pollMailbox`, under its
 * mailbox lease, so exactly-once claiming is unchanged), then the import runs it queued.
 */
import type { Config } from "../config.ts";
import type { Deps } from "../deps.ts";
import type { BackgroundService, RunningService } from "../jobs/handlers.ts";
import { releaseJobs } from "../jobs/queue.ts";
import { runDueJobs, workerName } from "../jobs/runner.ts";
import { writeLog } from "../http/log.ts";
import { loadMailAccount, pollableSourceDigests } from "../mail/accounts.ts";
import { registeredFeeds } from "./feeds.ts";
import { IMPORT_RUN_JOB } from "./import_runs.ts";
import { listenMailbox, sleep } from "./mail_listener.ts";
import {
  acquireListenerLeases,
  releaseListenerLeases,
  setListenerMode,
} from "./listener_leases.ts";
import { pollMailbox } from "./mailbox_poll.ts";

/** While another process polls the mailbox, the listener's poll is tried again this often. */
const BUSY_RETRY_MS = 1000;

/**
 * The listener lease: three reconciles, at least 30 s. A process that dies leaves its mailboxes
 * unlistened (but polled) for at most this long.
 *
 * @example
 * ```ts
 * import { listenerLeaseSeconds } from "./mail_listeners.ts";
 * console.assert(listenerLeaseSeconds({ JOBS_TICK_SECONDS: 5 }) === 30);
 * ```
 */
export function listenerLeaseSeconds(config: Pick<Config, "JOBS_TICK_SECONDS">): number {
  return Math.max(30, config.JOBS_TICK_SECONDS * 3);
}

interface Listener {
  id: number;
  digest: string;
  abort: AbortController;
  done: Promise<void>;
  pending: boolean;
  draining: Promise<void> | null;
}

/** Options of {@link startMailListeners}. */
export interface ListenerOptions {
  /** This process's name in the leases (default: a fresh worker name). */
  owner?: string;
  log?: (line: string) => void;
}

/**
 * Starts the listeners of this process (nothing when `MAIL_IDLE` is false).
 *
 * @example
 * ```ts ignore
 * const listeners = startMailListeners(deps);
 * await listeners.stop(); // closes every session and gives the leases back
 * ```
 */
export function startMailListeners(deps: Deps, options: ListenerOptions = {}): RunningService & {
  /** Brings the listeners in line with the sources now (also done every JOBS_TICK_SECONDS). */
  reconcile(): Promise<void>;
  /** The ids of the mailboxes this process listens to. */
  listening(): number[];
} {
  const { db, config } = deps;
  const owner = options.owner ?? workerName();
  const log = options.log ?? ((line: string) => writeLog("warn", line));
  const listeners = new Map<number, Listener>();
  const stopping = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reconciling: Promise<void> | null = null;

  const followUps = () => [
    IMPORT_RUN_JOB,
    ...registeredFeeds().flatMap((feed) => feed.followUpJobKinds ?? []),
  ];

  async function drain(listener: Listener) {
    while (listener.pending && !listener.abort.signal.aborted) {
      listener.pending = false;
      const result = await pollMailbox(deps, listener.id, { log });
      if (!result.polled && !result.error) {
        // Another process is polling it: its search may have run before this message came.
        listener.pending = true;
        await sleep(BUSY_RETRY_MS, listener.abort.signal);
        continue;
      }
      if (result.runs > 0) {
        await runDueJobs(deps, { kinds: followUps(), worker: owner, log, signal: stopping.signal });
      }
    }
  }

  function trigger(listener: Listener) {
    listener.pending = true;
    listener.draining ??= drain(listener)
      .catch((error) => log(`E-mail source ${listener.id}: ${(error as Error).message}`))
      .finally(() => listener.draining = null);
  }

  function start(id: number, digest: string) {
    const abort = new AbortController();
    const listener: Listener = {
      id,
      digest,
      abort,
      pending: false,
      draining: null,
      done: Promise.resolve(),
    };
    listener.done = (async () => {
      const account = await loadMailAccount(db, deps.secrets, id);
      await listenMailbox(deps, account, {
        onNewMail: () => trigger(listener),
        onMode: (mode, error) => {
          setListenerMode(db, id, owner, mode, error).catch(() => {});
        },
        log,
      }, abort.signal);
    })().catch((error) => log(`E-mail source ${id}: listener ended: ${(error as Error).message}`))
      .finally(() => {
        // Ended without being stopped (the source could not be read): the next reconcile starts
        // it again.
        if (!abort.signal.aborted && listeners.get(id) === listener) listeners.delete(id);
      });
    listeners.set(id, listener);
  }

  async function stopOne(listener: Listener) {
    listeners.delete(listener.id);
    listener.abort.abort();
    await listener.done;
    await listener.draining;
  }

  async function reconcileNow() {
    const sources = await pollableSourceDigests(db);
    const wanted = new Map(sources.map((s) => [Number(s.id), s.digest]));
    const gone = [...listeners.values()].filter((l) => wanted.get(l.id) !== l.digest);
    await Promise.all(gone.map(stopOne));
    const released = gone.map((l) => l.id).filter((id) => !wanted.has(id));
    if (released.length) await releaseListenerLeases(db, owner, released);
    if (stopping.signal.aborted) return;
    const held = await acquireListenerLeases(
      db,
      [...wanted.keys()],
      owner,
      listenerLeaseSeconds(config),
    );
    for (const listener of [...listeners.values()]) {
      if (!held.has(listener.id)) await stopOne(listener); // lost to another process
    }
    for (const id of held) {
      if (!listeners.has(id) && !stopping.signal.aborted) start(id, wanted.get(id)!);
    }
  }

  function reconcile(): Promise<void> {
    reconciling ??= reconcileNow()
      .catch((error) => log(`Mailbox listeners: ${(error as Error).message}`))
      .finally(() => reconciling = null);
    return reconciling;
  }

  function loop() {
    if (stopping.signal.aborted) return;
    reconcile().finally(() => {
      if (!stopping.signal.aborted) timer = setTimeout(loop, config.JOBS_TICK_SECONDS * 1000);
    });
  }

  if (config.MAIL_IDLE) loop();

  return {
    reconcile,
    listening: () => [...listeners.keys()],
    async stop() {
      if (stopping.signal.aborted) return;
      stopping.abort();
      clearTimeout(timer);
      await reconciling;
      const all = Promise.all([...listeners.values()].map(stopOne));
      // A listener's import run in hand finishes within the grace, else goes back to the queue.
      let timeout: ReturnType<typeof setTimeout> | undefined;
      const finished = await Promise.race([
        all.then(() => true),
        new Promise<false>((resolve) =>
          timeout = setTimeout(() => resolve(false), config.SHUTDOWN_GRACE_SECONDS * 1000)
        ),
      ]);
      clearTimeout(timeout);
      if (!finished) await releaseJobs(db, owner).catch(() => {});
      await releaseListenerLeases(db, owner).catch(() => {});
    },
  };
}

/** The listeners as a background service of the processes that run jobs. */
export const mailListenerService: BackgroundService = (deps) => startMailListeners(deps);
