/**
 * Notification schedules as durable jobs: a due setting is sent once (also across a restart and
 * with two processes on one PostgreSQL), a mail server that is down is retried without marking
 * anything sent, consolidated mails combine settings, and a stale mailbox alerts once.
 */
import assert from "node:assert/strict";
import { recordPollOutcome } from "../ingest/mailbox_state.ts";
import { startTestServer, type TestServer } from "../../tests/support/server.ts";
import type { Deps } from "../deps.ts";
import type { SystemMessage } from "../mail/system_mail.ts";
import { runDueJobs } from "../jobs/runner.ts";
import { openDeps } from "../server.ts";
import {
  enqueueDueNotifications,
  enqueueMailboxAlerts,
  MAILBOX_HEALTH_JOB,
  NOTIFICATION_SEND_JOB,
} from "./jobs.ts";

const KINDS = [NOTIFICATION_SEND_JOB, MAILBOX_HEALTH_JOB];

/** A mailer that records what it was given, or fails while `down`. */
function fakeMailer(sent: SystemMessage[], state = { down: false }) {
  return {
    configured: true,
    send(message: SystemMessage) {
      if (state.down) return Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:25"));
      sent.push(message);
      return Promise.resolve();
    },
  };
}

async function addSetting(
  server: TestServer,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const values = {
    name: "Tracking daily",
    source_type_id: 3,
    notification_enabled: true,
    notification_interval: "Daily",
    time_zone: "UTC",
    override_email_recipients: "ops@example.com",
    consolidated_email: false,
    // set up three days ago: three 07:00 due times passed while "the server was down"
    last_scheduled: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    ...fields,
  };
  const columns = Object.keys(values);
  const [row] = await server.db.query<{ id: number }>(
    `insert into notification_settings (${columns.join(", ")})
     values (${columns.map((_, i) => `$${i + 1}`).join(", ")}) returning id`,
    Object.values(values),
  );
  return row.id;
}

async function settingState(server: TestServer, id: number) {
  const [row] = await server.db.query<{ sent: Date | null; scheduled: Date }>(
    `select last_notification_sent as sent, last_scheduled as scheduled
       from notification_settings where id = $1`,
    [id],
  );
  return row;
}

/** One tick of a process: schedule source, then the due jobs. */
async function tick(deps: Deps, now?: Date) {
  await enqueueDueNotifications(deps, now);
  return await runDueJobs(deps, { kinds: KINDS, log: () => {} });
}

Deno.test("a setting due during downtime is sent once, also after a restart", async () => {
  const server = await startTestServer();
  try {
    const sent: SystemMessage[] = [];
    const deps = { ...server.server.deps, mailer: fakeMailer(sent) };
    const id = await addSetting(server);
    const keys = await enqueueDueNotifications(deps);
    assert.equal(keys.length, 1);
    const today7 = new Date();
    today7.setUTCHours(7, 0, 0, 0);
    if (today7 > new Date()) today7.setUTCDate(today7.getUTCDate() - 1);
    assert.equal(keys[0], `notification:${id}:${today7.toISOString()}`);
    // the same tick again (a second process, or the timer and Deno.cron): no second job
    await enqueueDueNotifications(deps);
    const jobs = await server.db.query(`select id from jobs where kind = $1`, [
      NOTIFICATION_SEND_JOB,
    ]);
    assert.equal(jobs.length, 1);
    await runDueJobs(deps, { kinds: KINDS, log: () => {} });
    assert.equal(sent.length, 1);
    assert.equal(sent[0].to, "ops@example.com");
    assert.match(sent[0].subject, /Order Tracking summary/);
    assert.ok(sent[0].html?.includes("<html"));
    const state = await settingState(server, id);
    assert.ok(state.sent, "lastNotificationSent set");
    assert.equal(new Date(state.scheduled).toISOString(), today7.toISOString());

    // "restart": a new process ticks with the same data; nothing is due any more
    await tick(deps);
    await tick(deps);
    assert.equal(sent.length, 1);
    // the next due time (tomorrow 07:00) is due once
    const tomorrow = new Date(today7.getTime() + 86_400_000 + 60_000);
    await tick(deps, tomorrow);
    await tick(deps, tomorrow);
    assert.equal(sent.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("a mail server that is down: retried with back-off, marked sent once it accepts", async () => {
  const server = await startTestServer();
  try {
    const sent: SystemMessage[] = [];
    const mail = { down: true };
    const deps = { ...server.server.deps, mailer: fakeMailer(sent, mail) };
    const id = await addSetting(server);
    await tick(deps);
    const [job] = await server.db.query<{ status: string; attempts: number; later: boolean }>(
      `select status, attempts, run_at > now() + interval '20 seconds' as later from jobs
        where kind = $1`,
      [NOTIFICATION_SEND_JOB],
    );
    assert.deepEqual(job, { status: "queued", attempts: 1, later: true });
    assert.equal((await settingState(server, id)).sent, null);
    // ticks during the back-off neither run it nor add another job
    await tick(deps);
    await tick(deps);
    assert.equal((await server.db.query(`select id from jobs`)).length, 1);
    assert.equal(sent.length, 0);
    // the back-off is over and the server is back
    mail.down = false;
    await server.db.query(`update jobs set run_at = now()`);
    await tick(deps);
    assert.equal(sent.length, 1);
    assert.ok((await settingState(server, id)).sent);
    await tick(deps);
    assert.equal(sent.length, 1);
    const [done] = await server.db.query<{ status: string; attempts: number }>(
      `select status, attempts from jobs`,
    );
    assert.deepEqual(done, { status: "succeeded", attempts: 2 });
  } finally {
    await server.close();
  }
});

Deno.test("consolidated settings: one mail per recipient with a part per setting", async () => {
  const server = await startTestServer();
  try {
    const sent: SystemMessage[] = [];
    const deps = { ...server.server.deps, mailer: fakeMailer(sent) };
    await addSetting(server, {
      name: "First",
      consolidated_email: true,
      override_email_recipients: "a@example.com, b@example.com",
    });
    await addSetting(server, {
      name: "Second",
      consolidated_email: true,
      override_email_recipients: "a@example.com",
    });
    await addSetting(server, { name: "Alone", override_email_recipients: "c@example.com" });
    await tick(deps);
    const byTo = Object.fromEntries(sent.map((m) => [m.to, m]));
    assert.deepEqual(Object.keys(byTo).sort(), ["a@example.com", "b@example.com", "c@example.com"]);
    assert.match(byTo["a@example.com"].subject, /Notification summary: 2 settings/);
    assert.match(byTo["a@example.com"].text, /First/);
    assert.match(byTo["a@example.com"].text, /Second/);
    assert.doesNotMatch(byTo["b@example.com"].text, /Second/);
    await tick(deps);
    assert.equal(sent.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("a stale mailbox raises one error alert per incident", async () => {
  const server = await startTestServer({
    env: { MAILBOX_ALERT_HOURS: "6", PUBLIC_URL: "https://bo.example.test" },
  });
  try {
    const sent: SystemMessage[] = [];
    const deps = { ...server.server.deps, mailer: fakeMailer(sent) };
    await addSetting(server, {
      notification_interval: "None",
      override_email_recipients: "alerts@example.com",
    });
    const [{ id }] = await server.db.query<{ id: number }>(
      `insert into email_sources (username, email, incoming_server, created_at)
       values ('box', 'box@example.com', 'imap.example.com', now() - interval '2 days')
       returning id`,
    );
    const keys = await enqueueMailboxAlerts(deps);
    assert.deepEqual(keys, [`mailbox-health:${id}:never`]);
    await runDueJobs(deps, { kinds: KINDS, log: () => {} });
    assert.equal(sent.length, 1);
    assert.equal(sent[0].to, "alerts@example.com");
    assert.match(sent[0].subject, /box@example.com has not been polled successfully/);
    assert.match(sent[0].text, /https:\/\/bo\.example\.test\/email-sources\/edit\//);
    assert.deepEqual(await enqueueMailboxAlerts(deps), []);
    await tick(deps);
    assert.equal(sent.length, 1);
    // a successful poll ends the incident; a new stale period is a new incident
    await server.db.query(
      `insert into mailbox_state (email_source_id, mailbox, last_success_at)
       values ($1, 'INBOX', now() - interval '7 hours')`,
      [id],
    );
    assert.equal((await enqueueMailboxAlerts(deps)).length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("a mailbox that keeps failing raises one error alert before it is stale", async () => {
  const server = await startTestServer({
    env: { MAILBOX_ALERT_HOURS: "24", MAILBOX_ALERT_FAILURES: "3" },
  });
  try {
    const sent: SystemMessage[] = [];
    const deps = { ...server.server.deps, mailer: fakeMailer(sent) };
    await addSetting(server, {
      notification_interval: "None",
      override_email_recipients: "alerts@example.com",
    });
    const [{ id }] = await server.db.query<{ id: number }>(
      `insert into email_sources (username, email, incoming_server)
       values ('box', 'box@example.com', 'imap.example.com') returning id`,
    );
    await recordPollOutcome(server.db, id, "INBOX", null);
    await recordPollOutcome(server.db, id, "INBOX", "Could not connect.");
    await recordPollOutcome(server.db, id, "INBOX", "Could not connect.");
    assert.deepEqual(await enqueueMailboxAlerts(deps), [], "two failures are not an incident");
    await recordPollOutcome(server.db, id, "INBOX", "Could not connect.");
    const keys = await enqueueMailboxAlerts(deps);
    assert.equal(keys.length, 1);
    await runDueJobs(deps, { kinds: KINDS, log: () => {} });
    assert.equal(sent.length, 1);
    assert.match(sent[0].text, /3 polls failed in a row/);
    await recordPollOutcome(server.db, id, "INBOX", "Could not connect.");
    assert.deepEqual(await enqueueMailboxAlerts(deps), [], "one alert per incident");
    // A successful poll ends the incident and the count.
    await recordPollOutcome(server.db, id, "INBOX", null);
    assert.deepEqual(await enqueueMailboxAlerts(deps), []);
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "two processes on one PostgreSQL send a due notification once",
  ignore: !Deno.env.get("DATABASE_URL"),
  async fn() {
    const server = await startTestServer();
    const other = await openDeps(server.config, () => {});
    try {
      const sent: SystemMessage[] = [];
      const one = { ...server.server.deps, mailer: fakeMailer(sent) };
      const two = { ...other, mailer: fakeMailer(sent) };
      for (let i = 0; i < 5; i++) await addSetting(server, { name: `Setting ${i}` });
      await Promise.all([tick(one), tick(two), tick(one), tick(two)]);
      await Promise.all([tick(one), tick(two)]);
      assert.equal(sent.length, 5);
      const settings = await server.db.query(
        `select id from notification_settings where last_notification_sent is null`,
      );
      assert.equal(settings.length, 0);
    } finally {
      await other.db.close();
      await server.close();
    }
  },
});
