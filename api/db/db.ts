/**
 * The database interface every query site uses, and savepoints. Apart from client.ts (which opens
 * the drivers) because the PGlite worker's client (pglite_remote.ts) implements it and client.ts
 * opens that: one module for both made an import loop (tests/layers_test.ts).
 */

/** A row as the drivers return it. */
export type Row = Record<string, unknown>;

/** What every query site uses; a transaction gets the same shape. */
export interface Db {
  readonly kind: "pglite" | "postgres";
  /**
   * Runs one parameterised statement and returns its rows. An aborted `signal` keeps the
   * statement from starting (on PGlite also one still waiting for its turn on the one
   * connection); a statement already sent runs to its end on both databases.
   */
  query<T = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in a transaction; nested calls become savepoints. */
  transaction<T>(fn: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * True while people are using the database and a long transaction would make them wait: on
   * PGlite's one connection, when a request's statement asked for it within the last ten seconds or a
   * statement is waiting for it.
   * Always false on PostgreSQL, where a transaction holds only its own connection. An import sizes
   * its transactions by it (api/ingest/import_runs.ts).
   */
  othersActive(): boolean;
  close(): Promise<void>;
}

/** Per-transaction options. */
export interface TransactionOptions {
  /**
   * Work nobody waits for (an import's batches): on PGlite's one connection it lets waiting
   * statements go first (api/db/pglite_remote.ts); PostgreSQL has a connection per transaction
   * and ignores it.
   */
  background?: boolean;
}

/** Per-statement options. */
export interface QueryOptions {
  /** Aborting it keeps the statement from starting; one already sent runs to its end. */
  signal?: AbortSignal;
  /**
   * A statement of fixed text that runs on most requests (the session lookup, an order by id):
   * PostgreSQL keeps it parsed on its connection, which also saves postgres.js the round trip
   * that describes an unprepared statement's parameters before running it. Only for statements
   * whose best plan does not depend on the values (a lookup by a key, a broad search that no index
   * serves). Each database keeps at most `MAX_PREPARED` texts, the first asked for; later texts
   * run unprepared, so text built per request cannot grow the connections' memory without bound.
   * Ignored with `?prepare=false` in `DATABASE_URL` (PgBouncer before 1.21). PGlite's worker
   * keeps it as a named statement too (its own `query` parses and plans every statement again).
   */
  prepare?: boolean;
}

/**
 * The statement texts a database keeps prepared at most (`QueryOptions.prepare`): each holds its
 * plan on every connection. PgBouncer's `max_prepared_statements` matches it (docs/operations.md).
 */
export const MAX_PREPARED = 200;

/**
 * Whether a text asked to be prepared is kept so: one already kept is; a new one while fewer than
 * `max` are kept is, and counts from then on; the rest run unprepared.
 *
 * @example
 * ```ts
 * const keep = preparedTexts(1);
 * [keep("select 1"), keep("select 2"), keep("select 1")]; // [true, false, true]
 * ```
 */
export function preparedTexts(max = MAX_PREPARED): (text: string) => boolean {
  const kept = new Set<string>();
  return (text) => {
    if (kept.has(text)) return true;
    if (kept.size >= max) return false;
    kept.add(text);
    return true;
  };
}

/** Runs `fn` inside the savepoint `name` of the transaction `tx` (nested transactions). */
export async function savepoint<T>(tx: Db, name: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  await tx.exec(`savepoint ${name}`);
  try {
    const result = await fn(tx);
    await tx.exec(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await tx.exec(`rollback to savepoint ${name}`);
    throw error;
  }
}
