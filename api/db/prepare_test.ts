/**
 * `db.query(sql, params, { prepare: true })`: on PostgreSQL the statement is kept parsed and
 * planned on its connection (the session lookup of every request), unless `DATABASE_URL` says
 * `prepare=false` (PgBouncer before 1.21: docs/operations.md); on PGlite it runs as any other.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { freshPostgresDatabase } from "../../tests/support/db.ts";
import { openDb } from "./client.ts";

const LOOKUP = "select $1::int + 1 as next /* prepare-test */";

Deno.test("a statement asked to be prepared", async (t) => {
  const url = loadConfig().DATABASE_URL;
  if (!url) {
    const db = await openDb({ dataDir: "memory://" });
    try {
      await t.step("PGlite: answers as any statement", async () => {
        assert.deepEqual(await db.query(LOOKUP, [1], { prepare: true }), [{ next: 2 }]);
      });
    } finally {
      await db.close();
    }
    return;
  }
  const database = await freshPostgresDatabase(url);
  try {
    const kept = async (address: string) => {
      const db = await openDb({ url: address, poolSize: 1 });
      try {
        for (const n of [1, 2, 3]) {
          assert.deepEqual(await db.query(LOOKUP, [n], { prepare: true }), [{ next: n + 1 }]);
        }
        const rows = await db.query<{ statement: string }>(
          "select statement from pg_prepared_statements where statement like $1",
          ["%prepare-test%"],
        );
        return rows.length;
      } finally {
        await db.close();
      }
    };
    await t.step("PostgreSQL: kept once on its connection and reused", async () => {
      assert.equal(await kept(database.url), 1);
    });
    await t.step("PostgreSQL with ?prepare=false (PgBouncer): never kept", async () => {
      const address = new URL(database.url);
      address.searchParams.set("prepare", "false");
      assert.equal(await kept(address.href), 0);
    });
  } finally {
    await database.drop();
  }
});
