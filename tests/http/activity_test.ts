/** The activity log over real HTTP: what is recorded, what never is, who may read it, retention. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, defaultEmailSourceId, sourcePayload } from "../support/order_tracking.ts";
import { saveMailbox, sourcePayload as inventoryPayload } from "../support/inventory.ts";
import { pruneActivity } from "../../api/activity/queries.ts";
import type { ActivityEntry, ActivityPage } from "../../shared/contract/activity.ts";
import { describeActivity } from "../../shared/contract/activity.ts";

const SECRET = "mailbox-secret-Zq81";
const NEW_SECRET = "rotated-secret-Wp44";

const mailbox = {
  id: 0,
  username: "activity@example.test",
  email: "activity@example.test",
  password: SECRET,
  incomingServer: "127.0.0.1",
  outgoingServer: "127.0.0.1",
  incomingPort: 9,
  outgoingPort: 9,
  ssl: false,
  isMsal: false,
  msalClientId: "",
  msalTennentId: "",
};

Deno.test("activity log", async (t) => {
  const server = await startTestServer();
  const { url, db } = server;
  const admin = testClient(url);
  const list = async (query: string) => {
    const response = await admin.get(`/api/activity?${query}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as ActivityPage;
  };
  try {
    await admin.login("admin", ADMIN_PASSWORD);

    await t.step("a sign-in is recorded with the client's address", async () => {
      const page = await list("action=signed in");
      assert.equal(page.entries[0].username, "admin");
      assert.equal(page.entries[0].address, "127.0.0.1");
    });

    await t.step("a failed sign-in is recorded with the name tried and the address", async () => {
      const failed = await testClient(url).post("/auth/login", {
        username: "mallory",
        password: "wrong-password-1",
      });
      assert.equal(failed.status, 401);
      const page = await list("action=sign-in failed");
      assert.equal(page.total, 1);
      const [entry] = page.entries;
      assert.equal(entry.username, "mallory");
      assert.equal(entry.userId, null);
      assert.equal(entry.address, "127.0.0.1");
      assert.equal(describeActivity(entry), 'Sign-in failed for "mallory"');
    });

    await t.step("changing an order tracking source records the changed fields", async () => {
      await defaultEmailSourceId(admin);
      const id = await createSource(admin, { sourceName: "Acme" });
      const saved = await admin.post(
        "/api/order-tracking-sources/save",
        sourcePayload({
          Id: id,
          sourceName: "Acme",
          subjectValue: "New subject",
          activeStatus: false,
        }),
      );
      assert.equal(saved.status, 200);
      const page = await list(`entityType=order-tracking-source&entityId=${id}`);
      assert.deepEqual(page.entries.map((e) => e.action), ["changed", "created"]);
      const [changed] = page.entries;
      assert.equal(changed.username, "admin");
      assert.equal(changed.entityName, "Acme");
      assert.deepEqual(
        changed.changes.map((c) => [c.label, c.before, c.after]),
        [["Subject", "Daily order status", "New subject"], ["Active", true, false]],
      );
      assert.equal(
        describeActivity(changed),
        'admin changed order tracking source "Acme": Subject, Active',
      );
    });

    await t.step(
      "an e-mail source's new password is 'password changed', never the value",
      async () => {
        const created = await admin.post("/api/email-sources/email/save", mailbox);
        assert.equal(created.status, 200);
        const id = (created.body as { id: number }).id;
        const changed = await admin.post("/api/email-sources/email/save", {
          ...mailbox,
          id,
          password: NEW_SECRET,
        });
        assert.equal(changed.status, 200);
        const page = await list(`entityType=email-source&entityId=${id}`);
        const entry = page.entries.find((e) => e.action === "changed") as ActivityEntry;
        assert.deepEqual(entry.changes, [{
          field: "password_enc",
          label: "Password",
          hidden: "secret",
        }]);
        assert.equal(
          describeActivity(entry),
          'admin changed e-mail source "activity@example.test": password changed',
        );
        const answer = JSON.stringify((await admin.get("/api/activity?pageSize=200")).body);
        const stored = JSON.stringify(await db.query("select * from activity"));
        for (const text of [answer, stored]) {
          assert.ok(!text.includes(SECRET) && !text.includes(NEW_SECRET));
          // Not even the encrypted form is kept.
          assert.ok(!/v1\.[0-9a-f]{8}\./.test(text));
        }
      },
    );

    await t.step("filters narrow the list; paging counts the whole", async () => {
      const all = await list("pageSize=2&page=1");
      assert.ok(all.total > 2);
      assert.equal(all.entries.length, 2);
      const second = await list("pageSize=2&page=2");
      assert.notEqual(second.entries[0].id, all.entries[0].id);
      assert.equal((await list("user=MALLORY")).total, 1);
      assert.equal((await list("from=2000-01-01&to=2000-12-31")).total, 0);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await list(`from=${today}&to=${today}`)).total, all.total);
      const bad = await admin.get("/api/activity?from=yesterday");
      assert.equal(bad.status, 400);
    });

    await t.step("a user who is not Admin is refused with 403", async () => {
      await server.createUser({ username: "bob", password: "bob-password-1", orderUser: true });
      const bob = testClient(url);
      await bob.login("bob", "bob-password-1");
      assert.equal((await bob.get("/api/activity")).status, 403);
      assert.equal((await testClient(url).get("/api/activity")).status, 401);
    });

    await t.step("an admin's new password for a user is 'password changed' only", async () => {
      const bobId =
        (await db.query<{ id: number }>("select id from users where username = 'bob'"))[0].id;
      const account = (await admin.get(`/api/accounts/user/${bobId}`)).body as Record<
        string,
        unknown
      >;
      const saved = await admin.post("/api/accounts/update/user", {
        ...account,
        userId: bobId,
        firstName: "Bob",
        email: "bob@example.test",
        password: "bob-new-password-77",
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const [entry] = (await list(`entityType=user&entityId=${bobId}&action=changed`)).entries;
      assert.equal(
        describeActivity(entry),
        'admin changed user "bob": E-mail, First name, password changed',
      );
      const stored = JSON.stringify(await db.query("select * from activity"));
      assert.ok(!stored.includes("bob-new-password-77") && !stored.includes("$argon2"));
    });

    await t.step("an access token's creation names it, never its value", async () => {
      const created = await admin.post("/api/accounts/tokens", { name: "ci pipeline" });
      assert.equal(created.status, 200);
      const { id, token } = created.body as { id: number; token: string };
      const revoked = await admin.request("DELETE", `/api/accounts/tokens/${id}`);
      assert.equal(revoked.status, 204);
      const page = await list(`entityType=access-token&entityId=${id}`);
      assert.deepEqual(page.entries.map(describeActivity), [
        'admin deleted access token "ci pipeline"',
        'admin created access token "ci pipeline"',
      ]);
      const stored = JSON.stringify(await db.query("select * from activity"));
      assert.ok(!stored.includes(token) && !stored.includes(token.slice(0, 12)));
    });

    await t.step("a manual import and its re-run name the runs", async () => {
      const [source] = await db.query<{ id: number }>(
        "select id from order_tracking_sources where source_name = 'Acme'",
      );
      const form = new FormData();
      form.append("file", new File(["PO #,SKU\nPO-1,A\n"], "orders.csv", { type: "text/csv" }));
      const imported = await admin.request(
        "POST",
        `/api/order-tracking-sources/${source.id}/import`,
        // From the page's own origin, as the browser's upload is (a bare form post is refused).
        { rawBody: form, headers: { origin: new URL(server.url).origin } },
      );
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      const runId = (imported.body as { id: number }).id;
      const rerun = await admin.post(`/api/import-runs/${runId}/rerun`);
      assert.equal(rerun.status, 200, JSON.stringify(rerun.body));
      const newId = (rerun.body as { id: number }).id;
      const page = await list(`entityType=run&entityId=${runId}`);
      assert.deepEqual(page.entries.map(describeActivity), [
        `admin re-ran run ${runId} ("orders.csv") as run ${newId}`,
        `admin manually processed run ${runId} ("orders.csv")`,
      ]);
    });

    await t.step(
      "an inventory source's SFTP password and template file: named, never kept",
      async () => {
        const mailboxId = await saveMailbox(admin, "stock@activity.test");
        const created = await admin.post(
          "/api/inventory-sources/inventory/save",
          inventoryPayload(mailboxId, {
            sourceName: "Stock",
            sftpServerAddress: "127.0.0.1",
            sftpUsername: "u",
            sftpPassword: "sftp-secret-Kk31",
          }),
        );
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const id = (created.body as { id: number }).id;
        const got = (await admin.get(`/api/inventory-sources/inventory/${id}`)).body as
          & Record<string, unknown>
          & { fileData: Record<string, unknown> };
        const template = "Item,Status,Date\r\nSECRET-ROW-9,In,2026-01-01\r\n";
        const saved = await admin.post("/api/inventory-sources/inventory/save", {
          ...got,
          sftpPassword: "sftp-secret-Nn52",
          fileData: {
            ...got.fileData,
            inventoryFile: btoa(template),
            inventoryFileName: "new.csv",
          },
        });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const [entry] = (await list(`entityType=inventory-source&entityId=${id}&action=changed`))
          .entries;
        assert.equal(
          describeActivity(entry),
          'admin changed inventory source "Stock": SFTP password changed, ' +
            "File data: Inventory file name, File data: Template file (file changed)",
        );
        const stored = JSON.stringify(await db.query("select * from activity"));
        for (
          const secret of ["sftp-secret-Kk31", "sftp-secret-Nn52", "SECRET-ROW-9", btoa(template)]
        ) {
          assert.ok(!stored.includes(secret), secret);
        }
      },
    );

    await t.step("a notification setting's create, change and delete", async () => {
      const setting = {
        name: "Weekly summary",
        sourceTypeId: 3,
        notificationEnabled: true,
        notificationInterval: "Weekly",
        notificationDayOfWeek: 3,
        cronExpression: "",
        timeZone: "Europe/Berlin",
      };
      const created = await admin.post("/api/notification-settings", setting);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = (created.body as { id: number }).id;
      const changed = await admin.request("PUT", `/api/notification-settings/${id}`, {
        body: { ...setting, notificationDayOfWeek: 5 },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      const removed = await admin.request("DELETE", `/api/notification-settings/${id}`);
      assert.ok(removed.status < 300);
      const page = await list(`entityType=notification-setting&entityId=${id}`);
      assert.deepEqual(page.entries.map(describeActivity), [
        'admin deleted notification setting "Weekly summary"',
        'admin changed notification setting "Weekly summary": Notification day of week',
        'admin created notification setting "Weekly summary"',
      ]);
      assert.deepEqual(
        page.entries[1].changes.map((c) => [c.before, c.after]),
        [[3, 5]],
      );
    });

    await t.step("the count stops at 10,000 and says so", async () => {
      assert.equal((await list("")).totalCapped, false);
      await db.query(
        `insert into activity (username, action, entity_type, address)
         select 'bulk', 'signed in', 'user', '10.0.0.1' from generate_series(1, 10001)`,
      );
      const page = await list("user=bulk&pageSize=25");
      assert.equal(page.total, 10_000);
      assert.equal(page.totalCapped, true);
      assert.equal(page.entries.length, 25);
      await db.query("delete from activity where username = 'bulk'");
    });

    await t.step("retention removes entries older than the kept days", async () => {
      await db.query(
        `update activity set at = now() - interval '400 days' where username = 'mallory'`,
      );
      const before = (await list("")).total;
      assert.equal(await pruneActivity(db, 365, new Date()), 1);
      assert.equal((await list("")).total, before - 1);
      assert.equal((await list("user=mallory")).total, 0);
    });
  } finally {
    await server.close();
  }
});
