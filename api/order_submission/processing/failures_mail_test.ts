/**
 * Order submission processing when things go wrong, with real Postfix and Dovecot
 * (tests/services/up.sh): a crash between the SMTP accept and the record, an outgoing server
 * refusing the message, link downloads from a local HTTP server (allowed and refused), and a
 * batch of two e-mails (complete, and short at the day's end).
 */
import assert from "node:assert/strict";
import type { Deps } from "../../deps.ts";
import { pollMailbox } from "../../ingest/mailbox_poll.ts";
import { getRun, rerunImport } from "../../ingest/import_runs.ts";
import { runDueJobs } from "../../jobs/runner.ts";
import { readServices, sendMail } from "../../../tests/services/services.ts";
import { releaseDue } from "./jobs.ts";
import { SEND_JOB } from "./outbox.ts";
import { sendHooks } from "./send.ts";
import {
  insertSource,
  insertVendor,
  newMailbox,
  settledMessages,
  type SubmissionFixture,
  submissionFixture,
} from "../../../tests/support/order_submission.ts";

const CUSTOMER = "orders@customer.example";
const quiet = { processRuns: true, log: () => {} };
const csv = (...rows: string[]) => ["PO,Vendor,Item,Qty", ...rows].join("\r\n");

async function orderMail(f: SubmissionFixture, subject: string, file: string) {
  await sendMail({
    from: CUSTOMER,
    to: f.inbox.address,
    subject,
    text: "Orders attached.",
    attachments: [{ filename: "orders.csv", content: file }],
  });
}

async function setup(f: SubmissionFixture, extra: Record<string, string | number | boolean> = {}) {
  const vendor = await newMailbox("vendor");
  const sourceId = await insertSource(f.db, {
    sourceName: "Orders",
    emailSourceId: f.inboxSourceId,
    fromEmail: CUSTOMER,
    subjectValue: "orders",
    containsNotExact: true,
    ...extra,
  });
  const vendorId = await insertVendor(f.db, {
    sourceId,
    name: "Acme",
    sendFrom: f.senderSourceId,
    to: vendor.address,
    subject: "Acme orders",
  });
  return { vendor, sourceId, vendorId };
}

async function poll(f: SubmissionFixture, expectedRuns = 1) {
  const result = await pollMailbox(f.server.server.deps, f.inboxSourceId, quiet);
  assert.equal(result.error, null);
  assert.equal(result.runs, expectedRuns);
}

/** Makes the queued send jobs due now (their retry back-off skipped) and runs them. */
async function retrySends(deps: Deps) {
  await deps.db.query(
    `update jobs set run_at = now() where kind = $1 and status = 'queued'`,
    [SEND_JOB],
  );
  await runDueJobs(deps, { kinds: [SEND_JOB], log: () => {} });
}

/** The PO numbers of the last submission, and its status. */
async function lastSubmission(f: SubmissionFixture) {
  const [row] = await f.db.query<{ pos: string[]; status: string }>(
    `select po_numbers as pos, status from submissions order by id desc limit 1`,
  );
  return row;
}

async function lastRun(f: SubmissionFixture) {
  const [row] = await f.db.query<{ id: number }>(
    `select id from import_runs where feed = 'order-submission' order by id desc limit 1`,
  );
  return await getRun(f.db, row.id);
}

Deno.test("a crash between the SMTP accept and the record leaves exactly one e-mail", async () => {
  const f = await submissionFixture();
  try {
    const { vendor } = await setup(f);
    // Crash after the copy in Sent: the next attempt finds it there and records it sent.
    sendHooks.beforeRecord = () => {
      throw new Error("simulated crash before the record");
    };
    await orderMail(f, "orders 1", csv("PO-1,Acme,Hammer,1"));
    await settledMessages(f.inbox, 1);
    await poll(f);
    sendHooks.beforeRecord = undefined;
    assert.equal((await settledMessages(vendor, 1)).length, 1);
    const [stuck] = await f.db.query<{ status: string }>(`select status from submissions`);
    assert.equal(stuck.status, "sending");
    await retrySends(f.server.server.deps);
    assert.equal((await settledMessages(vendor, 1)).length, 1);
    const [recovered] = await f.db.query<{ status: string }>(`select status from submissions`);
    assert.equal(recovered.status, "sent");
    assert.match((await lastRun(f)).log.join("\n"), /found in Sent after an interruption/);
    assert.equal((await lastRun(f)).status, "succeeded");

    // Crash right after the SMTP accept (no copy in Sent yet): not resent, marked uncertain.
    sendHooks.afterSmtpAccept = () => {
      throw new Error("simulated crash after the SMTP accept");
    };
    await orderMail(f, "orders 2", csv("PO-2,Acme,Nails,1"));
    await settledMessages(f.inbox, 2);
    await poll(f);
    sendHooks.afterSmtpAccept = undefined;
    await retrySends(f.server.server.deps);
    await retrySends(f.server.server.deps);
    assert.equal((await settledMessages(vendor, 2)).length, 2);
    const statuses = await f.db.query<{ status: string }>(
      `select status from submissions order by id`,
    );
    assert.deepEqual(statuses.map((s) => s.status), ["sent", "uncertain"]);
    const run = await lastRun(f);
    assert.equal(run.status, "failed");
    assert.match(run.error ?? "", /interrupted; whether it went out is unknown/);
  } finally {
    sendHooks.beforeRecord = undefined;
    sendHooks.afterSmtpAccept = undefined;
    await f.close();
  }
});

Deno.test("an outgoing server that refuses fails the run; the retry sends once", async () => {
  const f = await submissionFixture();
  try {
    const { vendor } = await setup(f);
    // The submission port demands STARTTLS, which this source (SSL off) does not do.
    const info = readServices();
    await f.db.query(`update email_sources set outgoing_port = $2 where id = $1`, [
      f.senderSourceId,
      info.ports.submission,
    ]);
    await orderMail(f, "orders", csv("PO-1,Acme,Hammer,1", "PO-2,Acme,Nails,2"));
    await settledMessages(f.inbox, 1);
    await poll(f);
    const failed = await lastRun(f);
    assert.equal(failed.status, "failed");
    assert.match(
      failed.error ?? "",
      new RegExp(`Sending to vendor Acme failed: .*:${info.ports.submission}\\b`),
    );
    const [row] = await f.db.query<{ status: string; sentAt: unknown }>(
      `select status, sent_at as "sentAt" from submissions`,
    );
    assert.deepEqual(row, { status: "failed", sentAt: null });
    assert.equal((await settledMessages(vendor, 0)).length, 0);

    await f.db.query(`update email_sources set outgoing_port = $2 where id = $1`, [
      f.senderSourceId,
      info.ports.smtp,
    ]);
    await retrySends(f.server.server.deps);
    await retrySends(f.server.server.deps);
    const messages = await settledMessages(vendor, 1);
    assert.equal(messages.length, 1);
    assert.deepEqual(await lastSubmission(f), { pos: ["PO-1", "PO-2"], status: "sent" });
    const done = await lastRun(f);
    assert.equal(done.status, "succeeded");
    assert.equal(done.error, null);
  } finally {
    await f.close();
  }
});

Deno.test("link-click downloads: refused on loopback unless allowed, redirects re-checked", async () => {
  const file = csv("PO-9,Acme,Widget,4");
  const http = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/go") return Response.redirect(`${url.origin}/orders.csv`, 302);
    if (url.pathname === "/private") {
      return new Response(null, { status: 302, headers: { location: "http://10.0.0.1/x.csv" } });
    }
    return new Response(file, {
      headers: { "content-disposition": 'attachment; filename="orders.csv"' },
    });
  });
  const base = `http://127.0.0.2:${http.addr.port}`;
  const f = await submissionFixture();
  const config = f.server.server.deps.config;
  const testAllow = config.OUTBOUND_ALLOW;
  try {
    // The mail servers (127.0.0.1) stay admitted; the HTTP server (127.0.0.2) is not.
    config.OUTBOUND_ALLOW = "127.0.0.1/32,::1";
    const { vendor } = await setup(f, {
      noAttachmentsNeedsLinkClick: true,
      downloadSpreadsheet: true,
      spreadsheetDownloadButtonText: "Download orders",
    });
    const linkMail = (path: string, subject: string) =>
      sendMail({
        from: CUSTOMER,
        to: f.inbox.address,
        subject,
        html: `<p>Your report is ready.</p><p><a href="${base}/help">Help</a> ` +
          `<a href="${base}${path}">Download orders</a></p>`,
      });
    await linkMail("/go", "orders refused");
    await settledMessages(f.inbox, 1);
    await poll(f);
    const refused = await lastRun(f);
    assert.equal(refused.status, "failed");
    assert.match(refused.error ?? "", /Could not connect to the download link 127\.0\.0\.2:\d+\./);

    config.OUTBOUND_ALLOW = "127.0.0.0/8,::1";
    await linkMail("/private", "orders private redirect");
    await settledMessages(f.inbox, 2);
    await poll(f);
    const redirected = await lastRun(f);
    assert.equal(redirected.status, "failed");
    assert.match(redirected.error ?? "", /Could not connect to the download link 10\.0\.0\.1:80\./);

    await linkMail("/go", "orders allowed");
    await settledMessages(f.inbox, 3);
    await poll(f);
    const ok = await lastRun(f);
    assert.equal(ok.status, "succeeded", ok.error ?? "");
    assert.match(ok.log.join("\n"), /"orders\.csv" downloaded from a link on 127\.0\.0\.2/);
    const [sent] = await settledMessages(vendor, 1);
    assert.equal(sent.subject, "Acme orders");
    assert.deepEqual(await lastSubmission(f), { pos: ["PO-9"], status: "sent" });
  } finally {
    config.OUTBOUND_ALLOW = testAllow;
    await f.close();
    await http.shutdown();
  }
});

Deno.test("link downloads past the limit per source: the run fails with the reason, nothing is fetched, a re-run works", async () => {
  const fetched: string[] = [];
  const http = Deno.serve({ hostname: "127.0.0.2", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    fetched.push(path);
    const name = path.slice(1);
    const body = path === "/broken.xlsx" ? "not a workbook" : csv("PO-7,Acme,Widget,2");
    return new Response(body, {
      headers: { "content-disposition": `attachment; filename="${name}"` },
    });
  });
  const base = `http://127.0.0.2:${http.addr.port}`;
  const f = await submissionFixture();
  const config = f.server.server.deps.config;
  try {
    config.LINK_DOWNLOADS_PER_SOURCE_PER_HOUR = 1;
    const { vendor } = await setup(f, {
      noAttachmentsNeedsLinkClick: true,
      downloadSpreadsheet: true,
      spreadsheetDownloadButtonText: "Download orders",
    });
    const linkMail = (path: string, subject: string) =>
      sendMail({
        from: CUSTOMER,
        to: f.inbox.address,
        subject,
        html: `<p>Your report is ready: <a href="${base}${path}">Download orders</a></p>`,
      });
    // The first download happens; its run fails afterwards and rolls back, yet it counts.
    await linkMail("/broken.xlsx", "orders broken");
    await settledMessages(f.inbox, 1);
    await poll(f);
    assert.equal((await lastRun(f)).status, "failed");
    assert.deepEqual(fetched, ["/broken.xlsx"]);

    await linkMail("/orders.csv", "orders limited");
    await settledMessages(f.inbox, 2);
    await poll(f);
    const limited = await lastRun(f);
    assert.equal(limited.status, "failed");
    assert.match(
      limited.error ?? "",
      /^The order file was not downloaded: This source has made 1 link download in the last hour, the limit \(LINK_DOWNLOADS_PER_SOURCE_PER_HOUR\)\. Try again in \d+ minutes?\. Then re-run this run\.$/,
    );
    assert.deepEqual(fetched, ["/broken.xlsx"], "the limited link was not fetched");
    assert.equal((await settledMessages(vendor, 0)).length, 0);

    // Raised (or an hour later): the re-run downloads and sends.
    config.LINK_DOWNLOADS_PER_SOURCE_PER_HOUR = 5;
    const rerun = await rerunImport(f.server.server.deps, limited.id);
    // "held": its e-mail to the vendor is queued for the send job.
    assert.equal(rerun.status, "held", rerun.error ?? "");
    assert.deepEqual(fetched, ["/broken.xlsx", "/orders.csv"]);
    await retrySends(f.server.server.deps);
    const [sent] = await settledMessages(vendor, 1);
    assert.equal(sent.subject, "Acme orders");
  } finally {
    await f.close();
    await http.shutdown();
  }
});

Deno.test("a batch of two e-mails goes out together; a short batch at the day's end", async () => {
  const f = await submissionFixture();
  try {
    const { vendor } = await setup(f, { expectedNumberOfBatchEmails: 2 });
    await orderMail(f, "orders a", csv("PO-1,Acme,Hammer,1"));
    await settledMessages(f.inbox, 1);
    await poll(f);
    assert.equal((await lastRun(f)).status, "held");
    assert.match((await lastRun(f)).log.join("\n"), /waiting for 1 more/);
    assert.equal((await settledMessages(vendor, 0)).length, 0);
    await orderMail(f, "orders b", csv("PO-2,Acme,Nails,1"));
    await settledMessages(f.inbox, 2);
    await poll(f);
    const [together, ...more] = await settledMessages(vendor, 1);
    assert.equal(more.length, 0);
    assert.equal(together.subject, "Acme orders");
    assert.deepEqual(await lastSubmission(f), { pos: ["PO-1", "PO-2"], status: "sent" });
    const runs = await f.db.query<{ status: string }>(
      `select status from import_runs where feed = 'order-submission' order by id`,
    );
    assert.deepEqual(runs.map((r) => r.status), ["succeeded", "succeeded"]);

    // Tomorrow's first e-mail waits; the day after, the short batch goes out with a warning.
    const tomorrow = new Date(Date.now() + 86_400_000);
    await f.db.query(
      `update submission_inbound set batch_day = batch_day - 1, received_at = received_at - interval '1 day'`,
    );
    await f.db.query(`delete from submission_batches`);
    await orderMail(f, "orders c", csv("PO-3,Acme,Bolt,1"));
    await settledMessages(f.inbox, 3);
    await poll(f);
    assert.equal((await lastRun(f)).status, "held");
    assert.equal(await releaseDue(f.server.server.deps, tomorrow), 1);
    await runDueJobs(f.server.server.deps, { kinds: [SEND_JOB], log: () => {} });
    const all = await settledMessages(vendor, 2);
    assert.equal(all.length, 2);
    const short = await lastRun(f);
    assert.equal(short.status, "succeeded");
    assert.deepEqual(short.warnings, ["short batch: 1 of 2 e-mails"]);
  } finally {
    await f.close();
  }
});
