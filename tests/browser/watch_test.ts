/**
 * How a source is watched, as its pages say it (issue 25): an e-mail source with a connected IDLE
 * listener reads "Listening (IDLE)", without one "Polling every N s", on a server without IDLE
 * "Polling every N s (server has no IDLE)"; an inventory source's SFTP inbox reads "Checking every
 * N s, last check …" and takes its own interval. Needs the loopback mail servers.
 */
import assert from "node:assert/strict";
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { sourcePayload } from "../support/inventory.ts";
import { sourceFor, uniqueName } from "../mail/support.ts";
import { startMailListeners } from "../../api/ingest/mail_listeners.ts";
import { recordSftpCheck } from "../../api/inventory/jobs.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

Deno.test("source pages show how the source is watched", async (t) => {
  const server = await startTestServer({
    env: { MAIL_CA_FILE: readServices().caPath, MAIL_POLL_SECONDS: "300" },
  });
  const browser = await launchBrowser();
  const listeners = startMailListeners(server.server.deps, { owner: "browser-test" });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const user = await addMailUser(uniqueName("watch"));
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
    const mailboxId = (saved.body as { id: number }).id;
    const { context, page } = await newPage(browser, server.url);
    page.setDefaultTimeout(15_000);
    await logIn(page, "admin", ADMIN_PASSWORD);

    await t.step("a connected listener: Listening (IDLE)", async () => {
      await listeners.reconcile();
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const [row] = await server.db.query<{ mode: string }>(
          "select mode from mailbox_listeners where email_source_id = $1",
          [mailboxId],
        );
        if (row?.mode === "idle") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await page.goto("/email-sources");
      const row = page.getByRole("row").filter({ hasText: user.address });
      await row.getByText("Listening (IDLE)").waitFor();
      await page.goto(`/email-sources/edit/${mailboxId}`);
      await page.getByText(/^Listening \(IDLE\), last check /).waitFor();
    });

    await t.step("no listener: Polling every 300 s", async () => {
      await listeners.stop();
      await page.goto("/email-sources");
      const row = page.getByRole("row").filter({ hasText: user.address });
      await row.getByText("Polling every 300 s", { exact: true }).waitFor();
    });

    await t.step("a server without IDLE: said on the source", async () => {
      // What a listener records when the server's capabilities lack IDLE (the test Dovecot has it).
      await server.db.query(
        "update mailbox_listeners set mode = 'no-idle' where email_source_id = $1",
        [mailboxId],
      );
      await page.goto("/email-sources");
      const row = page.getByRole("row").filter({ hasText: user.address });
      await row.getByText("Polling every 300 s (server has no IDLE)").waitFor();
    });

    await t.step("SFTP inbox: Checking every N s, last check …", async () => {
      const created = await admin.post(
        "/api/inventory-sources/inventory/save",
        sourcePayload(mailboxId, {
          sftpServerAddress: "127.0.0.1",
          sftpPort: 22,
          sftpUsername: "supplier",
          sftpPassword: "secret",
          sftpInboxFolder: "inbox",
        }),
      );
      const id = (created.body as { id: number }).id;
      await page.goto(`/inventory-sources/edit/${id}`);
      await page.getByText("Checking every 30 s, last check never").waitFor();
      await page.getByLabel("SFTP Check Interval (seconds)").fill("45");
      const request = page.waitForRequest((r) => r.url().endsWith("/inventory/save"));
      await page.getByRole("button", { name: "Save" }).click();
      assert.equal(JSON.parse((await request).postData() ?? "{}").sftpPollSeconds, 45);
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      await recordSftpCheck(server.server.deps, id, null);
      await page.reload();
      await page.getByText(/^Checking every 45 s, last check (?!never)/).waitFor();
      assert.equal(
        await page.getByLabel("SFTP Check Interval (seconds)").inputValue(),
        "45",
      );
    });
    await context.close();
  } finally {
    await listeners.stop();
    await browser.close();
    await server.close();
  }
});
