/**
 * A report-style order file from another kind of producer, in a message shaped the way desktop
 * mail clients write them (multipart/alternative body, RFC 2047 subject, RFC 2231 file name with
 * a non-ASCII character, the CSV sent as application/vnd.ms-excel), delivered through Postfix
 * into Dovecot, polled and imported. The file has a title block above its headers, a byte order
 * mark, semicolons and decimal commas, month-name and compact dates, tracking numbers split on
 * "|", a totals row, and a header spelled differently from the source's configuration.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import type { Order } from "../../shared/contract/order_tracking.ts";
import { addMailUser, readServices, sendMail, waitForMessages } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource } from "../support/order_tracking.ts";
import { sourceFor, uniqueName } from "./support.ts";

const FROM = "Reports@Acme-Wholesale.example";

/** The message as a desktop mail client writes it, lines folded at 76 characters. */
function clientMessage(to: string, file: Uint8Array): string {
  const name = "UTF-8''Open%20Orders%20%E2%80%93%20Week%2047.csv";
  const base64 = Buffer.from(file).toString("base64").match(/.{1,76}/g)!.join("\r\n");
  return [
    `From: "Acme Wholesale Reports" <${FROM}>`,
    `To: ${to}`,
    "Subject: =?UTF-8?Q?RE=3A_Open_Order_Report_=E2=80=93_week_47?=",
    "Date: Sun, 22 Nov 2026 09:14:03 -0500",
    "Message-ID: <3f1c9a52-report@acme-wholesale.example>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="------------mixed0123"',
    "",
    "This is a multi-part message in MIME format.",
    "--------------mixed0123",
    'Content-Type: multipart/alternative; boundary="------------alt4567"',
    "",
    "--------------alt4567",
    "Content-Type: text/plain; charset=UTF-8; format=flowed",
    "Content-Transfer-Encoding: 7bit",
    "",
    "Hi, please find the open order report attached.",
    "--------------alt4567",
    "Content-Type: text/html; charset=UTF-8",
    "Content-Transfer-Encoding: 7bit",
    "",
    "<p>Hi, please find the <b>open order report</b> attached.</p>",
    "--------------alt4567--",
    "--------------mixed0123",
    `Content-Type: application/vnd.ms-excel; name*=${name}`,
    `Content-Disposition: attachment; filename*=${name}`,
    "Content-Transfer-Encoding: base64",
    "",
    base64,
    "--------------mixed0123--",
    "",
  ].join("\r\n");
}

Deno.test("a report-style order file from a desktop mail client is imported, mapped", async () => {
  const info = readServices();
  const server = await startTestServer({ env: { MAIL_CA_FILE: info.caPath } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await addMailUser(uniqueName("report"));
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(mailbox));
    const emailSourceId = (saved.body as { id: number }).id;
    const sourceId = await createSource(admin, {
      sourceName: "Acme Wholesale",
      emailSourceId,
      fileType: "csv",
      fromEmail: "reports@acme-wholesale.example",
      subjectValue: "open order report",
      containsNotExact: true,
      attachmentName: "open orders",
      secondaryDelimiter: "|",
      uniqueColumn: "CustomerPoNumber",
      columnsToIgnore: "Line",
      columnNormalizationValues: {
        id: 0,
        customerPoNumber: "Purchase Order",
        itemNumber: "Item #",
        customerName: "Sold To",
        // the file says "Ship-To Name"
        shipToName: "Ship To Name",
        supplierName: "Vendor",
        trackingNumbers: "Carrier Tracking",
        orderDate: "Order Dt",
        shippedDate: "Ship Dt",
        qty: "Ordered",
        qtyFulfilled: "Shipped",
        lineStatus: "Line Status",
        estimatedArrivalDate: "ETA",
      },
    });
    const file = await Deno.readFile(
      new URL("../fixtures/orders/open_order_report.csv", import.meta.url),
    );
    await sendMail({
      envelope: { from: FROM, to: mailbox.address },
      raw: clientMessage(mailbox.address, file),
    });
    await waitForMessages(mailbox, 1);
    const poll = await pollMailbox(server.server.deps, emailSourceId, {
      processRuns: true,
      log: () => {},
    });
    assert.equal(poll.error, null);
    assert.equal(poll.runs, 1);

    const [run] = (await admin.get(`/api/import-runs?feed=order-tracking&sourceId=${sourceId}`))
      .body as { id: number; status: string; fileName: string; counts: Record<string, number> }[];
    assert.equal(run.status, "succeeded");
    assert.equal(run.fileName, "Open Orders – Week 47.csv");
    assert.equal(run.counts.inserted, 3);
    const detail = (await admin.get(`/api/import-runs/${run.id}`)).body as {
      rowErrors: { row: number; column: string; message: string }[];
    };
    // the totals row, row 8 of the file, has no PO number
    assert.deepEqual(detail.rowErrors.map((e) => [e.row, e.column]), [[8, "Purchase Order"]]);

    const list = await admin.post("/api/order-tracking/list", {
      PageSize: 10,
      PageIndex: 1,
      SortParams: { customerPoNumber: true },
    });
    assert.equal(list.status, 200);
    const orders = (list.body as { orders: Order[] }).orders;
    const pick = (o: Order) => ({
      po: o.customerPoNumber,
      item: o.itemNumber,
      customer: o.customerName,
      shipTo: o.shipToName,
      supplier: o.supplierName,
      tracking: o.trackingNumbers.map((n) => n.trackingNumber),
      ordered: o.orderDate,
      shipped: o.shippedDate,
      eta: o.estimatedArrivalDate,
      qty: [o.qty, o.qtyFulfilled],
      status: o.lineStatus,
    });
    assert.deepEqual(orders.map(pick), [
      {
        po: "WO-88123",
        item: "BOLT-12",
        customer: "Harbor Café LLC",
        shipTo: "Harbor Café – Pier 4",
        supplier: "Fastenal",
        tracking: ["1Z999AA1", "1Z999AA2"],
        ordered: "2026-03-05T00:00:00",
        shipped: "2026-03-09T00:00:00",
        eta: "2026-03-12T00:00:00",
        qty: [1200, 1150],
        status: "Partially Shipped",
      },
      {
        po: "WO-88124",
        item: "NUT-7",
        customer: "Élise Dubois",
        shipTo: "Élise Dubois",
        supplier: "Grainger",
        tracking: [],
        ordered: "2026-03-06T00:00:00",
        shipped: null,
        eta: null,
        qty: [12, 0],
        status: "Open",
      },
      {
        po: "WO-88125",
        item: "WASHER-3",
        customer: "O'Neil & Co",
        shipTo: "O'Neil; Warehouse 2",
        supplier: "Fastenal",
        tracking: ["9400111899223"],
        ordered: "2026-03-07T00:00:00",
        shipped: "2026-03-08T00:00:00",
        eta: null,
        qty: [5, 5],
        status: "Shipped",
      },
    ]);
  } finally {
    await server.close();
  }
});
