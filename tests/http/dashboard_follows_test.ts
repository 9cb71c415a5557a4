/**
 * GET /api/dashboard follows new runs at once (issue 29: since migration 0029 one statement,
 * `dashboard_facts`, reads every area): a fixed file turns a failing source ok, a broken file
 * turns a working one failing, each with its new file's name and result.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { seedDashboard, STAFF } from "../support/dashboard.ts";
import { csv, HEADERS, orderRow } from "../support/order_tracking.ts";
import { runImport } from "../../api/ingest/import_runs.ts";
import type { DashboardAnswer, DashboardLine } from "../../shared/contract/dashboard.ts";

Deno.test("the dashboard follows a source's newest run", async () => {
  const server = await startTestServer();
  try {
    const seed = await seedDashboard(server);
    const staff = testClient(server.url);
    await staff.login(STAFF.username, STAFF.password);
    const line = async (id: number) => {
      const res = await staff.get("/api/dashboard");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body as DashboardAnswer).lines.find((l) =>
        l.area === "order-tracking" && l.sourceId === id
      ) as DashboardLine;
    };
    const run = (sourceId: number, fileName: string, text: string) =>
      runImport(server.server.deps, {
        feed: "order-tracking",
        sourceId,
        trigger: "cli",
        fileName,
        bytes: new TextEncoder().encode(text),
      });

    assert.equal((await line(seed.failingSourceId)).state, "failing");
    const row = orderRow("PO-9", "Bo", "Bolt");
    await run(seed.failingSourceId, "bolt-fixed.csv", csv([HEADERS, row]));
    const fixed = await line(seed.failingSourceId);
    assert.equal(fixed.state, "ok");
    assert.equal(fixed.lastFileName, "bolt-fixed.csv");
    assert.match(fixed.lastResult ?? "", /^Succeeded: Rows: 1, New: 1/);

    await run(seed.okSourceId, "acme-broken.csv", csv([["Nothing", "Here"], ["a", "b"]]));
    const broken = await line(seed.okSourceId);
    assert.equal(broken.state, "failing");
    assert.equal(broken.reason, "The last file (acme-broken.csv) failed.");
    assert.equal(broken.lastFileName, "acme-broken.csv");
  } finally {
    await server.close();
  }
});
