/** "Alert After (Days)": one alert per silence, a new file starts a new silence. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../../tests/support/server.ts";
import { testClient } from "../../tests/support/http.ts";
import { checkSilences } from "./jobs.ts";
import { saveMailbox, sourcePayload } from "../../tests/support/inventory.ts";

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
