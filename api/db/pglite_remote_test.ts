/**
 * Turns on PGlite's one connection (docs/architecture.md, "The embedded database"): an import's
 * batches are background transactions, and a statement of another user that arrives while one
 * runs goes before the next batch, instead of waiting for the whole import.
 */
import assert from "node:assert/strict";
import { openDb } from "./client.ts";
import { asWorkUnit } from "./work_unit.ts";

Deno.test("PGlite's turns", async (t) => {
  // One database for both steps: starting PGlite takes seconds.
  // A short window for requests (ACTIVE_MS is 10 s), so that its end is waited for quickly.
  const db = await openDb({ dataDir: "memory://", activeMs: 500 });
  try {
    await t.step(
      "a statement that arrives during an import's batch runs before the next batch",
      async () => {
        await db.exec("create table batches (n integer)");
        const order: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((resolve) => release = resolve);
        let started!: () => void;
        const running = new Promise<void>((resolve) => started = resolve);
        // Batch 1 holds the connection until the test lets it go; it is long enough that batch 2
        // is not overdue when batch 1 ends (a batch that waited as long as the last one took goes
        // anyway, so that an import progresses under constant load).
        const first = db.transaction(async (tx) => {
          await tx.query("insert into batches values (1)");
          started();
          await held;
          order.push("batch 1");
        }, { background: true });
        await running;
        await new Promise((resolve) => setTimeout(resolve, 500));
        // Batch 2 is queued before the user's search, and still goes after it.
        const second = db.transaction(async (tx) => {
          await tx.query("insert into batches values (2)");
          order.push("batch 2");
        }, { background: true });
        const search = db.query<{ n: number }>("select count(*)::int as n from batches").then(
          (rows) => {
            order.push("search");
            return rows[0].n;
          },
        );
        release();
        await Promise.all([first, second]);
        assert.deepEqual(order, ["batch 1", "search", "batch 2"]);
        // The search saw batch 1 committed and nothing of batch 2.
        assert.equal(await search, 1);
      },
    );
    await t.step(
      "two imports taking turns let a waiting statement go after at most one batch",
      async () => {
        await db.exec("truncate batches");
        const order: string[] = [];
        // Two imports of 4 batches each, every batch long enough (150 ms) that the other one's
        // next batch is overdue when it ends; a search arrives during the first batch.
        const importing = (name: string) =>
          (async () => {
            for (let n = 1; n <= 4; n++) {
              await db.transaction(async (tx) => {
                await tx.query("insert into batches values ($1)", [n]);
                await new Promise((resolve) => setTimeout(resolve, 150));
                order.push(`${name}${n}`);
              }, { background: true });
            }
          })();
        const a = importing("a"), b = importing("b");
        await new Promise((resolve) => setTimeout(resolve, 50));
        const search = db.query("select count(*) from batches").then(() => order.push("search"));
        await Promise.all([a, b, search]);
        assert.ok(order.indexOf("search") <= 1, order.join(" "));
        assert.equal(order.length, 9);
      },
    );
    await t.step(
      "a request under way goes before requests that have not started",
      async () => {
        const order: string[] = [];
        let release!: () => void;
        const held = new Promise<void>((resolve) => release = resolve);
        let holding!: () => void;
        const holds = new Promise<void>((resolve) => holding = resolve);
        // Another user's transaction holds the connection while B and C arrive with their
        // first statements and then request A, which has had a turn already, with its second.
        let aStarted!: () => void;
        const aFirstDone = new Promise<void>((resolve) => aStarted = resolve);
        let aGo!: () => void;
        const aMayGoOn = new Promise<void>((resolve) => aGo = resolve);
        const a = asWorkUnit(async () => {
          await db.query("select 1");
          aStarted();
          await aMayGoOn;
          await db.query("select 2");
          order.push("A's second statement");
        });
        await aFirstDone;
        const holder = db.transaction(async (tx) => {
          await tx.query("select 0");
          holding();
          await held;
        });
        await holds;
        const later = (name: string) =>
          asWorkUnit(async () => {
            await db.query("select 3");
            order.push(`${name}'s first statement`);
          });
        const b = later("B"), c = later("C");
        aGo();
        await new Promise((resolve) => setTimeout(resolve, 20));
        release();
        await Promise.all([holder, a, b, c]);
        // Without work units the three would go in arrival order: B, C, then A.
        assert.deepEqual(order, [
          "A's second statement",
          "B's first statement",
          "C's first statement",
        ]);
      },
    );
    await t.step(
      "the connection is in use for a while after a request's statement, not after a job's",
      async () => {
        // The steps before ran requests' statements: once the window has passed it is free.
        await new Promise((resolve) => setTimeout(resolve, 600));
        assert.equal(db.othersActive(), false);
        await db.query("select 1"); // a job's statement: no request behind it
        assert.equal(db.othersActive(), false);
        await asWorkUnit(() => db.query("select 1"));
        assert.equal(db.othersActive(), true);
        // An import's transaction sees it too, and sizes itself by it.
        assert.equal(
          await db.transaction((tx) => Promise.resolve(tx.othersActive()), { background: true }),
          true,
        );
      },
    );
    await t.step(
      "background transactions in a row each get the connection and commit",
      async () => {
        await db.exec("truncate batches");
        for (let n = 0; n < 20; n++) {
          await db.transaction((tx) => tx.query("insert into batches values ($1)", [n]), {
            background: true,
          });
        }
        const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from batches");
        assert.equal(n, 20);
      },
    );
  } finally {
    await db.close();
  }
});
