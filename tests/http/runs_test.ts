/**
 * The run history over HTTP (docs/runs.md): runs made by real imports (an order tracking upload,
 * manual inventory processing with a run held by the guard), listed by area, source and state
 * with source names and results in words; one run with its row errors grouped by reason; the
 * per-day series; and who sees what.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, HEADERS } from "../support/order_tracking.ts";
import {
  saveMailbox,
  sourcePayload as inventorySource,
  stockCsv,
  upload,
} from "../support/inventory.ts";
import type { RunDetails, RunList, RunSeries } from "../../shared/contract/runs.ts";

const row = (po: string, orderDate = "2026-11-01") => [
  po,
  "SKU-1",
  "Customer",
  "Ship",
  "Vendor",
  "Brand",
  "",
  orderDate,
  "",
  1,
  0,
  "Open",
  "",
];

Deno.test("run history: real runs by area, source and state, in words", async (t) => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.createUser({ username: "oscar", password: "oscar-password", orderUser: true });
    await server.createUser({ username: "ines", password: "ines-password", inventoryUser: true });
    await server.createUser({ username: "nobody", password: "nobody-password" });
    const oscar = testClient(server.url);
    await oscar.login("oscar", "oscar-password");
    const ines = testClient(server.url);
    await ines.login("ines", "ines-password");
    const nobody = testClient(server.url);
    await nobody.login("nobody", "nobody-password");

    const trackingId = await createSource(admin, { sourceName: "Acme Supply" });
    const imported = await upload(
      oscar,
      server.url,
      `/api/order-tracking-sources/${trackingId}/import`,
      {
        name: "orders.csv",
        bytes: new TextEncoder().encode(
          csv([HEADERS, row("PO-1"), row("PO-2"), row("PO-3", "31/02/2026"), row("PO-4", "x")]),
        ),
      },
      {},
    );
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const orderRunId = (imported.body as { id: number }).id;

    const mailbox = await saveMailbox(admin);
    const saved = await ines.post(
      "/api/inventory-sources/inventory/save",
      inventorySource(mailbox, { sourceName: "Stock Feed" }),
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const inventoryId = (saved.body as { id: number }).id;
    const fields = {
      sourceId: String(inventoryId),
      sendEmailNotification: "false",
      submitViaSftp: "false",
    };
    const process = (rows: [string, number][]) =>
      upload(ines, server.url, "/api/inventory-sources/manually-process", {
        name: "stock.csv",
        bytes: stockCsv(rows),
      }, fields);
    assert.equal((await process([["A1", 5], ["A2", 5], ["A3", 5], ["A4", 5]])).status, 200);
    const held = await process([["A1", 0], ["A2", 0], ["A3", 0], ["A4", 5]]);
    const heldId = (held.body as { runId: number; held: boolean }).runId;
    assert.equal((held.body as { held: boolean }).held, true);

    await t.step("the list names sources and says results in words", async () => {
      const { runs } = (await admin.get("/api/runs")).body as RunList;
      assert.equal(runs.length, 3);
      const orders = runs.find((r) => r.id === orderRunId)!;
      assert.equal(orders.sourceName, "Acme Supply");
      assert.equal(orders.area, "order-tracking");
      assert.equal(orders.state, "row-errors");
      assert.equal(orders.result, "3 new orders, 1 row skipped, 2 row errors");
      const heldRun = runs.find((r) => r.id === heldId)!;
      assert.equal(heldRun.sourceName, "Stock Feed");
      assert.equal(heldRun.state, "held");
      assert.match(heldRun.result, /4 items/);
      assert.deepEqual(runs.map((r) => r.id), [...runs.map((r) => r.id)].sort((a, b) => b - a));
    });

    await t.step("filters: area, source, state, dates", async () => {
      const get = async (query: string) =>
        ((await admin.get(`/api/runs?${query}`)).body as RunList).runs.map((r) => r.id);
      assert.deepEqual(await get("area=inventory&state=held"), [heldId]);
      assert.deepEqual(await get(`area=order-tracking&sourceId=${trackingId}`), [orderRunId]);
      assert.deepEqual(await get(`area=inventory&sourceId=${inventoryId}&state=failed`), []);
      assert.equal((await get("state=succeeded")).length, 1);
      assert.deepEqual(await get("to=2020-01-01"), []);
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await get(`from=${today}&to=${today}`)).length, 3);
      assert.equal((await admin.get("/api/runs?state=broken")).status, 400);
    });

    await t.step("each user sees the areas of their flags", async () => {
      const mine = ((await oscar.get("/api/runs")).body as RunList).runs;
      assert.deepEqual(mine.map((r) => r.id), [orderRunId]);
      assert.equal((await oscar.get("/api/runs?area=inventory")).status, 403);
      assert.equal((await oscar.get(`/api/runs/${heldId}`)).status, 403);
      assert.equal((await nobody.get("/api/runs")).status, 403);
      assert.equal((await admin.get("/api/runs/999999")).status, 404);
    });

    await t.step("one run: row errors grouped by reason, release only with the flag", async () => {
      const run = (await oscar.get(`/api/runs/${orderRunId}`)).body as RunDetails;
      assert.equal(run.rowErrorGroups.length, 2, JSON.stringify(run.rowErrorGroups));
      assert.ok(run.rowErrorGroups.every((g) => g.count === 1 && g.rows.length === 1));
      assert.equal(run.hasFile, true);
      assert.equal(run.canRelease, false);
      const heldRun = (await ines.get(`/api/runs/${heldId}`)).body as RunDetails;
      assert.equal(heldRun.canRelease, true);
      // Released through the inventory call, the run is no longer held.
      assert.equal((await ines.post(`/api/inventory-sources/runs/${heldId}/release`)).status, 200);
      const after = (await ines.get(`/api/runs/${heldId}`)).body as RunDetails;
      assert.equal(after.state, "succeeded");
      assert.equal(after.canRelease, false);
    });

    await t.step("per-day series of the last days", async () => {
      const series = (await admin.get("/api/runs/daily?days=7")).body as RunSeries;
      assert.equal(series.days.length, 7);
      const today = series.days.at(-1)!;
      assert.equal(today.day, new Date().toISOString().slice(0, 10));
      assert.deepEqual(
        [today.succeeded, today.rowErrors, today.failed, today.held],
        [2, 1, 0, 0],
      );
      assert.equal(today.rows, 4 + 4 + 4);
      assert.equal(today.newOrders, 3);
      assert.equal(today.emailsSent, 0);
      const one = (await admin.get(
        `/api/runs/daily?area=order-tracking&sourceId=${trackingId}`,
      )).body as RunSeries;
      assert.equal(one.days.length, 30);
      assert.equal(one.days.at(-1)!.rowErrors, 1);
      assert.equal(one.days.at(-1)!.succeeded, 0);
      assert.equal((await admin.get("/api/runs/daily?days=91")).status, 400);
      const inv = (await ines.get("/api/runs/daily?days=1")).body as RunSeries;
      assert.deepEqual(inv.areas, ["inventory"]);
      assert.equal(inv.days[0].newOrders, undefined);
    });
  } finally {
    await server.close();
  }
});
