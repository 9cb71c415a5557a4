/**
 * The `Db` over PGlite running in a worker of its own (api/db/pglite_worker.ts; the design in
 * docs/architecture.md, "The embedded database"). PGlite has one connection, so statements take
 * turns here in arrival order, except that a statement of a request that has had a turn goes
 * before the first statements of requests that have not (api/db/work_unit.ts). A statement
 * outside a transaction waits for its turn, runs, and gives the turn back; a transaction keeps
 * the turn from `begin` to `commit`, and its statements carry its id so that only they reach the
 * worker meanwhile. The main thread only posts messages and awaits answers, so it answers
 * requests (`/health`, static files) while a statement runs.
 */
import { type Db, type QueryOptions, type Row, savepoint, type TransactionOptions } from "./db.ts";
import { errorFrom, type Reply, type Request } from "./pglite_protocol.ts";
import { currentWorkUnit } from "./work_unit.ts";

type Body = Request extends infer R ? R extends { id: number } ? Omit<R, "id"> : never : never;

/**
 * How long after a request's statement the connection counts as in use (`Db.othersActive`).
 * People act every few seconds: with one second, an import's transactions grew back towards
 * IMPORT_BATCH_MS in each longer pause between requests, and the request that ended the pause
 * waited for one (40–61 ms at 10 staff, docs/benchmarks.md "Load and soak", session 28).
 */
export const ACTIVE_MS = 10_000;
/** How long a background transaction lets a request's next statement go first. */
const BACKGROUND_GRACE_MS = 10;
/**
 * A background transaction waits for a quiet moment at most this long, or as long as the last
 * one held the connection when that is longer, then goes anyway: under constant load an import
 * still gets half of the connection with transactions of 100 ms or more, and about a tenth with
 * the 10 ms ones it makes while people work (IMPORT_BATCH_BUSY_MS).
 */
const BACKGROUND_MAX_WAIT_MS = 100;

/**
 * Whose turn it is on the one connection. Statements and transactions are served first come,
 * first served; background transactions (an import's batches) go only when no other statement
 * waits and none arrived for BACKGROUND_GRACE_MS (a request sends its statements one after
 * another, so without the grace a batch would slip in between each two of them), but after
 * BACKGROUND_MAX_WAIT_MS they go next in any case, so that an import progresses under any load.
 */
function turns(activeMs: number) {
  let busy = false;
  // When a statement nobody waits for holds the turn (then its end is not a request's pause).
  let holderBackground = false;
  let heldSince = 0;
  let lastBackgroundMs = 0;
  let lastForeground = 0;
  // When a request's statement last asked for the turn (statements of jobs do not count).
  let lastRequest = -Infinity;
  const overdue = (since: number) =>
    performance.now() - since >= Math.max(BACKGROUND_MAX_WAIT_MS, lastBackgroundMs);
  const waiting: Array<() => void> = [];
  // Statements of requests that already had a turn (api/db/work_unit.ts): they go first.
  const continuing: Array<() => void> = [];
  const waitingCount = () => waiting.length + continuing.length;
  const nextWaiting = () => continuing.shift() ?? waiting.shift();
  const background: Array<{ grant(): void; since: number }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const grantBackground = () => {
    timer = undefined;
    if (busy || !background.length) return;
    const first = background[0];
    const late = overdue(first.since);
    const quiet = performance.now() - lastForeground >= BACKGROUND_GRACE_MS;
    if (!late && (waitingCount() || !quiet)) {
      if (!waitingCount()) timer = setTimeout(grantBackground, BACKGROUND_GRACE_MS);
      return;
    }
    background.shift();
    busy = true;
    holderBackground = true;
    heldSince = performance.now();
    first.grant();
  };

  /** Waits in `queue` for the turn; leaves it and rejects when `signal` aborts first. */
  const queued = (queue: Array<() => void>, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const next = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        const at = queue.indexOf(next);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      queue.push(next);
      // The connection may be free while an overdue background transaction is about to go.
      if (!busy && !timer) timer = setTimeout(grantBackground, 0);
    });

  return {
    /** Waits for the turn; rejects when `signal` aborts first (the statement never starts). */
    async take(signal?: AbortSignal): Promise<void> {
      signal?.throwIfAborted();
      lastForeground = performance.now();
      const unit = currentWorkUnit();
      if (unit) lastRequest = lastForeground;
      if (!busy && !background.some((b) => overdue(b.since))) busy = true;
      else await queued(unit?.started ? continuing : waiting, signal);
      if (unit) unit.started = true;
    },
    /** Waits for the turn as a background transaction (see above). */
    async takeBackground(): Promise<void> {
      // Nobody used or wants the connection lately: go at once. An import's batches follow one
      // another with nothing in between, and each waiting for a timer cost them 10 ms apiece.
      if (
        !busy && !waitingCount() && !background.length &&
        performance.now() - lastForeground >= BACKGROUND_GRACE_MS
      ) {
        busy = true;
        holderBackground = true;
        heldSince = performance.now();
        return;
      }
      await new Promise<void>((resolve) => {
        background.push({ grant: resolve, since: performance.now() });
        if (!busy && !timer) timer = setTimeout(grantBackground, BACKGROUND_GRACE_MS);
      });
    },
    give(): void {
      busy = false;
      const afterBackground = holderBackground;
      // A request's next statement follows the end of its previous one within a few ms.
      if (holderBackground) lastBackgroundMs = performance.now() - heldSince;
      else lastForeground = performance.now();
      holderBackground = false;
      // An overdue background transaction goes before waiting statements, but never right after
      // another background one: with two imports (or a run and its job) taking turns, waiting
      // statements would otherwise never get one (a search waited 0.7–1.4 s).
      if (
        background.length && overdue(background[0].since) && !(afterBackground && waitingCount())
      ) {
        const first = background.shift()!;
        busy = true;
        holderBackground = true;
        heldSince = performance.now();
        first.grant();
        return;
      }
      const next = nextWaiting();
      if (next) {
        lastForeground = performance.now();
        busy = true;
        next();
        return;
      }
      if (background.length && !timer) timer = setTimeout(grantBackground, BACKGROUND_GRACE_MS);
    },
    /** True when a request's statement asked for the turn within `activeMs`, or one waits. */
    requestsActive(): boolean {
      return waitingCount() > 0 || performance.now() - lastRequest < activeMs;
    },
    /** Stops the grace timer (the database is closing). */
    stop(): void {
      clearTimeout(timer);
    },
  };
}

/**
 * Starts the worker and opens PGlite in `dataDir` inside it; `onClose` runs after the worker has
 * ended (the data directory's lock is released there).
 */
export async function openPgliteWorker(
  dataDir: string,
  onClose: () => Promise<void>,
  activeMs = ACTIVE_MS,
): Promise<Db> {
  const worker = new Worker(new URL("./pglite_worker.ts", import.meta.url), { type: "module" });
  const pending = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  let nextId = 0;
  let broken: Error | null = null;

  worker.onmessage = (event: MessageEvent<Reply>) => {
    const waiter = pending.get(event.data.id);
    pending.delete(event.data.id);
    waiter?.resolve(event.data);
  };
  worker.onerror = (event: ErrorEvent) => {
    // An error the worker did not catch (out of memory in WASM, say): nothing more can run.
    event.preventDefault();
    broken = new Error(`The embedded database stopped: ${event.message}`);
    for (const waiter of pending.values()) waiter.reject(broken);
    pending.clear();
  };

  const send = (body: Body): Promise<Reply> => {
    if (broken) return Promise.reject(broken);
    const id = ++nextId;
    // Where the statement was sent from: a failure's stack points at the query site.
    const origin = new Error();
    return new Promise<Reply>((resolve, reject) => {
      pending.set(id, {
        resolve: (reply) => reply.error ? reject(errorFrom(reply.error, origin)) : resolve(reply),
        reject,
      });
      worker.postMessage({ id, ...body });
    });
  };

  try {
    await send({ type: "open", dataDir });
  } catch (error) {
    worker.terminate();
    throw error;
  }

  const turn = turns(activeMs);
  let nextTx = 0;
  let closed = false;

  /** Statements of the transaction `tx` (null: each takes its own turn). */
  const handle = (tx: number | null, state = { done: false, savepoints: 0 }): Db => {
    const run = async (body: Body, signal?: AbortSignal): Promise<Reply> => {
      if (tx !== null) {
        if (state.done) throw new Error("Transaction is closed");
        signal?.throwIfAborted();
        return await send(body);
      }
      await turn.take(signal);
      try {
        // Aborted while it waited for its turn: it never starts.
        signal?.throwIfAborted();
        return await send(body);
      } finally {
        turn.give();
      }
    };
    return {
      kind: "pglite",
      async query<T = Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
        const reply = await run(
          { type: "query", sql, params, tx, prepare: options?.prepare },
          options?.signal,
        );
        return (reply.rows ?? []) as T[];
      },
      async exec(sql: string) {
        await run({ type: "exec", sql, tx });
      },
      async transaction<T>(fn: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T> {
        if (tx !== null) {
          const inner = handle(tx, state);
          return await savepoint(inner, `sp${++state.savepoints}`, fn);
        }
        if (options?.background) await turn.takeBackground();
        else await turn.take();
        const id = ++nextTx;
        const inner = { done: false, savepoints: 0 };
        try {
          await send({ type: "begin", tx: id });
          let result: T;
          try {
            result = await fn(handle(id, inner));
          } catch (error) {
            inner.done = true;
            await send({ type: "rollback", tx: id }).catch(() => {});
            throw error;
          }
          inner.done = true;
          await send({ type: "commit", tx: id });
          return result;
        } finally {
          turn.give();
        }
      },
      othersActive: () => turn.requestsActive(),
      async close() {
        if (closed) return;
        closed = true;
        turn.stop();
        try {
          // A worker that does not answer within 10 s is ended all the same.
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            send({ type: "close" }).catch(() => {}),
            new Promise((resolve) => timer = setTimeout(resolve, 10_000)),
          ]);
          clearTimeout(timer);
        } finally {
          worker.terminate();
          broken ??= new Error("The database is closed.");
          for (const waiter of pending.values()) waiter.reject(broken);
          pending.clear();
          await onClose();
        }
      },
    };
  };
  return handle(null);
}
