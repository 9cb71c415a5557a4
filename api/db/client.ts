/**
 * One database interface over embedded PGlite and PostgreSQL (postgres.js). Queries use `$1`
 * placeholders on both; values are always parameters, never SQL text.
 */
import postgres from "postgres";
import { lockDataDir } from "./lock.ts";
import { openPgliteWorker } from "./pglite_remote.ts";
import {
  type Db,
  preparedTexts,
  type QueryOptions,
  type Row,
  savepoint,
  type TransactionOptions,
} from "./db.ts";

export { type Db, type QueryOptions, type Row, savepoint, type TransactionOptions };

// int8 and numeric come back as numbers on both drivers: counts and ids fit easily.
const toNumber = (value: string) => Number(value);

/**
 * Opens PostgreSQL when `url` is given, else PGlite in `dataDir` (in memory when `dataDir` is
 * `memory://`), holding the directory's lock until `close` (`DbLockedError` when another process
 * has it). `activeMs` (PGlite, tests): how long after a request's statement `othersActive` holds
 * (api/db/pglite_remote.ts, `ACTIVE_MS`).
 *
 * @example
 * ```ts
 * const db = await openDb({ dataDir: "memory://" });
 * await db.query("select 1 as one"); // [{ one: 1 }]
 * ```
 */
export async function openDb(
  options: { url?: string; dataDir?: string; poolSize?: number; activeMs?: number },
): Promise<Db> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  return await openPglite(options.dataDir ?? "memory://", options.activeMs);
}

async function openPglite(dataDir: string, activeMs?: number): Promise<Db> {
  // One process per directory (api/db/lock.ts): a second opener fails here, before PGlite starts.
  const lock = dataDir.startsWith("memory://") ? null : await lockDataDir(dataDir);
  try {
    // PGlite runs in a worker of its own so that no statement holds the thread answering requests.
    return await openPgliteWorker(dataDir, async () => await lock?.release(), activeMs);
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/**
 * A prepared statement's options. `simple: false` (not in postgres.js's types): postgres.js sends
 * a text without parameters by the simple protocol, which prepares nothing, so the no-terms list's
 * page and count were planned again on every request (0.4–1 ms each at 200,000 orders).
 */
const PREPARED = { prepare: true, simple: false } as postgres.UnsafeQueryOptions;

function openPostgres(url: string, poolSize: number): Db {
  const settings = {
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], serialize: String, parse: toNumber },
      numeric: { to: 1700, from: [1700], serialize: String, parse: toNumber },
    },
  };
  // Connections per process (docs/operations.md, "Connection budget"): one kept hot, used
  // whenever it is free, and a postgres.js pool of the others for statements that overlap
  // (docs/architecture.md, "PostgreSQL connections: one kept hot").
  const hot = postgres(url, { ...settings, max: 1 });
  // With a budget of one, statements that overlap queue on the hot connection itself.
  const rest = poolSize > 1 ? postgres(url, { ...settings, max: poolSize - 1 }) : hot;
  let hotInUse = false;
  /** Runs `fn` on the hot connection when it is free (and nothing else on it meanwhile). */
  const using = async <T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> => {
    if (hotInUse) return await fn(rest);
    hotInUse = true;
    try {
      return await fn(hot);
    } finally {
      hotInUse = false;
    }
  };
  const keepPrepared = preparedTexts();
  type Conn = postgres.Sql | postgres.TransactionSql;
  const wrap = (conn: Conn | null, savepoints = { n: 0 }): Db => ({
    kind: "postgres",
    async query<T>(text: string, params: readonly unknown[] = [], options?: QueryOptions) {
      // An aborted signal keeps the statement from starting; one sent runs to its end. A cancel
      // request (postgres.js's `cancel()`) stops whatever the connection runs when it arrives,
      // which under load was often the next request's statement, and a statement cancelled
      // while queued behind another left the driver giving results to the wrong queries.
      options?.signal?.throwIfAborted();
      const run = async (sql: Conn) =>
        [
          ...await sql.unsafe(
            text,
            params as postgres.ParameterOrJSON<never>[],
            options?.prepare && keepPrepared(text) ? PREPARED : {},
          ),
        ] as T[];
      return conn ? await run(conn) : await using(run);
    },
    async exec(text: string) {
      if (conn) await conn.unsafe(text);
      else await using((sql) => sql.unsafe(text));
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (conn) return await savepoint(wrap(conn, savepoints), `sp${++savepoints.n}`, fn);
      return await using(async (sql) => await sql.begin((tx) => fn(wrap(tx))) as T);
    },
    othersActive: () => false,
    close: async () => {
      await Promise.all([...new Set([hot, rest])].map((sql) => sql.end({ timeout: 5 })));
    },
  });
  return wrap(null);
}

/** True when `error` is a unique-constraint violation (SQLSTATE 23505) on either driver. */
export function isUniqueViolation(
  error: unknown,
): error is { constraint?: string; constraint_name?: string; detail?: string } {
  return typeof error === "object" && error !== null &&
    (error as { code?: string }).code === "23505";
}

/** True when `error` is a foreign-key violation (SQLSTATE 23503) on either driver. */
export function isForeignKeyViolation(
  error: unknown,
): error is { constraint?: string; constraint_name?: string; detail?: string } {
  return typeof error === "object" && error !== null &&
    (error as { code?: string }).code === "23503";
}
