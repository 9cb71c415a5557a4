/**
 * `db.query(sql, params, { prepare: true })`: on PostgreSQL the statement is kept parsed and
 * planned on its connection (the session lookup of every request), unless `DATABASE_URL` says
 * `prepare=false` (PgBouncer before 1.21: docs/operations.md); on PGlite it is kept prepared in
 * the worker (api/db/pglite_worker.ts).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { freshPostgresDatabase } from "../../tests/support/db.ts";
import { openDb } from "./client.ts";
import { type Db, MAX_PREPARED } from "./db.ts";

const LOOKUP = "select $1::int + 1 as next /* prepare-test */";

const BARE = "select 41 + 1 as answer /* prepare-test bare */";

/** How many statements `db`'s connection keeps prepared whose text is like `pattern`. */
async function keptLike(db: Db, pattern: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from pg_prepared_statements where statement like $1",
    [pattern],
  );
  return n;
}

/** Asks for more texts than a database keeps prepared; how many of them it kept. */
async function keptOfMany(db: Db): Promise<number> {
  for (let i = 0; i <= MAX_PREPARED; i++) {
    const sql = `select $1::int + ${i} as n /* prepare-test many */`;
    assert.deepEqual(await db.query(sql, [1], { prepare: true }), [{ n: 1 + i }]);
  }
  return await keptLike(db, "%prepare-test many%");
}

Deno.test("a statement asked to be prepared", async (t) => {
  const url = loadConfig().DATABASE_URL;
  if (!url) {
    const db = await openDb({ dataDir: "memory://" });
    const keptTexts = () => keptLike(db, "%prepare-test%");
    try {
      await t.step("PGlite: kept once and reused", async () => {
        for (const n of [1, 2, 3]) {
          assert.deepEqual(await db.query(LOOKUP, [n], { prepare: true }), [{ next: n + 1 }]);
        }
        assert.equal(await keptTexts(), 1);
      });
      await t.step("PGlite: a text without parameters is kept too", async () => {
        for (let i = 0; i < 3; i++) {
          assert.deepEqual(await db.query(BARE, [], { prepare: true }), [{ answer: 42 }]);
        }
        assert.equal(await keptLike(db, "%prepare-test bare%"), 1);
      });
      await t.step("PGlite: parameters of every kind, null among them", async () => {
        const sql = `select $1::bigint[] as ids, $2::bytea as bytes, $3::text as none,
                            $4::timestamptz as at /* prepare-test kinds */`;
        const at = new Date("2026-01-02T03:04:05Z");
        const [row] = await db.query<Record<string, unknown>>(
          sql,
          [[1, 2], new Uint8Array([0, 255]), null, at],
          { prepare: true },
        );
        assert.deepEqual(row, { ids: [1, 2], bytes: new Uint8Array([0, 255]), none: null, at });
      });
      await t.step("PGlite: a failing statement leaves the connection usable", async () => {
        const failing = "select 1 / $1::int as quotient /* prepare-test failing */";
        await assert.rejects(db.query(failing, [0], { prepare: true }), /division by zero/);
        assert.deepEqual(await db.query(failing, [1], { prepare: true }), [{ quotient: 1 }]);
        await assert.rejects(
          db.query("select * from nowhere /* prepare-test */", [], {
            prepare: true,
          }),
          /nowhere/,
        );
        assert.deepEqual(await db.query(LOOKUP, [4], { prepare: true }), [{ next: 5 }]);
      });
      await t.step("PGlite: first used in a transaction that rolls back, kept after", async () => {
        const sql = "select $1::int * 2 as twice /* prepare-test rollback */";
        await assert.rejects(
          db.transaction(async (tx) => {
            assert.deepEqual(await tx.query(sql, [2], { prepare: true }), [{ twice: 4 }]);
            throw new Error("undo");
          }),
          /undo/,
        );
        assert.deepEqual(await db.query(sql, [3], { prepare: true }), [{ twice: 6 }]);
      });
      await t.step(
        "PGlite: texts past the bound run unprepared, with the same answers",
        async () => {
          // The steps before kept a few texts already: together they stay at the bound. The bound
          // counts the texts asked for, as on PostgreSQL: the one whose parse failed ("nowhere")
          // holds its place without a statement.
          assert.ok(await keptOfMany(db) < MAX_PREPARED);
          const [{ n }] = await db.query<{ n: number }>(
            "select count(*)::int as n from pg_prepared_statements",
          );
          assert.equal(n, MAX_PREPARED - 1);
        },
      );
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
        return await keptLike(db, "%prepare-test%");
      } finally {
        await db.close();
      }
    };
    await t.step("PostgreSQL: kept once on its connection and reused", async () => {
      assert.equal(await kept(database.url), 1);
    });
    await t.step("PostgreSQL: a text without parameters is kept too", async () => {
      // postgres.js sends such a text by the simple protocol, which prepares nothing: the
      // no-terms list's page was planned again on every request.
      const db = await openDb({ url: database.url, poolSize: 1 });
      try {
        for (let i = 0; i < 3; i++) {
          assert.deepEqual(await db.query(BARE, [], { prepare: true }), [{ answer: 42 }]);
        }
        assert.equal(await keptLike(db, "%prepare-test bare%"), 1);
      } finally {
        await db.close();
      }
    });
    await t.step(
      "PostgreSQL: texts past the bound run unprepared, with the same answers",
      async () => {
        const db = await openDb({ url: database.url, poolSize: 1 });
        try {
          assert.equal(await keptOfMany(db), MAX_PREPARED);
        } finally {
          await db.close();
        }
      },
    );
    await t.step("PostgreSQL with ?prepare=false (PgBouncer): never kept", async () => {
      const address = new URL(database.url);
      address.searchParams.set("prepare", "false");
      assert.equal(await kept(address.href), 0);
    });
  } finally {
    await database.drop();
  }
});
