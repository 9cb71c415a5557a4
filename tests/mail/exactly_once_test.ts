/**
 * Exactly-once ingestion through crashes and concurrency, with real processes on one database:
 * 100 messages with the poller killed after a claim's commit (before the mark) and a worker
 * killed in the middle of an import transaction; and two server processes on one PostgreSQL.
 * Needs the loopback mail servers (tests/services/up.sh).
 */
import { TEST_OUTBOUND_ALLOW } from "../support/server.ts";
import assert from "node:assert/strict";
import { freshPostgresDatabase } from "../support/db.ts";
import { loadConfig } from "../../api/config.ts";
import { openDeps } from "../../api/server.ts";
import type { Db } from "../../api/db/client.ts";
import { saveEmailSource } from "../../api/email_sources/queries.ts";
import { emailSourceSave } from "../../shared/contract/email_sources.ts";
import { generateSecretKey } from "../../api/secrets.ts";
import { addMailUser, connectImap, type MailUser, readServices } from "../services/services.ts";
import { sourceFor, uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";
import { addTestRule, setupTestFeed } from "./test_feed.ts";

const SUPPLIER = "supplier@example.test";
const script = new URL("./ingest_process.ts", import.meta.url).pathname;
const pgUrl = Deno.env.get("DATABASE_URL");

/** A database of its own: a new PostgreSQL database, or a PGlite directory. */
async function scratchDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!pgUrl) {
    const dir = await Deno.makeTempDir({ prefix: "ingest-" });
    return {
      env: { DATA_DIR: dir },
      drop: () => Deno.remove(dir, { recursive: true }),
    };
  }
  const database = await freshPostgresDatabase(pgUrl);
  return { env: { DATABASE_URL: database.url, DATA_DIR: "memory://" }, drop: database.drop };
}

/** Settings shared by the test and its child processes. */
function processEnv(database: Record<string, string>): Record<string, string> {
  return {
    ...database,
    SECRET_KEY: generateSecretKey(),
    ADMIN_PASSWORD: "admin-test-password",
    MAIL_CA_FILE: readServices().caPath,
    OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    MAIL_POLL_SECONDS: "5",
    JOBS_TICK_SECONDS: "1",
    // A killed process's leases run out quickly, so the next one takes over without a long wait.
    JOB_LEASE_SECONDS: "2",
  };
}

async function withDb<T>(env: Record<string, string>, fn: (db: Db) => Promise<T>): Promise<T> {
  const deps = await openDeps(loadConfig(env), () => {});
  try {
    return await fn(deps.db);
  } finally {
    await deps.db.close();
  }
}

/** Prepares the database: a source for `user` and a rule of the test feed. */
async function prepare(env: Record<string, string>, user: MailUser): Promise<number> {
  const deps = await openDeps(loadConfig(env), () => {});
  try {
    await setupTestFeed(deps.db);
    const id = await saveEmailSource(
      deps.db,
      deps.secrets,
      emailSourceSave.parse(sourceFor(user)),
    );
    await addTestRule(deps.db, {
      emailSourceId: id,
      fromEmail: SUPPLIER,
      subjectValue: "Orders",
      containsNotExact: true,
      attachmentName: "",
      fileType: "csv",
      expectedAttachmentCount: null,
    });
    return id;
  } finally {
    await deps.db.close();
  }
}

/** Runs the test process to its end; fails the test after `timeoutMs` (a hung process). */
async function runProcess(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<Deno.CommandStatus> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    env,
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    return await child.status;
  } finally {
    clearTimeout(timer);
  }
}

async function appendMany(user: MailUser, count: number): Promise<void> {
  const client = await connectImap(user);
  try {
    for (let i = 1; i <= count; i++) {
      const name = `msg-${String(i).padStart(3, "0")}`;
      const raw = rawMessage({
        from: SUPPLIER,
        to: user.address,
        subject: `Orders ${name}`,
        attachments: [{ name: `${name}.csv`, content: `${name}\n` }],
      }).replace(/\r?\n/g, "\r\n");
      await client.append("INBOX", new TextEncoder().encode(raw));
    }
  } finally {
    await client.logout();
  }
}

async function seenCount(user: MailUser): Promise<number> {
  const client = await connectImap(user);
  try {
    const status = await client.status("INBOX", { messages: true, unseen: true });
    return status ? (status.messages ?? 0) - (status.unseen ?? 0) : 0;
  } finally {
    await client.logout();
  }
}

interface Totals {
  messages: number;
  runs: number;
  succeeded: number;
  distinctMessages: number;
  files: number;
  distinctFiles: number;
}

async function totals(db: Db): Promise<Totals> {
  const [row] = await db.query<Totals>(
    `select (select count(*)::int from mail_messages) as messages,
       (select count(*)::int from import_runs) as runs,
       (select count(*)::int from import_runs where status = 'succeeded') as succeeded,
       (select count(distinct mail_message_id)::int from import_runs) as "distinctMessages",
       (select count(*)::int from test_feed_files) as files,
       (select count(distinct file_name)::int from test_feed_files) as "distinctFiles"`,
  );
  return row;
}

Deno.test("100 messages through two crashes are each ingested exactly once", async () => {
  const database = await scratchDatabase();
  const env = processEnv(database.env);
  try {
    const user = await addMailUser(uniqueName("crash"));
    const sourceId = await prepare(env, user);
    await appendMany(user, 100);

    // 1. The poller dies right after the 40th claim has committed, before marking it.
    const poll = await runProcess(["poll", String(sourceId), "40"], env);
    assert.equal(poll.signal, "SIGKILL");
    const afterPoll = await withDb(env, totals);
    assert.equal(afterPoll.messages, 40);
    assert.equal(afterPoll.runs, 40);
    assert.equal(afterPoll.files, 0, "nothing is processed before the poll ends");

    // 2. A worker takes over and dies inside the import transaction of message 70.
    const crashed = await runProcess(["worker"], { ...env, TEST_FEED_CRASH_ON: "msg-070" });
    assert.equal(crashed.signal, "SIGKILL");

    // 3. A fresh worker finishes the job.
    const finished = await runProcess(["worker"], { ...env, EXIT_WHEN_DONE: "100" });
    assert.equal(finished.code, 0);

    const end = await withDb(env, totals);
    assert.deepEqual(end, {
      messages: 100,
      runs: 100,
      succeeded: 100,
      distinctMessages: 100,
      files: 100,
      distinctFiles: 100,
    });
    assert.equal(await seenCount(user), 100, "every message is marked, the 40th too");
  } finally {
    await database.drop();
  }
});

Deno.test({
  name: "two server processes on one PostgreSQL ingest each message once",
  ignore: !pgUrl,
  async fn() {
    const database = await scratchDatabase();
    const env = processEnv(database.env);
    try {
      const user = await addMailUser(uniqueName("twins"));
      await prepare(env, user);
      await appendMany(user, 30);
      const [a, b] = await Promise.all([
        runProcess(["server"], { ...env, PORT: "0", HOST: "127.0.0.1", EXIT_WHEN_DONE: "30" }),
        runProcess(["server"], { ...env, PORT: "0", HOST: "127.0.0.1", EXIT_WHEN_DONE: "30" }),
      ]);
      assert.equal(a.code, 0);
      assert.equal(b.code, 0);
      const end = await withDb(env, totals);
      assert.deepEqual(end, {
        messages: 30,
        runs: 30,
        succeeded: 30,
        distinctMessages: 30,
        files: 30,
        distinctFiles: 30,
      });
      assert.equal(await seenCount(user), 30);
    } finally {
      await database.drop();
    }
  },
});
