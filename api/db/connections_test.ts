/**
 * One PostgreSQL connection is kept hot (docs/architecture.md, "PostgreSQL connections: one kept
 * hot"): one after another, statements keep to one server process; at once, they spread; a
 * transaction keeps its connection to itself.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { openDb } from "./client.ts";
import { freshPostgresDatabase } from "../../tests/support/db.ts";

const url = loadConfig().DATABASE_URL;
const backend = "select pg_backend_pid() as pid";

Deno.test({
  name:
    "PostgreSQL: statements take the hot connection whenever it is free, and spread when they overlap",
  ignore: !url,
  async fn(t) {
    const database = await freshPostgresDatabase(url!);
    const db = await openDb({ url: database.url, poolSize: 3 });
    const pidOf = async (sql = backend) => (await db.query<{ pid: number }>(sql))[0].pid;
    try {
      await t.step("one after another: the same server process each time", async () => {
        const pids = new Set<number>();
        for (let i = 0; i < 10; i++) pids.add(await pidOf());
        assert.equal(pids.size, 1);
      });

      await t.step(
        "at once they spread; one after another again, back on the hot one",
        async () => {
          const sleeping = "select pg_backend_pid() as pid, pg_sleep(0.05)";
          const pids = await Promise.all([1, 2, 3].map(() => pidOf(sleeping)));
          assert.equal(new Set(pids).size, 3);
          const after = new Set<number>();
          for (let i = 0; i < 5; i++) after.add(await pidOf());
          assert.deepEqual([...after], [pids[0]]);
        },
      );

      await t.step("a statement beside a transaction does not wait for its commit", async () => {
        let release = () => {};
        const held = new Promise<void>((resolve) => release = resolve);
        let inside = 0;
        const transaction = db.transaction(async (tx) => {
          inside = (await tx.query<{ pid: number }>(backend))[0].pid;
          await held;
          return (await tx.query<{ pid: number }>(backend))[0].pid;
        });
        while (!inside) await new Promise((resolve) => setTimeout(resolve, 5));
        const beside = await pidOf();
        assert.notEqual(beside, inside);
        release();
        assert.equal(await transaction, inside);
      });
    } finally {
      await db.close();
      await database.drop();
    }
  },
});
