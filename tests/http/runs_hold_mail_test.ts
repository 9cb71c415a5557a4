/**
 * The hold e-mail of an inventory run links to the run's page (docs/runs.md): delivered through
 * Postfix into Dovecot, its link is `PUBLIC_URL` + `/runs/{id}`, where the run is released.
 */
import assert from "node:assert/strict";
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { readMail } from "../support/mail_read.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";

const PUBLIC_URL = "https://backoffice.example.test/bo";

Deno.test("the hold e-mail links to the run's page at PUBLIC_URL", async () => {
  const mailbox = await addMailUser(`hold-${crypto.randomUUID().slice(0, 8)}`);
  const info = readServices();
  const server = await startTestServer({
    env: {
      PUBLIC_URL,
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
    },
  });
  try {
    const inesId = await server.createUser({
      username: "ines",
      password: "ines-password",
      email: mailbox.address,
      inventoryUser: true,
    });
    await server.db.query("update users set send_notifications_to_email = true where id = $1", [
      inesId,
    ]);
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const ines = testClient(server.url);
    await ines.login("ines", "ines-password");
    const saved = await ines.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(await saveMailbox(admin), { sourceName: "Stock Feed" }),
    );
    const fields = {
      sourceId: String((saved.body as { id: number }).id),
      sendEmailNotification: "false",
      submitViaSftp: "false",
    };
    const process = (rows: [string, number][]) =>
      upload(ines, server.url, "/api/inventory-sources/manually-process", {
        name: "stock.csv",
        bytes: stockCsv(rows),
      }, fields);
    await process([["A1", 5], ["A2", 5], ["A3", 5]]);
    const held = (await process([["A1", 0], ["A2", 0], ["A3", 5]])).body as {
      runId: number;
      held: boolean;
    };
    assert.equal(held.held, true);
    const [mail] = await readMail(mailbox, 1);
    assert.equal(mail.subject, "Inventory run held: Stock Feed");
    assert.ok(
      mail.text.includes(`Review and release the run: ${PUBLIC_URL}/runs/${held.runId}`),
      mail.text,
    );
  } finally {
    await server.close();
  }
});
