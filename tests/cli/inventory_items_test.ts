/** `cli inventory items` and `cli inventory item` against a server with real runs (issue 23). */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";
import { testCli } from "./support.ts";
import type { ItemDetail, ItemListPage } from "../../shared/contract/inventory_items.ts";

Deno.test("cli inventory items and item", async (t) => {
  const server = await startTestServer();
  const cli = await testCli(server.url);
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    const saved = await admin.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { minItemsToBeActive: 3 }),
    );
    const id = (saved.body as { id: number }).id;
    const fields = { sourceId: String(id), sendEmailNotification: "false", submitViaSftp: "false" };
    for (const rows of [[["A1", 5], ["A2", 1], ["A3", 5]], [["A1", 0], ["A2", 5], ["A3", 7]]]) {
      const res = await upload(admin, server.url, "/api/inventory-sources/manually-process", {
        name: "s.csv",
        bytes: stockCsv(rows as [string, number][]),
      }, fields);
      assert.equal(res.status, 200);
    }
    const login = await cli.run(["login", "--username", "admin", "--password-stdin"], {
      stdin: ADMIN_PASSWORD + "\n",
    });
    assert.equal(login.code, 0, login.stderr);

    await t.step("items --inactive: the table says why", async () => {
      const run = await cli.run(["inventory", "items", "Acme stock", "--inactive"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /ITEM\s+QTY\s+STATUS\s+WHY\s+CHANGED \(UTC\)/);
      assert.match(run.stdout, /A1\s+0\s+Inactive\s+Quantity 0 is below the minimum quantity of 3/);
      assert.match(run.stdout, /A4\s+-\s+Inactive\s+Missing from the supplier's file\s+never/);
      assert.doesNotMatch(run.stdout, /A2/);
      assert.match(run.stdout, /page 1 of 1 \(2 items\)/);
    });

    await t.step("items --json answers the API's page", async () => {
      const run = await cli.json(["inventory", "items", String(id), "--changed"]);
      assert.equal(run.code, 0, run.stderr);
      const page = run.body as ItemListPage;
      assert.deepEqual(page.items.map((i) => i.itemNumber), ["A1", "A2"]);
    });

    await t.step("item: status, why, changes, raw row; unknown item exits non-zero", async () => {
      const run = await cli.run(["inventory", "item", "Acme stock", "A1"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /status\s+Inactive/);
      assert.match(run.stdout, /why\s+Quantity 0 is below the minimum quantity of 3/);
      assert.match(
        run.stdout,
        /Runs that changed it:\nWHEN \(UTC\)\s+RUN\s+TURNED\s+WHY\n\S+\s+\d+\s+Inactive/,
      );
      assert.match(
        run.stdout,
        /Row in the last supplier file \(row 2\):\nItem Number\s+A1\nQty\s+0/,
      );
      const json = await cli.json(["inventory", "item", "Acme stock", "A1"]);
      assert.equal((json.body as ItemDetail).item.itemNumber, "A1");
      const missing = await cli.run(["inventory", "item", "Acme stock", "NOPE"]);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /NOPE/);
    });
  } finally {
    await cli.close();
    await server.close();
  }
});
