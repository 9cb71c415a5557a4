/**
 * Batched imports (docs/architecture.md, "Batched imports"): an order file is written in
 * batches of IMPORT_BATCH_ROWS, each committed with the run's ledger; a run cut off between
 * batches (a lost connection) stays queued and its next attempt applies the remaining batches,
 * so every order is written once and the run's counts are the whole file's.
 */
import assert from "node:assert/strict";
import type { Db } from "../../db/client.ts";
import { createRun, getRun, processRun } from "../../ingest/import_runs.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "../../../tests/support/server.ts";
import type { Deps } from "../../deps.ts";
import { testClient } from "../../../tests/support/http.ts";
import { createSource } from "../../../tests/support/order_tracking.ts";
import { orderFile } from "../../../tests/support/import_load.ts";

/**
 * `db` whose transactions fail from the `failAt`-th one on: with a lost connection, or with
 * `error` (a failure of the run itself).
 */
function cutOff(db: Db, failAt: number, error?: Error): Db {
  let count = 0;
  return {
    ...db,
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    close: db.close.bind(db),
    transaction(fn) {
      if (++count >= failAt) {
        return Promise.reject(
          error ?? Object.assign(new Error("connection lost"), { code: "08006" }),
        );
      }
      return db.transaction(fn);
    },
  };
}

/**
 * A server importing 100 rows a batch, and a queued run of a 1,050-row order file (11 batches).
 * `batchMs` is IMPORT_BATCH_MS, and IMPORT_BATCH_BUSY_MS (the test's own requests count as people
 * using PGlite): by default 0, one batch a transaction.
 */
async function queuedRun(
  batchMs = "0",
): Promise<{ server: TestServer; deps: Deps; runId: number }> {
  const server = await startTestServer({
    env: { IMPORT_BATCH_ROWS: "100", IMPORT_BATCH_MS: batchMs, IMPORT_BATCH_BUSY_MS: batchMs },
  });
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const sourceId = await createSource(admin, { uniqueColumn: "CustomerPoNumber" });
  const deps = server.server.deps;
  const runId = await deps.db.transaction((tx) =>
    createRun(tx, {
      feed: "order-tracking",
      sourceId,
      trigger: "cli",
      fileName: "orders.csv",
      bytes: orderFile(1050),
    })
  );
  return { server, deps, runId };
}

// A run cut off between transactions stays queued with the batches written, and its next
// attempt writes the rest: every order once, the whole file's counts. With IMPORT_BATCH_MS 0 a
// transaction writes one batch; with a target no transaction reaches, each writes twice the
// batches of the one before (1, 2, 4, ...).
const cutOffCases = [
  {
    name: "a batched import cut off between batches resumes and writes each order once",
    batchMs: "0",
    failAt: 5,
    done: 4,
  },
  {
    name:
      "a transaction writes more batches at a fast pace, and a run cut off between them resumes once",
    batchMs: "60000",
    failAt: 4,
    done: 7,
  },
];

for (const { name, batchMs, failAt, done } of cutOffCases) {
  Deno.test(name, async () => {
    const { server, deps, runId } = await queuedRun(batchMs);
    try {
      await assert.rejects(
        processRun({ ...deps, db: cutOff(deps.db, failAt) }, runId),
        /connection lost/,
      );
      const [ledger] = await deps.db.query<{ status: string; done: number }>(
        "select status, batches_done as done from import_runs where id = $1",
        [runId],
      );
      assert.deepEqual(ledger, { status: "queued", done });
      const [{ n: partly }] = await deps.db.query<{ n: number }>(
        "select count(*)::int as n from orders",
      );
      assert.equal(partly, done * 100);

      assert.equal(await processRun(deps, runId), "succeeded");
      const run = await getRun(deps.db, runId);
      assert.equal(run.counts.inserted, 1050);
      assert.equal(run.counts.rows, 1050);
      const [{ n, keys }] = await deps.db.query<{ n: number; keys: number }>(
        "select count(*)::int as n, count(distinct unique_key)::int as keys from orders",
      );
      assert.deepEqual({ n, keys }, { n: 1050, keys: 1050 });
      // Done runs are left alone: a repeated job changes nothing.
      assert.equal(await processRun(deps, runId), "succeeded");
      assert.equal((await getRun(deps.db, runId)).counts.inserted, 1050);
    } finally {
      await server.close();
    }
  });
}

Deno.test("a batched import that fails after some batches makes the list forget its page starts", async () => {
  const { server, deps, runId } = await queuedRun();
  try {
    const version = async () =>
      (await deps.db.query<{ v: string }>(
        "select version::text as v from order_list_versions where name = 'orders'",
      ))[0].v;
    const before = await version();
    const broken = cutOff(deps.db, 5, new Error("disk full"));
    assert.equal(await processRun({ ...deps, db: broken }, runId), "failed");
    const run = await getRun(deps.db, runId);
    assert.match(run.error ?? "", /disk full \(4 of 11 batches had been written\.\)/);
    // The 400 orders written stay, and every process's list forgets the page starts they moved.
    assert.equal(Number(await version()), Number(before) + 1);
  } finally {
    await server.close();
  }
});
