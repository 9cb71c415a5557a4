/**
 * One owner per PGlite directory (docs/outbound.md, "One process per embedded database"): PGlite
 * is a single-process PostgreSQL, and two processes on one directory lose data. The opener creates
 * `<dir>/owner.lock` atomically (createNew) with its pid, host, start time and command; a second
 * opener fails at once naming the holder. A lock whose process is gone (kill -9, power cut) is
 * taken over with a log line. Released on close.
 */

/** The holder of a lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** Thrown when another process holds the directory; its message is the one line to print. */
export class DbLockedError extends Error {}

/** A held lock. */
export interface DirLock {
  path: string;
  release(): Promise<void>;
}

const LOCK_FILE = "owner.lock";
// Directories this process holds: a second open in the same process is refused too.
const held = new Set<string>();

/** What the process is, for the message a second opener prints ("deno task start"). */
function describeCommand(): string {
  const main = Deno.mainModule;
  if (main.endsWith("/api/main.ts")) return "deno task start";
  if (main.endsWith("/api/worker.ts")) return "deno task worker";
  if (main.endsWith("/cli/main.ts")) {
    return `deno task cli ${Deno.args.slice(0, 2).join(" ")}`.trim();
  }
  return main.slice(main.lastIndexOf("/") + 1) || "deno";
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
}

/** True unless the pid is known to be gone (Linux /proc; elsewhere a lock is never stale). */
function processAlive(pid: number): boolean {
  if (pid === Deno.pid) return false; // our own pid from a previous life, not a live holder
  try {
    // A reused pid that is not a Deno process is not the holder (a container's pid 1, say).
    const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    return /deno/i.test(cmdline);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      try {
        Deno.statSync("/proc/self");
        return false;
      } catch {
        return true; // no /proc: cannot tell, so the holder counts as alive
      }
    }
    return true;
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await Deno.readTextFile(path)) as LockOwner;
    return typeof owner.pid === "number" ? owner : null;
  } catch {
    return null;
  }
}

function lockedMessage(dir: string, owner: LockOwner | null): string {
  const who = owner
    ? `process ${owner.pid} (${owner.command}${
      owner.host && owner.host !== hostname() ? ` on ${owner.host}` : ""
    }, since ${owner.startedAt})`
    : "another process that is starting";
  return `The embedded database in ${dir} is in use by ${who}. Stop it first, or run this ` +
    "while it is stopped; several processes on one database need PostgreSQL (DATABASE_URL).";
}

/**
 * Takes the lock of a PGlite directory (created if missing) or throws `DbLockedError`.
 *
 * @example
 * const lock = await lockDataDir("./data/pglite");
 * try { ... } finally { await lock.release(); }
 */
export async function lockDataDir(
  dir: string,
  log: (line: string) => void = console.warn,
): Promise<DirLock> {
  await Deno.mkdir(dir, { recursive: true });
  const real = await Deno.realPath(dir);
  if (held.has(real)) {
    throw new DbLockedError(lockedMessage(dir, await readOwner(`${real}/${LOCK_FILE}`)));
  }
  const path = `${real}/${LOCK_FILE}`;
  const me: LockOwner = {
    pid: Deno.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: describeCommand(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    let file: Deno.FsFile | null = null;
    try {
      file = await Deno.open(path, { createNew: true, write: true, mode: 0o600 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (file) {
      try {
        await file.write(new TextEncoder().encode(JSON.stringify(me) + "\n"));
      } finally {
        file.close();
      }
      held.add(real);
      const release = () => {
        if (!held.delete(real)) return;
        try {
          const owner = JSON.parse(Deno.readTextFileSync(path)) as LockOwner;
          if (owner.pid === me.pid && owner.startedAt === me.startedAt) Deno.removeSync(path);
        } catch { /* already gone */ }
      };
      // A process that exits without closing the database still leaves no lock behind.
      globalThis.addEventListener("unload", release);
      return {
        path,
        release: () => {
          globalThis.removeEventListener("unload", release);
          release();
          return Promise.resolve();
        },
      };
    }
    const owner = await readOwner(path);
    if (!owner) {
      // Created but not yet written by a process that is starting, or a torn write long ago.
      const age = Date.now() - ((await Deno.stat(path).catch(() => null))?.mtime?.getTime() ?? 0);
      if (age < 5_000) throw new DbLockedError(lockedMessage(dir, null));
    } else if (owner.host && owner.host !== me.host || processAlive(owner.pid)) {
      throw new DbLockedError(lockedMessage(dir, owner));
    }
    // Stale: move it aside atomically (only one taker wins the rename), then try again.
    const aside = `${path}.stale-${Deno.pid}-${attempt}`;
    try {
      await Deno.rename(path, aside);
      await Deno.remove(aside).catch(() => {});
      log(
        `Took over the embedded database in ${dir}: its lock was left by process ${
          owner?.pid ?? "unknown"
        }, which is no longer running.`,
      );
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  throw new DbLockedError(lockedMessage(dir, await readOwner(path)));
}
