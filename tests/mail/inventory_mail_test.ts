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
import { startMailListeners } from "../../api/ingest/mail_listeners.ts";
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
import { writeTable } from "../../shared/files/mod.ts";
import { cutCsv, cutSheetXml, withSheetXml } from "../../shared/files/truncated_testing.ts";

const FROM = "stock@acme.example";

async function setup(overrides: Record<string, unknown> = {}) {
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
      ...overrides,
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

Deno.test("a supplier file the mailbox listener takes is delivered right after its run, without a job tick", async () => {
  // No job runner in this server: only the listener runs jobs, so a delivery left for the
  // runner's next tick would never happen here.
  const f = await setup();
  const listeners = startMailListeners(f.server.server.deps, { owner: "push-delivery" });
  try {
    await listeners.reconcile();
    const listening = Date.now() + 30_000;
    for (;;) {
      const [row] = await f.server.db.query<{ mode: string }>(
        "select mode from mailbox_listeners where email_source_id = $1",
        [f.emailSourceId],
      );
      if (row?.mode === "idle") break;
      assert.ok(Date.now() < listening, "the listener is in IDLE");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await sendMail({
      from: FROM,
      to: f.mailbox.address,
      subject: "Daily stock report",
      attachments: [{
        filename: "stock.csv",
        content: new TextDecoder().decode(stockCsv([["A1", 4], ["A2", 0], ["A3", 1]])),
      }],
    });
    // The delivery job finished (its status is written after the delivery's own).
    const waiting = Date.now() + 60_000;
    let jobs: { status: string }[] = [];
    while (jobs[0]?.status !== "succeeded") {
      assert.ok(Date.now() < waiting, `not delivered: ${JSON.stringify(jobs)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobs = await f.server.db.query("select status from jobs where kind = 'inventory-deliver'");
    }
    assert.equal(jobs.length, 1, "one delivery job");
    const [delivered] = await f.server.db.query<
      { sftpDeliveredAt: Date | null; deliveryStatus: string }
    >(
      `select sftp_delivered_at as "sftpDeliveredAt", delivery_status as "deliveryStatus"
         from inventory_runs where inventory_source_id = $1`,
      [f.sourceId],
    );
    assert.equal(delivered.deliveryStatus, "delivered");
    assert.ok(delivered.sftpDeliveredAt);
    const onServer = await Deno.readTextFile(`${f.info.sftp.uploadDir}/${f.outName}`);
    assert.match(onServer, /A3,Active/);
  } finally {
    await listeners.stop();
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

/** A supplier file with a quoted, multi-line note column (the shape a cut leaves half open). */
function notedStock(format: "csv" | "xlsx", rows: [string, number][]): Uint8Array {
  return writeTable(
    ["Item Number", "Qty", "Note"],
    rows.map(([item, qty]) => [item, qty, `packed in\nboxes of ${qty}`]),
    format,
  );
}

/** The import runs of the source as the runs page lists them, newest first. */
async function runsOf(f: Awaited<ReturnType<typeof setup>>) {
  const runs = (await f.admin.get(`/api/import-runs?feed=inventory&sourceId=${f.sourceId}`))
    .body as { id: number; status: string; error: string | null }[];
  return runs.map((r) => ({ runId: r.id, status: r.status, error: r.error }));
}

Deno.test("a mailed supplier file cut off in transfer is refused: the run fails with the reason, the last good file stays on the SFTP server", async () => {
  const f = await setup();
  try {
    const mail = async (content: Uint8Array) => {
      await sendMail({
        envelope: { from: FROM, to: f.mailbox.address },
        raw: rawMessage({
          from: FROM,
          to: f.mailbox.address,
          subject: "Daily stock report",
          attachments: [{ name: "stock.csv", content }],
        }),
      });
    };
    const poll = () =>
      pollMailbox(f.server.server.deps, f.emailSourceId, { processRuns: true, log: () => {} });
    const deliver = () =>
      runDueJobs(f.server.server.deps, { kinds: ["inventory-deliver"], log: () => {} });

    await mail(notedStock("csv", [["A1", 4], ["A2", 0], ["A3", 7], ["A4", 2]]));
    await waitForMessages(f.mailbox, 1);
    assert.equal((await poll()).runs, 1);
    await deliver();
    const onServer = `${f.info.sftp.uploadDir}/${f.outName}`;
    const good = await Deno.readFile(onServer);
    assert.match(new TextDecoder().decode(good), /A4,Active/);

    // The same items, the transfer cut inside the second note: A3 and A4 are not in the file.
    const cut = cutCsv(notedStock("csv", [["A1", 4], ["A2", 0], ["A3", 7], ["A4", 2]]), 0.3);
    assert.ok(!new TextDecoder().decode(cut).includes("A3"));
    await mail(cut);
    await waitForMessages(f.mailbox, 2);
    const polled = await poll();
    assert.equal(polled.error, null, "the poll itself worked");
    assert.equal(polled.runs, 1);
    assert.equal(await deliver(), 0, "nothing to deliver");

    const runs = await runsOf(f);
    assert.deepEqual(runs.map((r) => r.status), ["failed", "succeeded"]);
    assert.match(
      runs[0].error ?? "",
      /^The file ends inside a quoted field that opens in row \d+: it was cut off/,
    );
    assert.doesNotMatch(runs[0].error ?? "", /\n/);
    const run = (await f.admin.get(`/api/import-runs/${runs[0].runId}`)).body as {
      status: string;
      error: string;
      log: string[];
    };
    assert.equal(run.status, "failed");
    assert.equal(run.error, runs[0].error);
    assert.deepEqual(await Deno.readFile(onServer), good, "the last good file is kept");
    const [statuses] = await f.server.db.query<{ n: number }>(
      `select count(*)::int as n from inventory_delivered_statuses
        where inventory_source_id = $1 and status = 'Inactive'`,
      [f.sourceId],
    );
    assert.equal(statuses.n, 1, "only A2 (quantity 0) is inactive: no item turned by the cut");
  } finally {
    await f.server.close();
  }
});

Deno.test("an SFTP-pulled XLSX cut off (its sheet XML unclosed) is refused; the last good file stays on the server", async () => {
  const f = await setup({ fileType: "xlsx" });
  try {
    const inbox = uniqueName("inbox");
    const dir = `${f.info.sftp.uploadDir}/${inbox}`;
    await Deno.mkdir(dir);
    await f.server.db.query("update inventory_sources set sftp_inbox_folder = $1", [inbox]);
    const deps = f.server.server.deps;
    const pull = async (name: string, bytes: Uint8Array) => {
      await Deno.writeFile(`${dir}/${name}`, bytes);
      assert.equal((await pullInbox(deps, f.sourceId)).runIds.length, 0, "seen first");
      const taken = await pullInbox(deps, f.sourceId);
      assert.equal(taken.runIds.length, 1);
      const status = await processRun(deps, taken.runIds[0]);
      await runDueJobs(deps, { kinds: ["inventory-deliver"], log: () => {} });
      return status;
    };
    const items: [string, number][] = [["A1", 4], ["A2", 0], ["A3", 7], ["A4", 2]];
    assert.equal(await pull("stock1.xlsx", notedStock("xlsx", items)), "succeeded");
    const onServer = `${f.info.sftp.uploadDir}/${f.outName}`;
    const good = await Deno.readFile(onServer);
    assert.match(new TextDecoder().decode(good), /A4,Active/);

    const cut = withSheetXml(notedStock("xlsx", items), (x) => cutSheetXml(x, 0.6));
    assert.equal(await pull("stock2.xlsx", cut), "failed");
    const runs = await runsOf(f);
    assert.deepEqual(runs.map((r) => r.status), ["failed", "succeeded"]);
    assert.match(
      runs[0].error ?? "",
      /^The workbook ends early \(the XML of xl\/worksheets\/sheet1\.xml stops before its end\)/,
    );
    assert.deepEqual(await Deno.readFile(onServer), good, "the last good file is kept");
  } finally {
    await f.server.close();
  }
});
