/**
 * `/health` (process up) and `/ready` (database, migrations, jobs) on both databases
 * (docs/operations.md, "Health").
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { jobsProblem, type JobsStatus } from "../../api/jobs/runner.ts";

Deno.test("/health answers without a login; /ready checks database, migrations, jobs", async () => {
  const t = await startTestServer({ jobs: true });
  try {
    const health = await fetch(`${t.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });

    const ready = await fetch(`${t.url}/ready`);
    const body = await ready.json();
    assert.equal(ready.status, 200, JSON.stringify(body));
    assert.equal(body.status, "ok");
    assert.deepEqual(Object.keys(body.checks).sort(), ["database", "jobs", "migrations"]);

    // A migration recorded as not applied (a process older than the files it runs next to).
    const [last] = await t.db.query<{ name: string }>(
      "select name from schema_migrations order by name desc limit 1",
    );
    await t.db.query("delete from schema_migrations where name = $1", [last.name]);
    const behind = await fetch(`${t.url}/ready`);
    assert.equal(behind.status, 503);
    const behindBody = await behind.json();
    assert.equal(behindBody.checks.migrations.ok, false);
    assert.match(behindBody.checks.migrations.detail, new RegExp(last.name));
    assert.equal(behindBody.checks.database.ok, true);
    await t.db.query("insert into schema_migrations (name) values ($1)", [last.name]);
    const again = await fetch(`${t.url}/ready`);
    await again.body?.cancel();
    assert.equal(again.status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("/ready without jobs in the process says so and stays ready", async () => {
  const t = await startTestServer();
  try {
    const body = await (await fetch(`${t.url}/ready`)).json();
    assert.equal(body.status, "ok");
    assert.match(body.checks.jobs.detail, /not run by this process/);
  } finally {
    await t.close();
  }
});

Deno.test("jobsProblem: stale, failing and stopping tickers", () => {
  const now = new Date("2026-01-01T00:10:00Z");
  const base: JobsStatus = {
    ticking: false,
    lastTickStartedAt: new Date("2026-01-01T00:09:58Z"),
    lastTickFinishedAt: new Date("2026-01-01T00:09:59Z"),
    failuresInARow: 0,
    lastError: null,
    stopped: false,
    intervalSeconds: 5,
  };
  assert.equal(jobsProblem(base, now), null);
  const stale = { ...base, lastTickFinishedAt: new Date("2026-01-01T00:09:00Z") };
  assert.match(jobsProblem(stale, now) ?? "", /no job tick for 60 s/);
  // A long job keeps its tick running: not stale.
  assert.equal(jobsProblem({ ...stale, ticking: true }, now), null);
  assert.match(
    jobsProblem({ ...base, failuresInARow: 3, lastError: "connection refused" }, now) ?? "",
    /last 3 job ticks failed: connection refused/,
  );
  assert.match(jobsProblem({ ...base, stopped: true }, now) ?? "", /stopping/);
});
