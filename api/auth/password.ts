/**
 * Argon2id password hashing with the OWASP minimum (m=19456 KiB, t=2, p=1), in a bounded pool of
 * Web Workers (password_worker.ts): one hash takes tens of milliseconds of CPU, and fifty logins
 * at once on the event loop stalled every other request for seconds (issue 10, finding 5). Calls
 * beyond the pool's size wait in a queue; hashes keep the PHC string form, so old ones verify.
 */
import type { PasswordJob } from "./password_worker.ts";

/** Workers in the pool: leave a core to the event loop, at least one, at most four. */
export const POOL_SIZE = Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1));
/**
 * An idle pool stops its workers after this long: a live worker keeps a process from exiting, and
 * a quiet server need not hold their memory. The next check starts them again (a few ms).
 */
export const POOL_IDLE_MS = 10_000;

// Verified against when the account does not exist, so that an unknown username costs the same:
// the hash of a random password nobody kept, with the same parameters.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$Mv2o1Xr+DoLmStSIrJu+YQ$BPYCeT7P5Ck3QitHQgIM7WvUez4uWG5/V96t/I8JiF4";

type Outcome = { id: number; result?: string | boolean; error?: string };
type Task = {
  request: PasswordJob;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
};

interface PoolWorker {
  worker: Worker;
  busy: Task | null;
}

const workers: PoolWorker[] = [];
const queue: Task[] = [];
let nextId = 1;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function spawn(): PoolWorker {
  const entry: PoolWorker = {
    worker: new Worker(new URL("./password_worker.ts", import.meta.url), { type: "module" }),
    busy: null,
  };
  entry.worker.onmessage = (event: MessageEvent<Outcome>) => {
    const task = entry.busy;
    entry.busy = null;
    if (task) {
      if (event.data.error !== undefined) task.reject(new Error(event.data.error));
      else task.resolve(event.data.result!);
    }
    dispatch();
  };
  entry.worker.onerror = (event) => {
    event.preventDefault();
    const task = entry.busy;
    // A crashed worker is replaced; its task fails rather than hanging.
    workers.splice(workers.indexOf(entry), 1);
    entry.worker.terminate();
    task?.reject(new Error(`password worker failed: ${event.message}`));
    dispatch();
  };
  workers.push(entry);
  return entry;
}

function dispatch(): void {
  clearTimeout(idleTimer);
  idleTimer = undefined;
  while (queue.length) {
    const idle = workers.find((w) => !w.busy) ?? (workers.length < POOL_SIZE ? spawn() : null);
    if (!idle) return;
    const task = queue.shift()!;
    idle.busy = task;
    idle.worker.postMessage({ ...task.request, id: nextId++ });
  }
  if (workers.length && workers.every((w) => !w.busy)) {
    idleTimer = setTimeout(closePasswordPool, POOL_IDLE_MS);
    Deno.unrefTimer(idleTimer);
  }
}

function run(request: PasswordJob): Promise<string | boolean> {
  return new Promise((resolve, reject) => {
    queue.push({ request, resolve, reject });
    dispatch();
  });
}

/**
 * Stops the pool's workers (idle or not; their callers get an error). The next call starts new
 * ones. For the end of a process or a test.
 */
export function closePasswordPool(): void {
  clearTimeout(idleTimer);
  idleTimer = undefined;
  for (const entry of workers.splice(0)) {
    entry.worker.terminate();
    entry.busy?.reject(new Error("password pool closed"));
  }
}

/**
 * Hashes a password into the PHC string form (`$argon2id$v=19$m=19456,t=2,p=1$...`).
 *
 * @example
 * ```ts
 * const hash = await hashPassword("correct horse");
 * await verifyPassword("correct horse", hash); // true
 * ```
 */
export async function hashPassword(password: string): Promise<string> {
  return String(await run({ op: "hash", password }));
}

/**
 * Checks a password against a stored hash; a missing hash still spends the same time. A hash
 * that does not parse is a wrong password; a check the pool could not make (its worker failed,
 * the pool closed) throws: a server fault answered as "Invalid username or password" would send
 * the person to retype a right password, count a failure against the account and hide the cause.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const ok = await run({ op: "verify", password, hash: hash ?? DUMMY_HASH });
  return ok === true && hash !== null;
}
