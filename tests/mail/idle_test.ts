/**
 * IMAP IDLE listeners on the real Dovecot/Postfix (docs/mail_ingestion.md, "Listening"): a mail
 * becomes a run within seconds although the poll interval is 300 s; a session cut from the
 * server's side reconnects and what arrived meanwhile is ingested exactly once; several processes
 * on one PostgreSQL hold one listener per mailbox. Needs the loopback mail servers.
 */
import assert from "node:assert/strict";
import type { Db } from "../../api/db/client.ts";
import { openDeps } from "../../api/server.ts";
import { loadConfig } from "../../api/config.ts";
import { generateSecretKey } from "../../api/secrets.ts";
import { saveEmailSource } from "../../api/email_sources/queries.ts";
import { emailSourceSave } from "../../shared/contract/email_sources.ts";
import { freshPostgresDatabase } from "../support/db.ts";
import { TEST_OUTBOUND_ALLOW } from "../support/server.ts";
import { startMailListeners } from "../../api/ingest/mail_listeners.ts";
import {
  addMailUser,
  appendMessage,
  doveadm,
  type MailUser,
  readServices,
  sendMail,
} from "../services/services.ts";
import { dropImapConnections } from "../services/imap.ts";
import { type MailFixture, mailFixture, sourceFor, uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";
import { addTestRule, setupTestFeed } from "./test_feed.ts";

const SUPPLIER = "supplier@example.test";
const PUSH_ENV = { MAIL_POLL_SECONDS: "300", JOBS_TICK_SECONDS: "1" };

async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function listenerMode(db: Db, id: number): Promise<string | null> {
  const [row] = await db.query<{ mode: string }>(
    `select mode from mailbox_listeners where email_source_id = $1 and lease_until > now()`,
    [id],
  );
  return row?.mode ?? null;
}

async function runsFor(db: Db, subject: string) {
  return await db.query<{ status: string }>(
    `select r.status from import_runs r join mail_messages m on m.id = r.mail_message_id
      where m.subject = $1`,
    [subject],
  );
}

async function withRule(fixture: MailFixture): Promise<void> {
  await addTestRule(fixture.server.db, {
    emailSourceId: fixture.emailSourceId,
    fromEmail: SUPPLIER,
    subjectValue: "Stock",
    containsNotExact: true,
    attachmentName: "",
    fileType: "csv",
    expectedAttachmentCount: null,
  });
}

const mail = (user: MailUser, subject: string) => ({
  from: SUPPLIER,
  to: user.address,
  subject,
  attachments: [{ filename: "stock.csv", content: "item,qty\nA1,5\n" }],
});

Deno.test("a mail becomes a run within seconds with a 300 s poll interval (IDLE)", async () => {
  const fixture = await mailFixture({ jobs: true, env: PUSH_ENV });
  const { db } = fixture.server;
  try {
    await withRule(fixture);
    await waitFor(
      "the listener",
      async () => await listenerMode(db, fixture.emailSourceId) === "idle",
    );
    // The first poll (at start) has run: the next one is minutes away.
    await waitFor("the first poll", async () => {
      const [row] = await db.query<{ far: boolean }>(
        `select next_run_at > now() + interval '200 seconds' as far from job_schedules
          where name = $1 and last_enqueued_at is not null`,
        [`mail-poll:${fixture.emailSourceId}`],
      );
      return row?.far;
    });
    const started = Date.now();
    await sendMail(mail(fixture.user, "Stock push 1"));
    await waitFor(
      "the run",
      async () => (await runsFor(db, "Stock push 1"))[0]?.status === "succeeded",
    );
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds < 20, `took ${seconds} s`);
    const [schedule] = await db.query<{ far: boolean }>(
      `select next_run_at > now() + interval '200 seconds' as far from job_schedules where name = $1`,
      [`mail-poll:${fixture.emailSourceId}`],
    );
    assert.equal(schedule.far, true, "the periodic poll did not run meanwhile");
  } finally {
    await fixture.server.close();
  }
});

Deno.test("a listener cut by the server reconnects; mail that came meanwhile is taken once", async () => {
  const fixture = await mailFixture({ jobs: true, env: PUSH_ENV });
  const { db } = fixture.server;
  try {
    await withRule(fixture);
    await waitFor(
      "the listener",
      async () => await listenerMode(db, fixture.emailSourceId) === "idle",
    );
    await dropImapConnections(fixture.user); // doveadm kick
    // Stored while the listener waits for its reconnect (1 s back-off at least).
    await appendMessage(
      fixture.user,
      rawMessage({
        from: SUPPLIER,
        to: fixture.user.address,
        subject: "Stock while down",
        attachments: [{ name: "stock.csv", content: "item,qty\nA1,5\n" }],
      }),
    );
    await waitFor(
      "the run",
      async () => (await runsFor(db, "Stock while down"))[0]?.status === "succeeded",
    );
    await waitFor(
      "the listener again",
      async () => await listenerMode(db, fixture.emailSourceId) === "idle",
    );
    // Push works on the new session too.
    await sendMail(mail(fixture.user, "Stock after reconnect"));
    await waitFor(
      "the second run",
      async () => (await runsFor(db, "Stock after reconnect"))[0]?.status === "succeeded",
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await runsFor(db, "Stock while down")).length, 1, "exactly once");
    assert.equal((await runsFor(db, "Stock after reconnect")).length, 1, "exactly once");
  } finally {
    await fixture.server.close();
  }
});

Deno.test("listeners follow source changes: deactivated, changed, deleted", async () => {
  const fixture = await mailFixture({ jobs: false, env: PUSH_ENV });
  const { db } = fixture.server;
  const listeners = startMailListeners(fixture.server.server.deps, { owner: "changes" });
  try {
    await listeners.reconcile();
    assert.deepEqual(listeners.listening(), [fixture.emailSourceId]);
    await db.query(`update email_sources set active_status = false where id = $1`, [
      fixture.emailSourceId,
    ]);
    await listeners.reconcile();
    assert.deepEqual(listeners.listening(), []);
    await db.query(`update email_sources set active_status = true where id = $1`, [
      fixture.emailSourceId,
    ]);
    await listeners.reconcile();
    await waitFor(
      "the listener",
      async () => await listenerMode(db, fixture.emailSourceId) === "idle",
    );
    // A wrong password: the listener restarts with the new details and reports it is down.
    const saved = await fixture.admin.post("/api/email-sources/email/save", {
      ...sourceFor(fixture.user, fixture.emailSourceId),
      password: "wrong-password",
    });
    assert.equal(saved.status, 200);
    await listeners.reconcile();
    await waitFor(
      "the listener down",
      async () => await listenerMode(db, fixture.emailSourceId) === "down",
    );
    const deleted = await fixture.admin.post(
      `/api/email-sources/delete/${fixture.emailSourceId}`,
      {},
    );
    assert.equal(deleted.status, 204);
    await listeners.reconcile();
    assert.deepEqual(listeners.listening(), []);
  } finally {
    await listeners.stop();
    await fixture.server.close();
  }
});

Deno.test({
  name: "two processes on one PostgreSQL hold one listener per mailbox",
  ignore: !Deno.env.get("DATABASE_URL"),
  async fn() {
    // Processes of one deployment share SECRET_KEY: without one, each made a key of its own, and
    // the mailboxes the second process took failed to read their passwords (a flaky failure).
    const fixture = await mailFixture({
      jobs: false,
      env: { ...PUSH_ENV, SECRET_KEY: generateSecretKey() },
    });
    const other = await openDeps(fixture.server.config, () => {});
    const users = [fixture.user];
    const ids = [fixture.emailSourceId];
    for (let i = 0; i < 2; i++) {
      const user = await addMailUser(uniqueName("twin"));
      const saved = await fixture.admin.post("/api/email-sources/email/save", sourceFor(user));
      users.push(user);
      ids.push((saved.body as { id: number }).id);
    }
    const a = startMailListeners(fixture.server.server.deps, { owner: "process-a" });
    const b = startMailListeners(other, { owner: "process-b" });
    try {
      await Promise.all([a.reconcile(), b.reconcile(), a.reconcile(), b.reconcile()]);
      const held = [...a.listening(), ...b.listening()].sort((x, y) => x - y);
      assert.deepEqual(held, [...ids].sort((x, y) => x - y), "each mailbox once");
      for (const id of ids) {
        await waitFor(
          `listener ${id}`,
          async () => await listenerMode(fixture.server.db, id) === "idle",
        );
      }
      // Dovecot sees one lasting session per mailbox, the listener's (a poll's session is short).
      for (const user of users) {
        await waitFor(`one session of ${user.address}`, async () => {
          const who = await doveadm(["who", "-1", user.address], [0, 68]);
          return who.stdout.split("\n").filter((line) => line.includes(user.address)).length === 1;
        });
      }
      // One process stops: the other takes its mailboxes at its next reconcile.
      await a.stop();
      await b.reconcile();
      assert.deepEqual([...b.listening()].sort((x, y) => x - y), [...ids].sort((x, y) => x - y));
    } finally {
      await a.stop();
      await b.stop();
      await other.db.close();
      await fixture.server.close();
    }
  },
});

Deno.test({
  name: "two worker processes on one PostgreSQL: one listener per mailbox, taken over on a crash",
  ignore: !Deno.env.get("DATABASE_URL"),
  async fn() {
    const pg = await freshPostgresDatabase(Deno.env.get("DATABASE_URL")!);
    const env = {
      DATABASE_URL: pg.url,
      DATA_DIR: "memory://",
      SECRET_KEY: generateSecretKey(),
      ADMIN_PASSWORD: "admin-test-password",
      MAIL_CA_FILE: readServices().caPath,
      OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
      LOG_LEVEL: "error",
      // A killed process's poll lease (if it died in a poll) runs out quickly too.
      JOB_LEASE_SECONDS: "5",
      ...PUSH_ENV,
    };
    const deps = await openDeps(loadConfig(env), () => {});
    const children: Deno.ChildProcess[] = [];
    try {
      await setupTestFeed(deps.db);
      const users: MailUser[] = [];
      for (let i = 0; i < 4; i++) {
        const user = await addMailUser(uniqueName("proc"));
        const id = await saveEmailSource(
          deps.db,
          deps.secrets,
          emailSourceSave.parse(sourceFor(user)),
        );
        await addTestRule(deps.db, {
          emailSourceId: id,
          fromEmail: SUPPLIER,
          subjectValue: "Stock",
          containsNotExact: true,
          attachmentName: "",
          fileType: "csv",
          expectedAttachmentCount: null,
        });
        users.push(user);
      }
      const script = new URL("./ingest_process.ts", import.meta.url).pathname;
      for (let i = 0; i < 2; i++) {
        children.push(
          new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", script, "worker"],
            env,
            stdout: "null",
            stderr: "null",
          }).spawn(),
        );
      }
      const owners = async () =>
        await deps.db.query<{ owner: string; mode: string }>(
          `select owner, mode from mailbox_listeners where lease_until > now() order by email_source_id`,
        );
      await waitFor("four listeners", async () => {
        const rows = await owners();
        return rows.length === 4 && rows.every((r) => r.mode === "idle");
      }, 60_000);
      for (const user of users) {
        await waitFor(`one session of ${user.address}`, async () => {
          const who = await doveadm(["who", "-1", user.address], [0, 68]);
          return who.stdout.split("\n").filter((line) => line.includes(user.address)).length === 1;
        });
      }
      for (const [i, user] of users.entries()) await sendMail(mail(user, `Stock two ${i}`));
      for (let i = 0; i < users.length; i++) {
        await waitFor(
          `run ${i}`,
          async () => (await runsFor(deps.db, `Stock two ${i}`))[0]?.status === "succeeded",
        );
      }
      // The process listening to the first mailbox dies without giving anything back: its leases
      // run out (30 s) and the other process listens to every mailbox (owner names hold the pid).
      const [first] = await owners();
      const victim = children.find((child) => first.owner.includes(`:${child.pid}:`))!;
      assert.ok(victim, first.owner);
      victim.kill("SIGKILL");
      await victim.status;
      await waitFor("the other process listening to every mailbox", async () => {
        const rows = await owners();
        return rows.length === 4 && rows.every((r) => r.owner !== first.owner && r.mode === "idle");
      }, 90_000);
      for (const [i, user] of users.entries()) await sendMail(mail(user, `Stock after ${i}`));
      for (let i = 0; i < users.length; i++) {
        await waitFor(
          `run after ${i}`,
          async () => (await runsFor(deps.db, `Stock after ${i}`))[0]?.status === "succeeded",
        ).catch(async (error) => {
          console.error(
            await deps.db.query(
              `select email_source_id, lease_owner, lease_until, now() as now from mailbox_state`,
            ),
            await deps.db.query(`select subject, status from mail_messages`),
            await deps.db.query(
              `select kind, status, locked_by from jobs where status <> 'succeeded'`,
            ),
          );
          throw error;
        });
      }
      const [counts] = await deps.db.query<{ runs: number; distinct: number }>(
        `select count(*)::int as runs, count(distinct mail_message_id)::int as distinct
           from import_runs`,
      );
      assert.deepEqual(counts, { runs: 8, distinct: 8 }, "each mail once");
    } finally {
      for (const child of children) {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        await child.status;
      }
      await deps.db.close();
      await pg.drop();
    }
  },
});
