/**
 * JSON logs (docs/operations.md, "Logs"): one JSON line per event with time, level and msg; every
 * line of one request carries its request id (AsyncLocalStorage), which the response header and
 * a 500's answer carry too; job lines carry the job's and the run's ids; no secret reaches the
 * log. On PGlite and on PostgreSQL (DATABASE_URL).
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { handleError } from "../../api/http/errors.ts";
import { requestId } from "../../api/http/request_id.ts";
import { log, setLogLevel, setLogSink } from "../../api/http/log.ts";
import { enqueueJob } from "../../api/jobs/queue.ts";
import { registerJobHandler } from "../../api/jobs/handlers.ts";
import { runDueJobs } from "../../api/jobs/runner.ts";

type Line = Record<string, unknown>;

/** Runs `body` with the log captured as parsed lines (every line must be JSON). */
async function capture(body: () => Promise<void>): Promise<{ lines: Line[]; text: string }> {
  const raw: string[] = [];
  setLogSink((line) => raw.push(line));
  try {
    await body();
  } finally {
    setLogSink(null);
  }
  const lines = raw.map((line) => {
    const parsed = JSON.parse(line) as Line;
    assert.equal(typeof parsed.time, "string");
    assert.match(String(parsed.level), /^(debug|info|warn|error)$/);
    assert.equal(typeof parsed.msg, "string");
    return parsed;
  });
  return { lines, text: raw.join("\n") };
}

Deno.test("request ids: header, every line of the request, the 500 answer", async () => {
  setLogLevel("debug");
  const app = new Hono();
  app.onError(handleError);
  app.use(requestId);
  app.get("/deep", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.resolve().then(() => log.info("deep inside", { step: 1 }));
    return c.json({ ok: true });
  });
  app.get("/boom", () => {
    log.warn("about to fail");
    throw new Error("database exploded");
  });
  app.get("/bad", () => {
    throw new (class extends Error {})("x");
  });
  let deepTiming = "";
  try {
    const { lines } = await capture(async () => {
      const deep = await app.request("/deep", { headers: { "x-request-id": "proxy-id.42" } });
      assert.equal(deep.headers.get("x-request-id"), "proxy-id.42");
      // The time inside the app, as the log line says it: the handler waited 5 ms.
      deepTiming = deep.headers.get("server-timing") ?? "";
      const odd = await app.request("/deep", {
        headers: { "x-request-id": "a b;c" + "x".repeat(200) },
      });
      assert.match(odd.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
      const boom = await app.request("/boom");
      assert.equal(boom.status, 500);
      const answer = await boom.json();
      assert.equal(answer.message, "Internal server error.");
      assert.equal(answer.requestId, boom.headers.get("x-request-id"));
      assert.deepEqual(Object.keys(answer).sort(), ["message", "requestId"]);
    });
    const proxied = lines.filter((l) => l.requestId === "proxy-id.42");
    assert.deepEqual(proxied.map((l) => l.msg), ["deep inside", "request"]);
    assert.equal(proxied[0].step, 1);
    const request = proxied[1];
    assert.equal(request.method, "GET");
    assert.equal(request.path, "/deep");
    assert.equal(request.status, 200);
    assert.equal(typeof request.duration, "number");
    assert.ok(Number(request.duration) >= 5, String(request.duration));
    assert.equal(deepTiming, `app;dur=${request.duration}`);
    const failed = lines.filter((l) => l.path === "/boom");
    assert.deepEqual(failed.map((l) => l.level), ["warn", "error", "warn"]);
    assert.equal(new Set(failed.map((l) => l.requestId)).size, 1);
    assert.match(String(failed[1].msg), /GET \/boom failed: Error: database exploded/);
    assert.ok(!lines.some((l) => String(l.requestId ?? "").includes(" ")));
  } finally {
    setLogLevel("warn");
  }
});

Deno.test("a 4xx answer keeps { message, errors? } without a request id", async () => {
  const t = await startTestServer();
  try {
    const response = await fetch(`${t.url}/api/accounts/count`);
    assert.equal(response.status, 401);
    assert.ok(response.headers.get("x-request-id"));
    assert.deepEqual(Object.keys(await response.json()), ["message"]);
  } finally {
    await t.close();
  }
});

Deno.test("job lines carry worker, job and run ids", async () => {
  const t = await startTestServer({ env: { LOG_LEVEL: "debug" } });
  registerJobHandler("test-logging-job", {
    run: async () => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      log.info("working on it");
    },
  });
  registerJobHandler("test-failing-job", {
    run: () => Promise.reject(new Error("no luck")),
  });
  try {
    const ok = await enqueueJob(t.db, { kind: "test-logging-job", payload: { runId: 77 } });
    const bad = await enqueueJob(t.db, { kind: "test-failing-job", maxAttempts: 1 });
    const { lines } = await capture(async () => {
      await runDueJobs(t.server.deps, { kinds: ["test-logging-job", "test-failing-job"] });
    });
    const working = lines.find((l) => l.msg === "working on it");
    assert.ok(working, JSON.stringify(lines));
    assert.equal(working.jobId, ok);
    assert.equal(working.jobKind, "test-logging-job");
    assert.equal(working.runId, 77);
    assert.equal(typeof working.worker, "string");
    const failure = lines.find((l) => l.jobId === bad && l.level === "warn");
    assert.ok(failure, JSON.stringify(lines));
    assert.match(String(failure.msg), /failed: no luck/);
  } finally {
    setLogLevel("warn");
    await t.close();
  }
});

Deno.test("a session's logs at debug level hold no password, secret or token", async () => {
  const t = await startTestServer({ env: { LOG_LEVEL: "debug" } });
  const MAILBOX_PASSWORD = "mailbox-secret-Qx81!";
  const SFTP_PASSWORD = "sftp-secret-Lm27!";
  const BEARER = "tok_live_0123456789abcdefghijklmnop";
  const RESET_TOKEN = "reset-token-abcdefghijklmnop0123";
  try {
    const cookies: string[] = [];
    const { lines, text } = await capture(async () => {
      const admin = testClient(t.url);
      await admin.login("admin", ADMIN_PASSWORD);
      for (const [, c] of admin.cookies) cookies.push(c.value);
      const saved = await admin.post("/api/email-sources/email/save", {
        id: 0,
        username: "box@example.test",
        email: "box@example.test",
        password: MAILBOX_PASSWORD,
        incomingServer: "127.0.0.1",
        outgoingServer: "127.0.0.1",
        incomingPort: 9,
        outgoingPort: 9,
        ssl: false,
      });
      assert.equal(saved.status, 200);
      await admin.post("/api/accounts/update/user", {
        userId: 0,
        username: "logged",
        email: "logged@example.test",
        password: "a-new-password-1",
      });
      await admin.post("/auth/login", { username: "logged", password: "wrong-password-9" });
      await admin.post("/auth/reset-password", "logged");
      await admin.post("/auth/refresh");
      await admin.get(`/api/email-sources/email/${2 ** 31}`);
      await admin.post("/api/order-tracking/list", { PageSize: 10, PageIndex: 1e300 });
      await admin.post("/auth/reset-password/complete", {
        token: RESET_TOKEN,
        newPassword: "another-password-2",
      });
      await fetch(`${t.url}/api/accounts/count?token=${RESET_TOKEN}`, {
        headers: { authorization: `Bearer ${BEARER}`, "x-request-id": BEARER.slice(0, 10) },
      }).then((r) => r.body?.cancel());
      await admin.post("/api/inventory-sources/inventory/save", {
        id: 0,
        sourceName: "logged inventory",
        sftpPassword: SFTP_PASSWORD,
      });
      await admin.post("/api/accounts/update/password", {
        userId: 1,
        username: "admin",
        oldPassword: "not-the-password-7",
        newPassword: "brand-new-password-3",
      });
    });
    assert.ok(lines.some((l) => l.msg === "request" && l.path === "/auth/login"));
    const [source] = await t.db.query<{ enc: string }>(
      "select password_enc as enc from email_sources limit 1",
    );
    const [hash] = await t.db.query<{ hash: string }>(
      "select password_hash as hash from users where username = 'admin'",
    );
    const secrets = [
      ADMIN_PASSWORD,
      MAILBOX_PASSWORD,
      SFTP_PASSWORD,
      BEARER,
      RESET_TOKEN,
      "a-new-password-1",
      "wrong-password-9",
      "another-password-2",
      "not-the-password-7",
      "brand-new-password-3",
      source.enc,
      hash.hash,
      ...cookies.filter((c) => c.length >= 16),
    ];
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `the log holds a secret (${secret.slice(0, 4)}…)`);
    }
  } finally {
    setLogLevel("warn");
    await t.close();
  }
});
