/**
 * /api/notification-settings over HTTP: the contract, wrong users and wrong inputs.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import type { NotificationSetting } from "../../shared/contract/notifications.ts";

const BASE = "/api/notification-settings";

const newSetting = {
  name: "Daily tracking summary",
  sourceTypeId: 3,
  notificationEnabled: true,
  notificationInterval: "Weekly",
  notificationDayOfWeek: 3,
  cronExpression: "",
  timeZone: "Europe/Berlin",
  includeZeroQuantityAlerts: true,
  overrideEmailRecipients: "a@example.com; b@example.com",
  emailSubjectPrefix: "[BO]",
  consolidatedEmail: false,
};

Deno.test("notification settings: the contract over HTTP", async (t) => {
  const server = await startTestServer({ env: { SMTP_FROM: "back-office@example.com" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.db.query(
      `insert into email_sources (username, email) values ('box', 'box@example.com')`,
    );
    await server.db.query(
      `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
         subject_value, attachment_name, unique_column) values ('Acme Tracking', (select min(id) from email_sources), 'csv', 'a@x.com', 's', 'a', 'u')`,
    );
    const [{ id: sourceId }] = await server.db.query<{ id: number }>(
      `select id from order_tracking_sources`,
    );

    let created: NotificationSetting;
    await t.step("create, read, list", async () => {
      const response = await admin.post(BASE, { ...newSetting, sourceId });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      created = response.body as NotificationSetting;
      assert.ok(created.id > 0);
      assert.equal(created.sourceType, "OrderTracking");
      assert.equal(created.sourceName, "Acme Tracking");
      assert.equal(created.overrideEmailRecipients, "a@example.com, b@example.com");
      assert.equal(created.notificationDayOfWeek, 3);
      assert.equal(created.lastNotificationSent, null);
      assert.equal(created.includeZeroQuantityAlerts, true);
      assert.equal(created.includeStatusChanges, true);
      const one = await admin.get(`${BASE}/${created.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, created);
      const list = await admin.get(BASE);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, [created]);
    });

    await t.step("a source named by name; renamed sources show the new name", async () => {
      const byName = await admin.post(BASE, {
        ...newSetting,
        name: "By name",
        sourceName: "acme tracking",
      });
      assert.equal(byName.status, 200, JSON.stringify(byName.body));
      assert.equal((byName.body as NotificationSetting).sourceId, sourceId);
      await server.db.query(`update order_tracking_sources set source_name = 'Acme 2'`);
      const again = await admin.get(`${BASE}/${(byName.body as NotificationSetting).id}`);
      assert.equal((again.body as NotificationSetting).sourceName, "Acme 2");
      const all = await admin.post(BASE, { ...newSetting, name: "All", sourceTypeId: 1 });
      assert.equal(all.status, 200);
      assert.equal((all.body as NotificationSetting).sourceId, null);
      assert.equal((all.body as NotificationSetting).sourceName, "");
      const removed = await admin.request(
        "DELETE",
        `${BASE}/${(all.body as NotificationSetting).id}`,
      );
      assert.equal(removed.status, 204);
    });

    await t.step("update; schedule changes reset the schedule anchor", async () => {
      const response = await admin.request("PUT", `${BASE}/${created.id}`, {
        body: { ...created, notificationInterval: "Custom", cronExpression: "*/5 * * * *" },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const updated = response.body as NotificationSetting;
      assert.equal(updated.notificationInterval, "Custom");
      assert.equal(updated.cronExpression, "*/5 * * * *");
      assert.equal(updated.id, created.id);
    });

    await t.step("validate-cron", async () => {
      const ok = await admin.post(`${BASE}/validate-cron`, { cronExpression: "0 7 * * 1" });
      assert.equal(ok.status, 200);
      const body = ok.body as { isValid: boolean; message: string; nextExecution: string };
      assert.equal(body.isValid, true);
      assert.match(body.nextExecution, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
      assert.ok(new Date(body.nextExecution) > new Date());
      const bad = await admin.post(`${BASE}/validate-cron`, { cronExpression: "61 * * * *" });
      assert.equal(bad.status, 200);
      assert.equal((bad.body as { isValid: boolean }).isValid, false);
      assert.equal((bad.body as { nextExecution: null }).nextExecution, null);
      const never = await admin.post(`${BASE}/validate-cron`, { cronExpression: "0 0 30 2 *" });
      assert.equal((never.body as { message: string }).message, "The cron expression never runs");
      const wrongType = await admin.post(`${BASE}/validate-cron`, { cronExpression: 5 });
      assert.equal(wrongType.status, 400);
    });

    await t.step("email-info shows the sender and the recipient lists", async () => {
      await server.createUser({
        username: "inv",
        password: "inv-password-1",
        email: "inv@example.com",
        inventoryUser: true,
      });
      await server.createUser({
        username: "quiet",
        password: "quiet-password-1",
        email: "quiet@example.com",
        inventoryUser: true,
      });
      await server.db.query(
        `update users set send_notifications_to_email = true where username = 'inv'`,
      );
      const info = await admin.get(`${BASE}/email-info`);
      assert.equal(info.status, 200);
      const body = info.body as { fromEmail: string; recipients: Record<string, string[]> };
      assert.equal(body.fromEmail, "back-office@example.com");
      assert.deepEqual(body.recipients, {
        inventory: ["inv@example.com"],
        submission: [],
        order: [],
      });
    });

    await t.step("wrong inputs: 400 with a message", async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ ...newSetting, sourceTypeId: 9 }, /Source type must be/],
        [{ ...newSetting, sourceTypeId: "x" }, /Source type/],
        [{ ...newSetting, name: "" }, /Notification name is required/],
        [{ ...newSetting, notificationInterval: "Hourly" }, /Notification interval must be/],
        [
          { ...newSetting, notificationInterval: "Custom", cronExpression: "" },
          /Cron expression is required/,
        ],
        [
          { ...newSetting, notificationInterval: "Custom", cronExpression: "99 * * * *" },
          /Invalid cron/,
        ],
        [
          { ...newSetting, notificationEnabled: "maybe" },
          /notificationEnabled must be true or false/,
        ],
        [{ ...newSetting, notificationDayOfWeek: 8 }, /notificationDayOfWeek/],
        [
          { ...newSetting, overrideEmailRecipients: "ok@example.com, bad, x@" },
          /Not valid e-mail addresses: "bad", "x@"/,
        ],
        [{ ...newSetting, timeZone: "Mars/Base" }, /Unknown time zone/],
        [{ ...newSetting, sourceId: 9999 }, /Unknown source/],
        [{ ...newSetting, sourceName: "Nope" }, /Unknown source.*"Nope"/],
      ];
      for (const [payload, message] of cases) {
        const response = await admin.post(BASE, payload);
        assert.equal(response.status, 400, JSON.stringify(payload));
        const text = (response.body as { message: string }).message;
        assert.match(text, message, `${JSON.stringify(payload)} → ${text}`);
      }
      const count = await server.db.query(`select id from notification_settings`);
      assert.equal(count.length, 2);
    });

    await t.step("unknown ids: 404", async () => {
      assert.equal((await admin.get(`${BASE}/9999`)).status, 404);
      assert.equal(
        (await admin.request("PUT", `${BASE}/9999`, { body: newSetting })).status,
        404,
      );
      assert.equal((await admin.request("DELETE", `${BASE}/9999`)).status, 404);
      assert.equal((await admin.post(`${BASE}/9999/test`)).status, 404);
      assert.equal((await admin.get(`${BASE}/abc`)).status, 400);
    });

    await t.step("test without a mail server: an error naming the cause", async () => {
      const response = await admin.post(`${BASE}/${created.id}/test`);
      assert.equal(response.status, 502);
      assert.match((response.body as { message: string }).message, /not configured/);
    });

    await t.step("wrong users: anonymous 401, no flag 403, any flag or admin allowed", async () => {
      const anonymous = testClient(server.url);
      assert.equal((await anonymous.get(BASE)).status, 401);
      assert.equal(
        (await anonymous.post(`${BASE}/validate-cron`, { cronExpression: "* * * * *" })).status,
        401,
      );
      await server.createUser({ username: "noflag", password: "noflag-password-1" });
      const noFlag = testClient(server.url);
      await noFlag.login("noflag", "noflag-password-1");
      assert.equal((await noFlag.get(BASE)).status, 403);
      assert.equal((await noFlag.get(`${BASE}/email-info`)).status, 403);
      assert.equal((await noFlag.post(BASE, newSetting)).status, 403);
      assert.equal((await noFlag.request("DELETE", `${BASE}/${created.id}`)).status, 403);
      const inv = testClient(server.url);
      await inv.login("inv", "inv-password-1");
      assert.equal((await inv.get(BASE)).status, 200);
      await server.createUser({
        username: "bare-admin",
        password: "bare-admin-password",
        isAdmin: true,
      });
      const bareAdmin = testClient(server.url);
      await bareAdmin.login("bare-admin", "bare-admin-password");
      assert.equal((await bareAdmin.get(BASE)).status, 200);
    });

    await t.step("sources: the picker lists the live sources of a type to any flag", async () => {
      const emailSourceId = `(select min(id) from email_sources)`;
      await server.db.query(
        `insert into inventory_sources (source_name, deleted_status) values
           ('Zeta Stock', false), ('Alpha Stock', false), ('Gone Stock', true)`,
      );
      await server.db.query(
        `insert into order_submission_sources (source_name, email_source_id, from_email,
           subject_value, deleted_status) values
           ('Orders In', ${emailSourceId}, 'o@x.com', 'Orders', false),
           ('Old Orders', ${emailSourceId}, 'o@x.com', 'Orders', true)`,
      );
      await server.db.query(
        `insert into vendor_sources (order_submission_source_id, vendor_name_from_file,
           send_from_email_source_id, submit_emails, submit_email_subject_line, deleted_status)
         select s.id, v.name, ${emailSourceId}, 'v@x.com', 'PO', v.deleted
           from order_submission_sources s,
                (values ('Acme Supply', false), ('Bolt Co', false), ('Dead Vendor', true))
                  as v(name, deleted)
          where s.source_name = 'Orders In'`,
      );
      const inv = testClient(server.url); // inventoryUser only: not an order user
      await inv.login("inv", "inv-password-1");
      const names = async (typeId: number) => {
        const answer = await inv.get(`${BASE}/sources?sourceTypeId=${typeId}`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const list = answer.body as { id: number; sourceName: string }[];
        assert.ok(list.every((entry) => typeof entry.id === "number"));
        return list.map((entry) => entry.sourceName);
      };
      assert.deepEqual(await names(1), ["Alpha Stock", "Zeta Stock"]);
      assert.deepEqual(await names(2), ["Orders In"]);
      assert.deepEqual(await names(3), ["Acme 2"]); // renamed by an earlier step
      assert.deepEqual(await names(4), ["Acme Supply", "Bolt Co"]);
      assert.equal((await inv.get(`${BASE}/sources?sourceTypeId=9`)).status, 400);
      assert.equal((await inv.get(`${BASE}/sources`)).status, 400);
      const noFlag = testClient(server.url);
      await noFlag.login("noflag", "noflag-password-1");
      assert.equal((await noFlag.get(`${BASE}/sources?sourceTypeId=1`)).status, 403);

      // A setting names an inventory source and a vendor by id (and a vendor by name).
      const [{ id: stockId }] = await server.db.query<{ id: number }>(
        `select id from inventory_sources where source_name = 'Zeta Stock'`,
      );
      const stock = await admin.post(BASE, { ...newSetting, sourceTypeId: 1, sourceId: stockId });
      assert.equal(stock.status, 200, JSON.stringify(stock.body));
      assert.equal((stock.body as NotificationSetting).sourceName, "Zeta Stock");
      const vendor = await admin.post(BASE, {
        ...newSetting,
        sourceTypeId: 4,
        sourceName: "bolt co",
      });
      assert.equal(vendor.status, 200, JSON.stringify(vendor.body));
      assert.equal((vendor.body as NotificationSetting).sourceName, "Bolt Co");
      const [{ id: goneId }] = await server.db.query<{ id: number }>(
        `select id from inventory_sources where source_name = 'Gone Stock'`,
      );
      const gone = await admin.post(BASE, { ...newSetting, sourceTypeId: 1, sourceId: goneId });
      assert.equal(gone.status, 400);
      for (const body of [stock.body, vendor.body]) {
        await admin.request("DELETE", `${BASE}/${(body as NotificationSetting).id}`);
      }
    });

    await t.step("delete", async () => {
      assert.equal((await admin.request("DELETE", `${BASE}/${created.id}`)).status, 204);
      assert.equal((await admin.get(`${BASE}/${created.id}`)).status, 404);
    });
  } finally {
    await server.close();
  }
});
