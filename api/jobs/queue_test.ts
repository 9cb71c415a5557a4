import assert from "node:assert/strict";
import { openDb } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { claimJobs, completeJob, enqueueJob, failJob, retryDelaySeconds } from "./queue.ts";
import { enqueueDueSchedules, syncSchedules } from "./schedules.ts";

async function freshDb() {
  const db = await openDb({ dataDir: "memory://" });
  await migrate(db);
  return db;
}

Deno.test("jobs: claim, lease, dedupe, retries with back-off", async (t) => {
  const db = await freshDb();
  try {
    await t.step("a key allows one waiting job", async () => {
      const first = await enqueueJob(db, { kind: "k", payload: { n: 1 }, dedupeKey: "one" });
      const second = await enqueueJob(db, { kind: "k", payload: { n: 2 }, dedupeKey: "one" });
      assert.ok(first);
      assert.equal(second, null);
    });

    await t.step("a claimed job is not claimed again while its lease runs", async () => {
      const [job] = await claimJobs(db, { worker: "a", leaseSeconds: 60 });
      assert.deepEqual([job.kind, job.payload, job.attempts], ["k", { n: 1 }, 1]);
      assert.deepEqual(await claimJobs(db, { worker: "b", leaseSeconds: 60 }), []);
    });

    await t.step("an expired lease (dead worker) lets another worker claim it", async () => {
      await db.query(`update jobs set locked_until = now() - interval '1 second'`);
      const [job] = await claimJobs(db, { worker: "b", leaseSeconds: 60 });
      assert.equal(job.attempts, 2);
      // The dead worker cannot complete what it no longer holds.
      await completeJob(db, job.id, "a");
      const [row] = await db.query<{ status: string }>(`select status from jobs`);
      assert.equal(row.status, "running");
      await completeJob(db, job.id, "b");
      const [done] = await db.query<{ status: string }>(`select status from jobs`);
      assert.equal(done.status, "succeeded");
      // Done: the key is free again.
      assert.ok(await enqueueJob(db, { kind: "k", dedupeKey: "one" }));
    });

    await t.step("a failure is retried after a growing delay, then given up", async () => {
      await db.query(`delete from jobs`);
      await enqueueJob(db, { kind: "k", maxAttempts: 2 });
      let [job] = await claimJobs(db, { worker: "w", leaseSeconds: 60 });
      assert.equal(await failJob(db, job, "w", "boom"), false);
      const [waiting] = await db.query<{ status: string; delay: number; lastError: string }>(
        `select status, extract(epoch from run_at - now())::int as delay,
                last_error as "lastError" from jobs`,
      );
      assert.equal(waiting.status, "queued");
      assert.ok(waiting.delay > 20 && waiting.delay <= 30);
      assert.equal(waiting.lastError, "boom");
      assert.deepEqual(await claimJobs(db, { worker: "w", leaseSeconds: 60 }), []);
      await db.query(`update jobs set run_at = now()`);
      [job] = await claimJobs(db, { worker: "w", leaseSeconds: 60 });
      assert.equal(await failJob(db, job, "w", "boom again"), true);
      const [failed] = await db.query<{ status: string }>(`select status from jobs`);
      assert.equal(failed.status, "failed");
    });

    await t.step("a permanent failure is given up at its first attempt", async () => {
      await db.query(`delete from jobs`);
      await enqueueJob(db, { kind: "k", maxAttempts: 5 });
      const [job] = await claimJobs(db, { worker: "w", leaseSeconds: 60 });
      assert.equal(await failJob(db, job, "w", "login refused", true), true);
      const [failed] = await db.query<{ status: string; lastError: string }>(
        `select status, last_error as "lastError" from jobs`,
      );
      assert.deepEqual(failed, { status: "failed", lastError: "login refused" });
    });

    await t.step("back-off doubles up to an hour", () => {
      assert.deepEqual([1, 2, 3, 10, 20].map(retryDelaySeconds), [30, 60, 120, 3600, 3600]);
    });

    await t.step("a schedule missed during downtime is caught up once", async () => {
      await db.query(`delete from jobs`);
      await syncSchedules(db, "poll", [
        { name: "poll:1", kind: "poll", payload: { id: 1 }, everySeconds: 60 },
      ]);
      assert.deepEqual(await enqueueDueSchedules(db), ["poll:1"]);
      assert.deepEqual(await enqueueDueSchedules(db), [], "not due again before its interval");
      // The server was down for ten intervals.
      await db.query(`update job_schedules set next_run_at = now() - interval '10 minutes'`);
      await db.query(`update jobs set status = 'succeeded'`);
      assert.deepEqual(await enqueueDueSchedules(db), ["poll:1"]);
      const [schedule] = await db.query<{ missed: number; ahead: boolean }>(
        `select missed_runs as missed, next_run_at > now() as ahead from job_schedules`,
      );
      assert.equal(schedule.missed, 10);
      assert.equal(schedule.ahead, true);
      const queued = await db.query(`select 1 from jobs where status = 'queued'`);
      assert.equal(queued.length, 1, "one catch-up job, not ten");
      await syncSchedules(db, "poll", []);
      assert.deepEqual(await db.query(`select * from job_schedules`), []);
    });
  } finally {
    await db.close();
  }
});
