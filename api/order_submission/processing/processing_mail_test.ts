/**
 * Order submission processing with real Postfix and Dovecot (tests/services/up.sh): an order
 * file e-mailed in becomes one e-mail per vendor in each vendor's mailbox (template filled, PDF,
 * cc and bcc copies), a non-daily vendor gets nothing until its day, and re-delivering the
 * e-mail or re-running the run sends nothing twice.
 */
import assert from "node:assert/strict";
import { pollMailbox } from "../../ingest/mailbox_poll.ts";
import { getRun, rerunImport, runImport } from "../../ingest/import_runs.ts";
import { runDueJobs } from "../../jobs/runner.ts";
import { readGrid, writeTable } from "../../../shared/files/mod.ts";
import { sendMail } from "../../../tests/services/services.ts";
import { cutCsv, cutZip } from "../../../shared/files/truncated_testing.ts";
import { releaseDue } from "./jobs.ts";
import { SEND_JOB } from "./outbox.ts";
import {
  insertSource,
  insertVendor,
  newMailbox,
  settledMessages,
  submissionFixture,
} from "../../../tests/support/order_submission.ts";

const CUSTOMER = "orders@customer.example";
const ORDER_CSV = [
  "PO Number,Vendor,Item Description,Qty,Unit Price,Ship To",
  "PO-1,Acme,Hammer,2,10.5,Alice",
  "PO-2,ACME ,Nails,1,5,Bob",
  "PO-3,Bolt Co,Bolt,3,1,Carol",
  "PO-4,Slowpoke,Widget,1,9,Dan",
  "PO-5,Nobody,Thing,1,1,Eve",
].join("\r\n");

const quiet = { processRuns: true, log: () => {} };

Deno.test("an order e-mail becomes one e-mail per vendor, exactly once", async () => {
  const f = await submissionFixture();
  try {
    const acme = await newMailbox("acme");
    const acmeCc = await newMailbox("acmecc");
    const acmeBcc = await newMailbox("acmebcc");
    const bolt = await newMailbox("bolt");
    const slow = await newMailbox("slow");
    const sourceId = await insertSource(f.db, {
      sourceName: "Customer orders",
      emailSourceId: f.inboxSourceId,
      fromEmail: CUSTOMER,
      subjectValue: "order file",
      containsNotExact: true,
      fileType: "csv",
      attachmentName: "orders",
    });
    const template = writeTable(
      ["Our PO", "Product", "Quantity", "Deliver To", "Customer Code"],
      [["sample", "sample", 0, "sample", "sample"]],
      "xlsx",
    );
    await insertVendor(f.db, {
      sourceId,
      name: "Acme",
      sendFrom: f.senderSourceId,
      to: acme.address,
      cc: acmeCc.address,
      bcc: acmeBcc.address,
      subject: "Orders for Acme",
      body: "Please ship the attached orders.",
      wantsPdf: true,
      mapping: {
        mapPo: "Our PO",
        mapItemDescription: "Product",
        mapQty: "Quantity",
        mapShipTo: "Deliver To",
        staticFileData1: "CUST-77",
        mapStaticFileData1: "Customer Code",
      },
      template: { fileName: "acme_template.xlsx", bytes: template },
    });
    await insertVendor(f.db, {
      sourceId,
      name: "Bolt Company",
      aliases: ["bolt co"],
      sendFrom: f.senderSourceId,
      to: bolt.address,
      subject: "Bolt orders {poNumbers}",
      wantsForward: true,
      body: "Forwarding {originalSubject}",
    });
    await insertVendor(f.db, {
      sourceId,
      name: "Slowpoke",
      sendFrom: f.senderSourceId,
      to: slow.address,
      subject: "Slowpoke orders",
      nonDaily: true,
      everyXDays: 3,
    });

    const message = {
      from: CUSTOMER,
      to: f.inbox.address,
      subject: "Daily order file",
      messageId: `<${crypto.randomUUID()}@customer.example>`,
      text: "Today's orders attached.",
      attachments: [{ filename: "orders.csv", content: ORDER_CSV }],
    };
    await sendMail(message);
    await settledMessages(f.inbox, 1);
    const poll = await pollMailbox(f.server.server.deps, f.inboxSourceId, quiet);
    assert.equal(poll.error, null);
    assert.equal(poll.runs, 1);

    // Acme: one e-mail, template filled cell by cell, a PDF, the cc and bcc copies.
    const [toAcme, ...moreAcme] = await settledMessages(acme, 1);
    assert.equal(moreAcme.length, 0);
    assert.equal(toAcme.subject, "Orders for Acme");
    assert.equal(toAcme.from?.address, f.sender.address);
    assert.match(toAcme.text ?? "", /Please ship the attached orders\./);
    assert.deepEqual(toAcme.cc?.map((a) => a.address), [acmeCc.address]);
    assert.equal(toAcme.bcc, undefined);
    assert.match(toAcme.messageId ?? "", /^<sub1_[0-9a-f]{64}\.submission@/);
    const xlsx = toAcme.attachments.find((a) => a.filename?.endsWith(".xlsx"))!;
    assert.ok(xlsx, "spreadsheet attached");
    const grid = await readGrid(new Uint8Array(xlsx.content as ArrayBuffer), {
      name: xlsx.filename!,
    });
    assert.deepEqual(grid.rows, [
      ["Our PO", "Product", "Quantity", "Deliver To", "Customer Code"],
      ["PO-1", "Hammer", "2", "Alice", "CUST-77"],
      ["PO-2", "Nails", "1", "Bob", "CUST-77"],
    ]);
    const pdf = toAcme.attachments.find((a) => a.filename?.endsWith(".pdf"))!;
    assert.ok(pdf, "PDF attached");
    assert.equal(
      new TextDecoder().decode(new Uint8Array(pdf.content as ArrayBuffer).slice(0, 5)),
      "%PDF-",
    );
    const [ccCopy, ...moreCc] = await settledMessages(acmeCc, 1);
    assert.equal(moreCc.length, 0);
    assert.equal(ccCopy.messageId, toAcme.messageId);
    const [bccCopy, ...moreBcc] = await settledMessages(acmeBcc, 1);
    assert.equal(moreBcc.length, 0);
    assert.equal(bccCopy.messageId, toAcme.messageId);

    // Bolt Company by its alias: the forward with wildcards, its plain XLSX and the original.
    const [toBolt, ...moreBolt] = await settledMessages(bolt, 1);
    assert.equal(moreBolt.length, 0);
    assert.equal(toBolt.subject, "Bolt orders PO-3");
    assert.match(toBolt.text ?? "", /Forwarding Daily order file/);
    assert.match(toBolt.text ?? "", /---------- Forwarded message ---------/);
    assert.ok(toBolt.attachments.some((a) => a.filename === "orders.csv"));

    // Slowpoke (every 3 days) gets nothing yet.
    assert.equal((await settledMessages(slow, 0)).length, 0);

    // The run says per vendor what happened.
    const runs = await f.db.query<{ id: number }>(
      `select id from import_runs where feed = 'order-submission' order by id`,
    );
    assert.equal(runs.length, 1);
    const run = await getRun(f.db, runs[0].id);
    assert.equal(run.status, "succeeded");
    assert.equal(run.counts.unmatchedRows, 1);
    assert.equal(run.counts.heldRows, 1);
    assert.equal(run.counts.sentEmails, 2);
    const log = run.log.join("\n");
    assert.match(log, /Unmatched vendor "Nobody": rows 6 not sent\./);
    assert.match(log, /Vendor Slowpoke: 1 row\(s\) held until \d{4}-\d{2}-\d{2}/);
    assert.match(
      log,
      new RegExp(
        `Vendor Acme: 2 row\\(s\\) \\(PO PO-1, PO-2\\) sent to ${acme.address}; cc ${acmeCc.address}; bcc ${acmeBcc.address}`,
      ),
    );
    assert.deepEqual(run.rowErrors.map((e) => e.row), [6]);

    // The same e-mail delivered again (same Message-ID): the poll claims it as seen before.
    await sendMail(message);
    // The same order file under a new Message-ID, and a re-run of the run: nothing new to send.
    await sendMail({ ...message, messageId: `<${crypto.randomUUID()}@customer.example>` });
    await settledMessages(f.inbox, 3);
    const again = await pollMailbox(f.server.server.deps, f.inboxSourceId, quiet);
    assert.equal(again.error, null);
    assert.equal(again.runs, 1);
    const rerun = await rerunImport(f.server.server.deps, runs[0].id);
    await runDueJobs(f.server.server.deps, { kinds: [SEND_JOB], log: () => {} });
    assert.equal(rerun.status, "succeeded");
    assert.match(rerun.log.join("\n"), /already sent or planned before, not sent again/);
    assert.equal((await settledMessages(acme, 1)).length, 1);
    assert.equal((await settledMessages(acmeCc, 1)).length, 1);
    assert.equal((await settledMessages(acmeBcc, 1)).length, 1);
    assert.equal((await settledMessages(bolt, 1)).length, 1);
    assert.equal((await settledMessages(slow, 0)).length, 0);

    // Slowpoke's day: two days later still nothing, three days later its one e-mail.
    const day = 86_400_000;
    assert.equal(await releaseDue(f.server.server.deps, new Date(Date.now() + 2 * day)), 0);
    assert.equal(await releaseDue(f.server.server.deps, new Date(Date.now() + 3 * day)), 1);
    await runDueJobs(f.server.server.deps, { kinds: [SEND_JOB], log: () => {} });
    const [toSlow, ...moreSlow] = await settledMessages(slow, 1);
    assert.equal(moreSlow.length, 0);
    assert.equal(toSlow.subject, "Slowpoke orders");
    assert.equal(await releaseDue(f.server.server.deps, new Date(Date.now() + 4 * day)), 0);
    const sent = await f.db.query<{ vendor: string; status: string; pos: string[] }>(
      `select v.vendor_name_from_file as vendor, s.status, s.po_numbers as pos
         from submissions s join vendor_sources v on v.id = s.vendor_source_id order by s.id`,
    );
    assert.deepEqual(sent, [
      { vendor: "Acme", status: "sent", pos: ["PO-1", "PO-2"] },
      { vendor: "Bolt Company", status: "sent", pos: ["PO-3"] },
      { vendor: "Slowpoke", status: "sent", pos: ["PO-4"] },
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("an order file cut off in transfer fails its run with the reason; no vendor is sent anything", async () => {
  const f = await submissionFixture();
  try {
    const acme = await newMailbox("acmecut");
    const sourceId = await insertSource(f.db, {
      sourceName: "Customer orders",
      emailSourceId: f.inboxSourceId,
      fromEmail: CUSTOMER,
      subjectValue: "order file",
      containsNotExact: true,
      fileType: "csv",
      attachmentName: "orders",
    });
    await insertVendor(f.db, {
      sourceId,
      name: "Acme",
      sendFrom: f.senderSourceId,
      to: acme.address,
      subject: "Orders for Acme",
      body: "Please ship the attached orders.",
    });
    const headers = ["PO Number", "Vendor", "Item Description", "Qty", "Unit Price", "Ship To"];
    const rows = Array.from({ length: 20 }, (_, i) => [
      `PO-${i}`,
      "Acme",
      `Hammer\nsize ${i}`,
      "2",
      "10.5",
      "Alice",
    ]);
    const cuts: [string, Uint8Array, RegExp][] = [
      ["orders.csv", cutCsv(writeTable(headers, rows, "csv")), /^The file ends inside a quoted/],
      ["orders.xlsx", cutZip(writeTable(headers, rows, "xlsx")), /^The workbook ends early/],
    ];
    for (const [fileName, bytes, reason] of cuts) {
      const run = await runImport(f.server.server.deps, {
        feed: "order-submission",
        sourceId,
        trigger: "cli",
        fileName,
        bytes,
      });
      assert.equal(run.status, "failed", fileName);
      assert.match(run.error ?? "", reason);
    }
    const [planned] = await f.db.query<{ n: number }>(
      "select (select count(*) from submission_rows)::int + (select count(*) from submissions)::int as n",
    );
    assert.equal(planned.n, 0, "nothing recorded or planned for a vendor");
    assert.equal(await runDueJobs(f.server.server.deps, { kinds: [SEND_JOB], log: () => {} }), 0);
  } finally {
    await f.close();
  }
});
