/** "Alert After (Days)": one alert per silence, a new file starts a new silence. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import { checkSilences, inventorySchedules, recordSftpCheck, sftpPullSchedules } from "./jobs.ts";
import { loadConfig } from "../config.ts";
import type { InventorySource } from "../../shared/contract/inventory.ts";
import { saveMailbox, sourcePayload, stockCsv } from "../../tests/support/inventory.ts";
import { runImport } from "../ingest/import_runs.ts";
import { writeTable } from "../../shared/files/mod.ts";
import { cutCsv } from "../../shared/files/truncated_testing.ts";

Deno.test("the no-file alert is sent once per silence", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    const saved = await admin.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { daysUntilNoUpdateNotification: 3 }),
    );
    assert.equal(saved.status, 200);
    const deps = server.server.deps;
    const day = 86_400_000;
    const start = Date.now();
    assert.deepEqual(await checkSilences(deps, new Date(start + day)), []);
    const alerts = await checkSilences(deps, new Date(start + 4 * day));
    assert.equal(alerts.length, 1);
    // system mail is not configured here: recorded, not sent
    assert.equal(alerts[0].sent, false);
    assert.deepEqual(await checkSilences(deps, new Date(start + 5 * day)), []);
    // a file arrives: a new silence, alerted again once it lasts 3 days
    await server.db.query(
      `insert into import_runs (feed, source_id, trigger, status, received_at)
       values ('inventory', $1, 'mail', 'succeeded', $2)`,
      [(saved.body as { id: number }).id, new Date(start + 5 * day).toISOString()],
    );
    assert.deepEqual(await checkSilences(deps, new Date(start + 6 * day)), []);
    assert.equal((await checkSilences(deps, new Date(start + 9 * day))).length, 1);
    assert.deepEqual(await checkSilences(deps, new Date(start + 10 * day)), []);
  } finally {
    await server.close();
  }
});

Deno.test("a refused file (a cut-off upload) does not end a silence; a processed one does", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    const saved = await admin.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { daysUntilNoUpdateNotification: 3 }),
    );
    assert.equal(saved.status, 200);
    const sourceId = (saved.body as { id: number }).id;
    const deps = server.server.deps;
    const day = 86_400_000;
    const start = Date.now();
    const send = async (bytes: Uint8Array, at: Date) => {
      const run = await runImport(deps, {
        feed: "inventory",
        sourceId,
        trigger: "mail",
        fileName: "stock.csv",
        bytes,
        receivedAt: at,
      });
      return run.status;
    };
    const cut = cutCsv(
      writeTable(["Item Number", "Qty", "Note"], [["A1", 4, "a\nb"], ["A2", 5, "c\nd"]], "csv"),
      0.5,
    );
    assert.equal(await send(cut, new Date(start + 2 * day)), "failed");
    const alerts = await checkSilences(deps, new Date(start + 4 * day));
    assert.equal(alerts.length, 1, "the cut file did not count as a file");
    assert.equal(Date.parse(alerts[0].since) < start + day, true);
    assert.equal(await send(stockCsv([["A1", 4]]), new Date(start + 5 * day)), "succeeded");
    assert.deepEqual(await checkSilences(deps, new Date(start + 6 * day)), []);
  } finally {
    await server.close();
  }
});

Deno.test("SFTP inbox folders are looked at every 30 s by default, or at the source's interval", async (t) => {
  await t.step("schedule logic", () => {
    const schedules = sftpPullSchedules([
      { id: 1, sftpPollSeconds: null },
      { id: 2, sftpPollSeconds: 120 },
    ], loadConfig({}).INVENTORY_SFTP_POLL_SECONDS);
    assert.deepEqual(schedules.map((s) => [s.name, s.everySeconds]), [
      ["inventory-sftp-pull:1", 30],
      ["inventory-sftp-pull:2", 120],
    ]);
  });

  await t.step("the saved interval reaches the schedule and the source page", async () => {
    const server = await startTestServer();
    try {
      const admin = testClient(server.url);
      await admin.login("admin", ADMIN_PASSWORD);
      const mailbox = await saveMailbox(admin);
      const payload = sourcePayload(mailbox, {
        sftpServerAddress: "127.0.0.1",
        sftpPort: 22,
        sftpUsername: "supplier",
        sftpPassword: "secret",
        sftpInboxFolder: "inbox",
      });
      const saved = await admin.post("/api/inventory-sources/inventory/save", payload);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const id = (saved.body as { id: number }).id;
      const deps = server.server.deps;
      const every = async () => {
        await inventorySchedules(deps);
        const [row] = await server.db.query<{ every: number }>(
          "select every_seconds as every from job_schedules where name = $1",
          [`inventory-sftp-pull:${id}`],
        );
        return row.every;
      };
      assert.equal(await every(), 30);
      const read = async () =>
        (await admin.get(`/api/inventory-sources/inventory/${id}`)).body as InventorySource;
      let source = await read();
      assert.deepEqual(source.sftpWatch, {
        everySeconds: 30,
        lastCheckAt: null,
        lastCheckError: null,
      });
      const again = { ...payload, id, sftpPassword: "********" };
      assert.equal(
        (await admin.post("/api/inventory-sources/inventory/save", {
          ...again,
          sftpPollSeconds: 4,
        })).status,
        400,
        "under 5 s is refused",
      );
      await admin.post("/api/inventory-sources/inventory/save", { ...again, sftpPollSeconds: 90 });
      assert.equal(await every(), 90);
      // A client that does not know the field keeps the stored interval.
      await admin.post("/api/inventory-sources/inventory/save", again);
      assert.equal(await every(), 90);
      await recordSftpCheck(deps, id, null);
      source = await read();
      assert.equal(source.sftpPollSeconds, 90);
      assert.equal(source.sftpWatch?.everySeconds, 90);
      assert.ok(source.sftpWatch?.lastCheckAt);
    } finally {
      await server.close();
    }
  });
});
