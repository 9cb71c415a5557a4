/**
 * Throw-away databases for tests: a new database on the PostgreSQL of `DATABASE_URL` when it is
 * set (the suite's second run), else in-memory PGlite.
 */
import postgres from "postgres";
import { loadConfig } from "../../api/config.ts";
import { type Db, openDb } from "../../api/db/client.ts";
import { migrate } from "../../api/db/migrate.ts";

/** Creates a throw-away database on the PostgreSQL at `url` and returns its URL and a dropper. */
export async function freshPostgresDatabase(
  url: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.href,
    async drop() {
      const again = postgres(url, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * A migrated, empty database of the kind the suite runs on; `close` also drops it. `poolSize`
 * bounds PostgreSQL's connections (1: every statement on the same one, as on PGlite).
 *
 * @example
 * const { db, close } = await openTestDb();
 * try { await db.query("select 1"); } finally { await close(); }
 */
export async function openTestDb(
  options: { poolSize?: number } = {},
): Promise<{ db: Db; close(): Promise<void> }> {
  const url = loadConfig().DATABASE_URL;
  const database = url ? await freshPostgresDatabase(url) : null;
  const db = await openDb(
    database ? { url: database.url, poolSize: options.poolSize } : { dataDir: "memory://" },
  );
  await migrate(db);
  return {
    db,
    async close() {
      await db.close();
      await database?.drop();
    },
  };
}

/**
 * `db`, with the statements it runs written down in `statements` (one handle: what the list
 * remembers is kept per database object).
 */
export function recordingDb(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: {
      ...db,
      query: (sql, params, options) => {
        statements.push(sql);
        return db.query(sql, params, options);
      },
    },
  };
}
