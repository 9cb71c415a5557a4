/**
 * Graceful shutdown (docs/operations.md, "Stopping"): `deno run api/main.ts` and `api/worker.ts`
 * exit 0 soon after SIGTERM and leave no lock on the embedded database; a job still running at
 * the end of the grace period is given back to the queue for another process.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { enqueueJob } from "../../api/jobs/queue.ts";
import { registerJobHandler } from "../../api/jobs/handlers.ts";
import { startJobs } from "../../api/jobs/runner.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Reads a child's stdout until `pattern` appears (or the child ends). */
async function waitForLine(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
): Promise<{ match: RegExpExecArray | null; rest: Promise<string> }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) return { match: null, rest: Promise.resolve(text) };
    text += decoder.decode(value, { stream: true });
    const match = pattern.exec(text);
    if (match) {
      const rest = (async () => {
        let more = "";
        while (true) {
          const next = await reader.read();
          if (next.done) return text + more;
          more += decoder.decode(next.value, { stream: true });
        }
      })();
      return { match, rest };
    }
  }
}

async function signalled(
  script: string,
  ready: RegExp,
  env: Record<string, string>,
  readyUrl?: string,
): Promise<{ code: number; ms: number; stdout: string; stderr: string; dataDir: string }> {
  const dataDir = await Deno.makeTempDir({ prefix: "shutdown-test-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}${script}`],
    cwd: ROOT,
    env: {
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      ADMIN_PASSWORD: "shutdown-test-password",
      JOBS_TICK_SECONDS: "1",
      // The embedded database and its lock are what these tests are about, whatever the suite's
      // DATABASE_URL (and the child must not touch the shared PostgreSQL).
      DATABASE_URL: "",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const { match, rest } = await waitForLine(child.stdout, ready);
  // (Not `assert.ok(match, `...${await stderr}`)`: the message would wait for the child's exit.)
  if (!match) throw new Error(`${script} did not start: ${await stderr}`);
  const url = match[1] ?? readyUrl;
  if (url) {
    const answer = await fetch(`${url}ready`);
    assert.equal(answer.status, 200, await answer.text());
  }
  assert.ok(await Deno.stat(`${dataDir}/pglite/owner.lock`), "the lock is held while running");
  const sent = performance.now();
  child.kill("SIGTERM");
  const status = await child.status;
  return {
    code: status.code,
    ms: performance.now() - sent,
    stdout: await rest,
    stderr: await stderr,
    dataDir,
  };
}

async function lockGone(dataDir: string): Promise<boolean> {
  return await Deno.stat(`${dataDir}/pglite/owner.lock`).then(() => false, () => true);
}

Deno.test("SIGTERM stops the server: exit 0 within seconds, database closed, lock gone", async () => {
  const result = await signalled("api/main.ts", /"url":"(http:[^"]+)"/, {});
  try {
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.ms < 5000, `took ${result.ms} ms`);
    assert.ok(await lockGone(result.dataDir), "the lock file is left behind");
    assert.match(result.stdout, /SIGTERM: stopping the server/);
    assert.match(result.stdout, /server stopped/);
  } finally {
    await Deno.remove(result.dataDir, { recursive: true });
  }
});

Deno.test("SIGTERM stops the worker the same way", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const result = await signalled(
    "api/worker.ts",
    /Worker running/,
    { WORKER_HEALTH_PORT: String(port) },
    `http://127.0.0.1:${port}/`,
  );
  try {
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.ms < 5000, `took ${result.ms} ms`);
    assert.ok(await lockGone(result.dataDir));
  } finally {
    await Deno.remove(result.dataDir, { recursive: true });
  }
});

Deno.test("stopping: no new claims; a job past the grace period is given back", async () => {
  const t = await startTestServer();
  let release!: () => void;
  const hold = new Promise<void>((resolve) => release = resolve);
  let started!: () => void;
  const running = new Promise<void>((resolve) => started = resolve);
  registerJobHandler("test-slow-job", {
    run: async () => {
      started();
      await hold;
    },
  });
  try {
    const slow = await enqueueJob(t.db, { kind: "test-slow-job" });
    const jobs = startJobs(t.server.deps, { cron: false, log: () => {} });
    await running;
    const second = await enqueueJob(t.db, { kind: "test-slow-job" });
    await jobs.stop({ graceMs: 100 });
    const rows = await t.db.query<{ id: number; status: string; lockedBy: string | null }>(
      `select id, status, locked_by as "lockedBy" from jobs where id = any($1::bigint[]) order by id`,
      [[slow, second]],
    );
    assert.deepEqual(
      rows.map((r) => [Number(r.id), r.status, r.lockedBy]),
      [[slow, "queued", null], [second, "queued", null]],
    );
  } finally {
    release();
    await t.close();
  }
});
