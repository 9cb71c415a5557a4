/**
 * Incidents through the real Postfix and Dovecot (needs the test services): a source that starts
 * failing raises one alert, however often the job runs; when it works again, one "recovered"
 * message; links start with PUBLIC_URL. Also the transitions without mail.
 */
import assert from "node:assert/strict";
import { addMailUser, readServices } from "../../tests/services/services.ts";
import { readMail } from "../../tests/support/mail_read.ts";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import { createSource, csv, HEADERS, orderRow } from "../../tests/support/order_tracking.ts";
import { runImport } from "../ingest/import_runs.ts";
import { checkIncidents, incidentsSchedule } from "./incidents.ts";
import { enqueueDueSchedules } from "../jobs/schedules.ts";
import { runDueJobs } from "../jobs/runner.ts";
import { WEBHOOK_JOB } from "../notifications/channels.ts";

const GOOD = csv([HEADERS, orderRow("PO-1", "C", "V")]);
const BAD = csv([["Nothing"], ["here"]]);

Deno.test("a failing source is alerted once and its recovery once, by e-mail", async () => {
  const info = readServices();
  const mailbox = await addMailUser(`incident-${crypto.randomUUID().slice(0, 8)}`);
  const server = await startTestServer({
    env: {
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
      PUBLIC_URL: "https://backoffice.example.com",
    },
  });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.db.query(`update users set order_user = true where username = 'admin'`);
    const sourceId = await createSource(admin, { sourceName: "Bolt Parts" });
    const saved = await admin.post("/api/notification-settings", {
      name: "Order tracking alerts",
      sourceTypeId: 3,
      notificationEnabled: true,
      notificationInterval: "Daily",
      timeZone: "UTC",
      includeErrorAlerts: true,
      overrideEmailRecipients: mailbox.address,
      emailSubjectPrefix: "[BO]",
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const deps = server.server.deps;
    const run = (bytes: string, fileName: string) =>
      runImport(deps, {
        feed: "order-tracking",
        sourceId,
        trigger: "cli",
        fileName,
        bytes: new TextEncoder().encode(bytes),
      });

    await run(GOOD, "monday.csv");
    assert.deepEqual(await checkIncidents(deps), []);
    await run(BAD, "tuesday.csv");
    const opened = await checkIncidents(deps);
    assert.deepEqual(opened.map((e) => [e.kind, e.state]), [["incident", "failing"]]);
    // The job runs every minute: the same incident is not announced again.
    assert.deepEqual(await checkIncidents(deps), []);
    await run(BAD, "tuesday-again.csv");
    assert.deepEqual(await checkIncidents(deps), []);
    await run(GOOD, "wednesday.csv");
    const ended = await checkIncidents(deps);
    assert.deepEqual(ended.map((e) => [e.kind, e.state]), [["recovered", "failing"]]);
    assert.deepEqual(await checkIncidents(deps), []);

    const [alert, recovered] = await readMail(mailbox, 2);
    assert.equal(alert.subject, '[BO] Failing: Order Tracking source "Bolt Parts"');
    assert.match(alert.text, /The last file \(tuesday\.csv\) failed\./);
    assert.match(alert.text, /Last result: Failed: /);
    assert.match(
      alert.text,
      new RegExp(
        `https://backoffice\\.example\\.com/runs\\?area=order-tracking&sourceId=${sourceId}`,
      ),
    );
    assert.match(
      alert.html,
      /href="https:\/\/backoffice\.example\.com\/order-tracking-sources\/edit\//,
    );
    assert.equal(recovered.subject, '[BO] Recovered: Order Tracking source "Bolt Parts"');
    assert.match(recovered.text, /is ok again: it was failing for \d+ minutes?, from /);
  } finally {
    await server.close();
  }
});

Deno.test("incidents: a stale source opens one, made inactive it ends silently", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const sourceId = await createSource(admin, { sourceName: "Quiet Feed" });
    const deps = server.server.deps;
    // Set up 30 hours ago, no file since: stale (the default window is 24 hours).
    await server.db.query(
      `update order_tracking_sources set created_at = now() - interval '30 hours' where id = $1`,
      [sourceId],
    );
    // Through the job runner, as the schedule runs it every minute.
    await incidentsSchedule(deps);
    assert.deepEqual(await enqueueDueSchedules(deps.db), ["dashboard-incidents"]);
    await runDueJobs(deps);
    const [opened] = await server.db.query<{ state: string; sent: boolean }>(
      `select state, alert_sent as sent from source_states
        where area = 'order-tracking' and source_id = $1`,
      [sourceId],
    );
    assert.deepEqual(opened, { state: "stale", sent: true });
    assert.deepEqual(await checkIncidents(deps), []);
    await server.db.query(`update order_tracking_sources set active_status = false where id = $1`, [
      sourceId,
    ]);
    // Made inactive: the incident ends without a "recovered" message.
    assert.deepEqual(await checkIncidents(deps), []);
    const [row] = await server.db.query<{ state: string; incident: Date | null }>(
      `select state, incident_since as incident from source_states
        where area = 'order-tracking' and source_id = $1`,
      [sourceId],
    );
    assert.deepEqual(row, { state: "inactive", incident: null });
  } finally {
    await server.close();
  }
});

Deno.test("an incident and its recovery are posted once each to the setting's webhook", async () => {
  const received: { kind: string; title: string }[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json() as { kind: string; title: string };
    received.push({ kind: body.kind, title: body.title });
    return new Response("ok");
  });
  const server = await startTestServer({
    env: { OUTBOUND_ALLOW: "127.0.0.1/32", PUBLIC_URL: "https://backoffice.example.com" },
  });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const sourceId = await createSource(admin, { sourceName: "Hook Parts" });
    // No e-mail recipient: the webhook alone is told.
    await server.db.query(`update users set send_notifications_to_email = false`);
    const saved = await admin.post("/api/notification-settings", {
      name: "Order tracking alerts to chat",
      sourceTypeId: 3,
      notificationEnabled: true,
      notificationInterval: "Daily",
      timeZone: "UTC",
      includeErrorAlerts: true,
      webhookPreset: "json",
      webhookUrl: `http://127.0.0.1:${hook.addr.port}/hooks/ops`,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const deps = server.server.deps;
    const run = (bytes: string, fileName: string) =>
      runImport(deps, {
        feed: "order-tracking",
        sourceId,
        trigger: "cli",
        fileName,
        bytes: new TextEncoder().encode(bytes),
      });
    const post = () => runDueJobs(deps, { kinds: [WEBHOOK_JOB], log: () => {} });

    await run(BAD, "tuesday.csv");
    assert.equal((await checkIncidents(deps)).length, 1);
    assert.deepEqual(await checkIncidents(deps), []);
    await post();
    await run(GOOD, "wednesday.csv");
    assert.equal((await checkIncidents(deps)).length, 1);
    await post();
    await post();
    assert.deepEqual(received, [
      { kind: "incident", title: 'Failing: Order Tracking source "Hook Parts"' },
      { kind: "recovered", title: 'Recovered: Order Tracking source "Hook Parts"' },
    ]);
  } finally {
    await server.close();
    await hook.shutdown();
  }
});
