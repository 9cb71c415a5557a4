/**
 * The item view over HTTP (issue 23): a source's items after real manual runs, the filters,
 * one item with its history, changes and raw row, what a run changed, a held run's changes,
 * and the permissions.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";
import type {
  ItemDetail,
  ItemListPage,
  RunItemChangesPage,
} from "../../shared/contract/inventory_items.ts";

Deno.test("inventory items: list, filters, one item, run changes, held run", async (t) => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.createUser({ username: "inv", password: "inv-password-1", inventoryUser: true });
    await server.createUser({ username: "ord", password: "ord-password-1", orderUser: true });
    const inv = testClient(server.url);
    await inv.login("inv", "inv-password-1");
    const ord = testClient(server.url);
    await ord.login("ord", "ord-password-1");
    const mailbox = await saveMailbox(admin);
    const saved = await inv.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { minItemsToBeActive: 3 }),
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const id = (saved.body as { id: number }).id;
    const base = `/api/inventory-sources/inventory/${id}/items`;
    const fields = { sourceId: String(id), sendEmailNotification: "false", submitViaSftp: "false" };
    const run = async (rows: [string, number][]) => {
      const res = await upload(inv, server.url, "/api/inventory-sources/manually-process", {
        name: "s.csv",
        bytes: stockCsv(rows),
      }, fields);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { runId: number; held: boolean };
    };

    await t.step("before any run: an empty list; permissions", async () => {
      const empty = await inv.get(base);
      assert.equal(empty.status, 200);
      assert.equal((empty.body as ItemListPage).total, 0);
      assert.equal((empty.body as ItemListPage).lastRun, null);
      assert.equal((await ord.get(base)).status, 403);
      assert.equal((await testClient(server.url).get(base)).status, 401);
      assert.equal((await inv.get(`${base}?sort=nope`)).status, 400);
      assert.equal((await inv.get(`/api/inventory-sources/inventory/9999/items`)).status, 404);
    });

    const first = await run([["A1", 5], ["A2", 1], ["A3", 5]]);
    const second = await run([["A1", 0], ["A2", 5], ["A3", 7]]);

    await t.step("the list says why each item has its status", async () => {
      const page = (await inv.get(base)).body as ItemListPage;
      assert.equal(page.total, 4);
      assert.equal(page.lastRun?.runId, second.runId);
      const by = Object.fromEntries(page.items.map((i) => [i.itemNumber, i]));
      assert.equal(by.A1.deliveredStatus, "Inactive");
      assert.equal(by.A1.reason, "Quantity 0 is below the minimum quantity of 3");
      assert.equal(by.A1.changedRunId, second.runId);
      assert.equal(by.A2.reason, "Quantity 5 is at least the minimum quantity of 3");
      assert.equal(by.A3.quantity, 7);
      assert.equal(by.A3.changedAt, null);
      assert.equal(by.A4.reason, "Missing from the supplier's file");
      assert.equal(by.A4.quantity, null);
    });

    await t.step("filters, search, sort, page", async () => {
      const names = async (query: string) =>
        ((await inv.get(`${base}?${query}`)).body as ItemListPage).items.map((i) => i.itemNumber);
      assert.deepEqual(await names("inactive=true"), ["A1", "A4"]);
      assert.deepEqual(await names("changed=true"), ["A1", "A2"]);
      assert.deepEqual(await names("missing=true"), ["A4"]);
      assert.deepEqual(await names("q=a3"), ["A3"]);
      assert.deepEqual(await names("sort=quantity&dir=desc"), ["A3", "A2", "A1", "A4"]);
      assert.deepEqual(await names("pageSize=2&page=2"), ["A3", "A4"]);
    });

    await t.step("one item: history, the runs that changed it, the raw row", async () => {
      const res = await inv.get(`${base}/A1`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const item = res.body as ItemDetail;
      assert.deepEqual(item.history.map((h) => h.quantity), [5, 0]);
      assert.deepEqual(item.changes.map((c) => [c.runId, c.from, c.to]), [
        [second.runId, "Active", "Inactive"],
      ]);
      assert.equal(item.changes[0].reason, "Quantity 0 is below the minimum quantity of 3");
      assert.deepEqual(item.rawRow, {
        rowNumber: 2,
        cells: [{ header: "Item Number", value: "A1" }, { header: "Qty", value: "0" }],
      });
      assert.equal(item.prediction, null);
      assert.equal((await inv.get(`${base}/NOPE`)).status, 404);
      const missing = (await inv.get(`${base}/A4`)).body as ItemDetail;
      assert.equal(missing.rawRow, null);
    });

    await t.step("what a run changed", async () => {
      const res = await inv.get(`/api/inventory-sources/runs/${second.runId}/items`);
      assert.equal(res.status, 200);
      const changes = res.body as RunItemChangesPage;
      assert.equal(changes.turnedActive, 1);
      assert.equal(changes.turnedInactive, 1);
      assert.deepEqual(changes.changes.map((c) => [c.itemNumber, c.to, c.reason]), [
        ["A1", "Inactive", "Quantity 0 is below the minimum quantity of 3"],
        ["A2", "Active", "Quantity 5 is at least the minimum quantity of 3"],
      ]);
      const none = (await inv.get(`/api/inventory-sources/runs/${first.runId}/items`))
        .body as RunItemChangesPage;
      assert.equal(none.changes.length, 0);
      assert.equal(
        (await ord.get(`/api/inventory-sources/runs/${second.runId}/items`)).status,
        403,
      );
      assert.equal((await inv.get(`/api/inventory-sources/runs/999999/items`)).status, 404);
    });

    await t.step(
      "a held run: its changes are shown as held, the feed keeps the old status",
      async () => {
        const held = await run([["A1", 0], ["A2", 0], ["A3", 0]]);
        assert.equal(held.held, true);
        const changes = (await inv.get(`/api/inventory-sources/runs/${held.runId}/items`))
          .body as RunItemChangesPage;
        assert.equal(changes.deliveryStatus, "held");
        assert.deepEqual(changes.changes.map((c) => c.itemNumber), ["A2", "A3"]);
        const page = (await inv.get(`${base}?changed=true`)).body as ItemListPage;
        assert.equal(page.lastRun?.held, true);
        const a3 = page.items.find((i) => i.itemNumber === "A3")!;
        assert.equal(a3.deliveredStatus, "Active");
        assert.equal(a3.runStatus, "Inactive");
        assert.equal(a3.heldChange, true);
        const released = await inv.post(`/api/inventory-sources/runs/${held.runId}/release`);
        assert.equal(released.status, 200);
        const after = (await inv.get(`${base}/A3`)).body as ItemDetail;
        assert.equal(after.item.deliveredStatus, "Inactive");
        assert.equal(after.item.heldChange, false);
      },
    );

    await t.step("an item that left the catalogue leaves the list", async () => {
      const resaved = await inv.post(
        "/api/inventory-sources/inventory/save",
        sourcePayload(mailbox, {
          id,
          minItemsToBeActive: 3,
          fileData: { userActivatedItemNumbers: "A1\nA2\nA3" },
        }),
      );
      assert.equal(resaved.status, 200, JSON.stringify(resaved.body));
      const last = await run([["A1", 0], ["A2", 0], ["A3", 0]]);
      const page = (await inv.get(base)).body as ItemListPage;
      assert.equal(page.lastRun?.runId, last.runId);
      assert.deepEqual(page.items.map((i) => i.itemNumber), ["A1", "A2", "A3"]);
      assert.equal((await inv.get(`${base}/A4`)).status, 404);
    });
  } finally {
    await server.close();
  }
});

Deno.test("inventory items: a catalogue larger than one write batch is stored whole, and shrinks", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.db.query(`update users set inventory_user = true where username = 'admin'`);
    const mailbox = await saveMailbox(admin);
    const numbers = Array.from({ length: 2_500 }, (_, i) => `B${String(i + 1).padStart(4, "0")}`);
    const save = async (catalogue: string[], id = 0) => {
      const saved = await admin.post(
        "/api/inventory-sources/inventory/save",
        sourcePayload(mailbox, {
          id,
          fileData: { userActivatedItemNumbers: catalogue.join("\n") },
        }),
      );
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      return (saved.body as { id: number }).id;
    };
    const id = await save(numbers);
    const fields = { sourceId: String(id), sendEmailNotification: "false", submitViaSftp: "false" };
    const run = async (rows: [string, number][]) => {
      const res = await upload(admin, server.url, "/api/inventory-sources/manually-process", {
        name: "s.csv",
        bytes: stockCsv(rows),
      }, fields);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const base = `/api/inventory-sources/inventory/${id}/items`;
    const list = async (query = "") => (await admin.get(`${base}${query}`)).body as ItemListPage;

    await run(numbers.map((n) => [n, 5]));
    assert.equal((await list()).total, 2_500);
    const last = (await admin.get(`${base}/B2500`)).body as ItemDetail;
    assert.equal(last.item.quantity, 5);

    // The catalogue shrinks to 1,200 items: the others leave the item list.
    await save(numbers.slice(0, 1_200), id);
    await run(numbers.slice(0, 1_200).map((n) => [n, 5]));
    assert.equal((await list()).total, 1_200);
    assert.equal((await admin.get(`${base}/B2500`)).status, 404);
  } finally {
    await server.close();
  }
});
