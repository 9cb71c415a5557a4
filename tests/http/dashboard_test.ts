/**
 * GET /api/dashboard on real data (issue 22): states in words, failing/held/stale first, the last
 * file and result in words, the next check, links; only the areas a user's flags allow.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { seedDashboard, STAFF } from "../support/dashboard.ts";
import type { DashboardAnswer, DashboardLine } from "../../shared/contract/dashboard.ts";

Deno.test("the dashboard shows each source's state, most urgent first", async (t) => {
  const server = await startTestServer();
  try {
    const seed = await seedDashboard(server);
    const staff = testClient(server.url);
    await staff.login(STAFF.username, STAFF.password);
    const get = async () => {
      const res = await staff.get("/api/dashboard");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as DashboardAnswer;
    };
    const find = (a: DashboardAnswer, area: string, id: number) =>
      a.lines.find((l) => l.area === area && l.sourceId === id) as DashboardLine;

    await t.step("states, their order and their words", async () => {
      const answer = await get();
      const states = answer.lines.map((l) => l.state);
      assert.deepEqual(states, [...states].sort((x, y) => rank(x) - rank(y)));
      assert.equal(answer.counts.failing, 2);
      assert.equal(answer.counts.held, 1);
      assert.equal(answer.counts.inactive, 1);

      const failing = find(answer, "order-tracking", seed.failingSourceId);
      assert.equal(failing.state, "failing");
      assert.equal(failing.name, "Bolt Parts");
      assert.equal(failing.lastFileName, "bolt-orders.csv");
      assert.match(failing.lastResult ?? "", /^Failed: /);
      assert.equal(failing.reason, "The last file (bolt-orders.csv) failed.");
      assert.equal(failing.runsPath, `/runs?area=order-tracking&sourceId=${seed.failingSourceId}`);
      assert.equal(failing.sourcePath, `/order-tracking-sources/edit/${seed.failingSourceId}`);

      const mailbox = find(answer, "mailbox", seed.mailboxId);
      assert.equal(mailbox.state, "failing");
      assert.equal(mailbox.reason, "The last check of the mailbox failed.");
      assert.match(mailbox.lastResult ?? "", /^Check failed: Could not connect/);
      assert.equal(mailbox.runsPath, null);

      const held = find(answer, "inventory", seed.inventoryId);
      assert.equal(held.state, "held");
      assert.equal(held.lastFileName, "stock-tuesday.csv");
      assert.match(held.lastResult ?? "", /^Held for review/);

      const ok = find(answer, "order-tracking", seed.okSourceId);
      assert.equal(ok.state, "ok");
      assert.match(ok.lastResult ?? "", /^Succeeded: Rows: 1, New: 1/);
      assert.equal(ok.alertWindowHours, 24);
      // Its mailbox has no incoming server: nothing polls it.
      assert.match(ok.nextCheckText, /^Not checked: its mailbox has no incoming server/);

      const inactive = find(answer, "order-tracking", seed.inactiveSourceId);
      assert.equal(inactive.state, "inactive");
      assert.equal(answer.lines.at(-1)?.state, "inactive");
    });

    await t.step("a source silent for longer than its window is stale", async () => {
      await server.db.query(
        `update import_runs set received_at = now() - interval '30 hours'
          where feed = 'order-tracking' and source_id = $1`,
        [seed.okSourceId],
      );
      const line = find(await get(), "order-tracking", seed.okSourceId);
      assert.equal(line.state, "stale");
      assert.match(line.reason, /^No file for 30 hours \(alert after 24 hours\)\.$/);
    });

    await t.step("a mail poll schedule is the next check", async () => {
      await server.db.query(
        `insert into job_schedules (name, kind, payload, every_seconds, next_run_at)
         values ('mail-poll:' || $1, 'mail-poll', '{}', 300, now() + interval '2 minutes')`,
        [seed.mailboxId],
      );
      const line = find(await get(), "inventory", seed.inventoryId);
      assert.equal(line.nextCheckText, "Every 5 minutes (mail)");
      assert.ok(line.nextCheckAt && Date.parse(line.nextCheckAt) > Date.now());
    });

    await t.step("only the areas a user's flags allow", async () => {
      await server.createUser({
        username: "orders",
        password: "orders-password-1",
        orderUser: true,
      });
      await server.createUser({ username: "noflag", password: "noflag-password-1" });
      const orders = testClient(server.url);
      await orders.login("orders", "orders-password-1");
      const areas = new Set(
        ((await orders.get("/api/dashboard")).body as DashboardAnswer).lines.map((l) => l.area),
      );
      assert.deepEqual([...areas].sort(), ["mailbox", "order-tracking"]);
      const none = testClient(server.url);
      await none.login("noflag", "noflag-password-1");
      assert.deepEqual(((await none.get("/api/dashboard")).body as DashboardAnswer).lines, []);
      assert.equal((await testClient(server.url).get("/api/dashboard")).status, 401);
    });
  } finally {
    await server.close();
  }
});

function rank(state: string): number {
  return ["failing", "held", "stale", "ok", "inactive"].indexOf(state);
}
