/**
 * Real delivery: a test send and a scheduled send travel through Postfix into Dovecot with the
 * sections the setting asks for (needs `bash tests/services/up.sh`).
 */
import assert from "node:assert/strict";
import PostalMime from "postal-mime";
import {
  addMailUser,
  connectImap,
  type MailUser,
  readServices,
  waitForMessages,
} from "../../tests/services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import { runDueJobs } from "../jobs/runner.ts";
import { enqueueDueNotifications, NOTIFICATION_SEND_JOB } from "./jobs.ts";
import type { NotificationSetting } from "../../shared/contract/notifications.ts";

async function readMessage(user: MailUser, seq: number) {
  const imap = await connectImap(user);
  try {
    await imap.mailboxOpen("INBOX");
    const message = await imap.fetchOne(String(seq), { source: true });
    assert.ok(message && message.source);
    return await PostalMime.parse(message.source);
  } finally {
    await imap.logout();
  }
}

Deno.test("notifications arrive in a real mailbox with the sections asked for", async () => {
  const info = readServices();
  const mailbox = await addMailUser(`notify-${crypto.randomUUID().slice(0, 8)}`);
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
    await server.db.query(
      `insert into email_sources (username, email) values ('box', 'box@example.com')`,
    );
    const [{ id: sourceId }] = await server.db.query<{ id: number }>(
      `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
         subject_value, attachment_name, unique_column)
       values ('Acme Tracking', (select min(id) from email_sources), 'csv', 'a@x.com', 's', 'a', 'u') returning id`,
    );
    await server.db.query(
      `insert into import_runs (feed, source_id, trigger, status, file_name, counts, error,
         finished_at)
       values ('order-tracking', $1, 'mail', 'failed', 'broken.csv', '{}', 'Missing column Qty',
               now() - interval '2 hours'),
              ('order-tracking', $1, 'mail', 'succeeded', 'good.csv', '{"processed": 12}', null,
               now() - interval '1 hour')`,
      [sourceId],
    );
    const created = await admin.post("/api/notification-settings", {
      name: "Acme daily",
      sourceTypeId: 3,
      sourceId,
      notificationEnabled: true,
      notificationInterval: "Daily",
      timeZone: "UTC",
      includeErrorAlerts: true,
      includeSuccessAlerts: false,
      includeDailyBreakdown: false,
      overrideEmailRecipients: mailbox.address,
      emailSubjectPrefix: "[BO]",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const setting = created.body as NotificationSetting;

    const test = await admin.post(`/api/notification-settings/${setting.id}/test`);
    assert.equal(test.status, 200, JSON.stringify(test.body));
    const result = test.body as { subject: string; recipients: string[]; details: string };
    assert.deepEqual(result.recipients, [mailbox.address]);
    assert.match(result.subject, /^\[BO\] Order Tracking summary: Acme Tracking/);
    await waitForMessages(mailbox, 1, 20_000);
    const first = await readMessage(mailbox, 1);
    assert.equal(first.subject, result.subject);
    assert.equal(first.from?.address, `back-office@${info.domain}`);
    assert.match(first.text ?? "", /Errors/);
    assert.match(first.text ?? "", /broken\.csv/);
    assert.match(first.text ?? "", /Missing column Qty/);
    assert.doesNotMatch(first.text ?? "", /Successful runs/);
    assert.doesNotMatch(first.text ?? "", /Daily breakdown/);
    assert.match(first.html ?? "", /broken\.csv/);
    assert.match(
      first.html ?? "",
      /https:\/\/backoffice\.example\.com\/notification-settings\/edit\//,
    );
    // a test send does not count as the scheduled send
    const afterTest = await admin.get(`/api/notification-settings/${setting.id}`);
    assert.equal((afterTest.body as NotificationSetting).lastNotificationSent, null);

    // the scheduled send: the setting was set up two days ago
    await server.db.query(
      `update notification_settings set last_scheduled = now() - interval '2 days'`,
    );
    const deps = server.server.deps;
    await enqueueDueNotifications(deps);
    await runDueJobs(deps, { kinds: [NOTIFICATION_SEND_JOB], log: () => {} });
    await enqueueDueNotifications(deps);
    await runDueJobs(deps, { kinds: [NOTIFICATION_SEND_JOB], log: () => {} });
    await waitForMessages(mailbox, 2, 20_000);
    const second = await readMessage(mailbox, 2);
    assert.match(second.subject ?? "", /1 failure/);
    assert.match(second.text ?? "", /broken\.csv/);
    const after = await admin.get(`/api/notification-settings/${setting.id}`);
    assert.ok((after.body as NotificationSetting).lastNotificationSent);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(await waitForMessages(mailbox, 2, 1000), 2, "no duplicate");
  } finally {
    await server.close();
  }
});
