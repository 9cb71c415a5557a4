/**
 * Inventory end to end on the real test services: a supplier file e-mailed in (Postfix →
 * Dovecot) becomes a generated file on the SFTP server (OpenSSH internal-sftp) and in the
 * outgoing e-mail; a changed host key is refused and a retry after forgetting it works; a login
 * the server refuses fails the delivery with the reason; SFTP pull takes a stable file once.
 */
import assert from "node:assert/strict";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import { processRun } from "../../api/ingest/import_runs.ts";
import { runDueJobs } from "../../api/jobs/runner.ts";
import { pullInbox } from "../../api/inventory/sftp.ts";
import { sourcePayload, stockCsv } from "../support/inventory.ts";
import {
  addMailUser,
  connectImap,
  readServices,
  sendMail,
  sftpConnectOptions,
  waitForMessages,
} from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { sourceFor, uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";

const FROM = "stock@acme.example";

async function setup() {
  const info = readServices();
  const server = await startTestServer({
    env: {
      MAIL_CA_FILE: info.caPath,
      SMTP_HOST: info.host,
      SMTP_PORT: String(info.ports.smtp),
      SMTP_SECURITY: "none",
      SMTP_FROM: `back-office@${info.domain}`,
    },
  });
  const admin = testClient(server.url);
  await admin.login("admin", ADMIN_PASSWORD);
  const mailbox = await addMailUser(uniqueName("invin"));
  const saved = await admin.post("/api/email-sources/email/save", sourceFor(mailbox));
  const emailSourceId = (saved.body as { id: number }).id;
  const recipient = await addMailUser(uniqueName("invout"));
  const userId = await server.createUser({
    username: "ops",
    password: "ops-password-1",
    inventoryUser: true,
    email: recipient.address,
  });
  await server.db.query("update users set send_notifications_to_email = true where id = $1", [
    userId,
  ]);
  const sftp = sftpConnectOptions();
  const outName = `${uniqueName("seller")}.csv`;
  const source = await admin.post(
    "/api/inventory-sources/inventory/save",
    sourcePayload(emailSourceId, {
      sftpServerAddress: sftp.host,
      sftpPort: sftp.port,
      sftpUsername: sftp.username,
      sftpPassword: sftp.password,
      fileData: { inventoryFileName: outName },
    }),
  );
  assert.equal(source.status, 200, JSON.stringify(source.body));
  return {
    info,
    server,
    admin,
    mailbox,
    recipient,
    emailSourceId,
    sourceId: (source.body as { id: number }).id,
    outName,
  };
}

Deno.test("a supplier file e-mailed in lands on the SFTP server and in the outgoing e-mail", async () => {
  const f = await setup();
  try {
    await sendMail({
      envelope: { from: FROM, to: f.mailbox.address },
      raw: rawMessage({
        from: FROM,
        to: f.mailbox.address,
        subject: "Daily stock report",
        attachments: [
          {
            name: "stock.csv",
            content: new TextDecoder().decode(stockCsv([["A1", 4], ["A2", 0]])),
          },
          { name: "readme.txt", content: "not this one" },
        ],
      }),
    });
    await waitForMessages(f.mailbox, 1);
    const poll = await pollMailbox(f.server.server.deps, f.emailSourceId, {
      processRuns: true,
      log: () => {},
    });
    assert.equal(poll.error, null);
    assert.equal(poll.runs, 1);
    await runDueJobs(f.server.server.deps, { kinds: ["inventory-deliver"], log: () => {} });

    const runs = (await f.admin.get(`/api/inventory-sources/inventory/${f.sourceId}/runs`))
      .body as { runId: number; trigger: string; status: string; deliveryStatus: string }[];
    assert.equal(runs.length, 1);
    assert.equal(runs[0].trigger, "mail");
    assert.equal(runs[0].deliveryStatus, "delivered", JSON.stringify(runs[0]));
    const onServer = await Deno.readTextFile(`${f.info.sftp.uploadDir}/${f.outName}`);
    assert.match(onServer, /A1,Active/);
    assert.match(onServer, /A2,Inactive/);
    assert.match(onServer, /A3,Inactive/);
    // nothing left under a temporary name
    for await (const e of Deno.readDir(f.info.sftp.uploadDir)) {
      assert.ok(!e.name.startsWith(`.${f.outName}`), e.name);
    }

    await waitForMessages(f.recipient, 1, 15_000);
    const imap = await connectImap(f.recipient);
    try {
      await imap.mailboxOpen("INBOX");
      const message = await imap.fetchOne("*", { source: true, envelope: true });
      assert.ok(message && message.source);
      assert.equal(message.envelope?.subject, "Inventory file: Acme stock");
      const text = new TextDecoder().decode(message.source);
      assert.ok(text.includes(f.outName), "the generated file is attached");
    } finally {
      await imap.logout();
    }

    // A changed host key is refused with a clear message; forgetting it lets a retry deliver.
    const runId = runs[0].runId;
    await f.server.db.query(
      "update inventory_sftp_host_keys set fingerprint = 'SHA256:not-the-real-key'",
    );
    await f.server.db.query(
      `update inventory_runs set delivery_status = 'pending', sftp_delivered_at = null
        where import_run_id = $1`,
      [runId],
    );
    const refused = await f.admin.post(`/api/inventory-sources/runs/${runId}/deliver`);
    assert.equal(refused.status, 200);
    const r = refused.body as { status: string; deliveryError: string };
    assert.equal(r.status, "failed");
    assert.match(r.deliveryError, /different host key/);
    assert.equal(
      (await f.admin.post(`/api/inventory-sources/inventory/${f.sourceId}/forget-host-key`)).status,
      200,
    );
    const retried = await f.admin.post(`/api/inventory-sources/runs/${runId}/deliver`);
    const ok = retried.body as { status: string; deliveryStatus: string };
    assert.equal(ok.deliveryStatus, "delivered", JSON.stringify(retried.body));
    assert.equal(ok.status, "succeeded");

    // A refused login fails the delivery with the reason; the file stays for a retry.
    await f.server.db.query("update inventory_sources set sftp_password_enc = $1", [
      await f.server.server.deps.secrets.encrypt("wrong-password"),
    ]);
    await f.server.db.query(
      `update inventory_runs set delivery_status = 'pending', sftp_delivered_at = null
        where import_run_id = $1`,
      [runId],
    );
    const denied = (await f.admin.post(`/api/inventory-sources/runs/${runId}/deliver`)).body as {
      deliveryError: string;
      outputFileName: string;
    };
    assert.match(denied.deliveryError, /refused the login/);
    assert.equal(
      (await f.admin.get(`/api/inventory-sources/runs/${runId}/file`)).status,
      200,
    );
  } finally {
    await f.server.close();
  }
});

Deno.test("SFTP pull takes a file once it is stable, and never twice", async () => {
  const f = await setup();
  try {
    const inbox = uniqueName("inbox");
    await Deno.mkdir(`${f.info.sftp.uploadDir}/${inbox}`);
    await Deno.writeFile(`${f.info.sftp.uploadDir}/${inbox}/stock.csv`, stockCsv([["A1", 9]]));
    await Deno.writeTextFile(`${f.info.sftp.uploadDir}/${inbox}/notes.txt`, "ignored");
    await f.server.db.query("update inventory_sources set sftp_inbox_folder = $1", [inbox]);
    const deps = f.server.server.deps;
    const first = await pullInbox(deps, f.sourceId);
    assert.deepEqual([first.runIds.length, first.waiting], [0, 1]);
    const second = await pullInbox(deps, f.sourceId);
    assert.equal(second.runIds.length, 1);
    assert.equal(await processRun(deps, second.runIds[0]), "succeeded");
    const third = await pullInbox(deps, f.sourceId);
    assert.deepEqual([third.runIds.length, third.known], [0, 1]);
    const [ledger] = await f.server.db.query<{ n: number }>(
      "select count(*)::int as n from inventory_sftp_files",
    );
    assert.equal(ledger.n, 1);
    const run = (await f.admin.get(`/api/import-runs/${second.runIds[0]}`)).body as {
      trigger: string;
      fileName: string;
    };
    assert.deepEqual([run.trigger, run.fileName], ["sftp", "stock.csv"]);
  } finally {
    await f.server.close();
  }
});
