/**
 * Forward-only SQL migrations: every `NNNN_name.sql` in ./migrations, applied once, in order,
 * each in its own transaction, on PGlite and PostgreSQL alike.
 */
import type { Db } from "./client.ts";

const migrationsDir = new URL("./migrations/", import.meta.url);

/** Reads the migration files, sorted by name. */
export async function readMigrations(): Promise<{ name: string; sql: string }[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(migrationsDir)) {
    if (entry.isFile && /^\d{4}_[a-z0-9_]+\.sql$/.test(entry.name)) names.push(entry.name);
  }
  names.sort();
  return await Promise.all(
    names.map(async (name) => ({
      name,
      sql: await Deno.readTextFile(new URL(name, migrationsDir)),
    })),
  );
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`. Two processes starting at once
 * on one PostgreSQL serialise on an advisory lock, so each file runs exactly once.
 *
 * @returns the names applied by this call
 */
export async function migrate(db: Db): Promise<string[]> {
  const migrations = await readMigrations();
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(
      `create table if not exists schema_migrations (
         name text primary key, applied_at timestamptz not null default now())`,
    );
  });
  const applied: string[] = [];
  for (const { name, sql } of migrations) {
    await db.transaction(async (tx) => {
      await lock(tx);
      const done = await tx.query("select 1 from schema_migrations where name = $1", [name]);
      if (done.length) return;
      await tx.exec(sql);
      await tx.query("insert into schema_migrations (name) values ($1)", [name]);
      applied.push(name);
    });
  }
  return applied;
}

async function lock(tx: Db): Promise<void> {
  if (tx.kind === "postgres") await tx.query("select pg_advisory_xact_lock(7243001)");
}
