/**
 * End to end: a supplier's order files (a LibreOffice XLSX and an Excel-style CSV) sent by a
 * mail client through the loopback Postfix into Dovecot, polled from the source's mailbox,
 * imported as runs, and shown in Chromium's order list and on the home page. Start the test
 * services first: bash tests/services/up.sh.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";
import { addMailUser, readServices, sendMail, waitForMessages } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource } from "../support/order_tracking.ts";
import { sourceFor, uniqueName } from "../mail/support.ts";
import { launchBrowser, loggedInPage } from "./browser.ts";

const SUPPLIER = "status@acme-supply.example";
const fixture = (name: string) =>
  Deno.readFile(new URL(`../fixtures/orders/${name}`, import.meta.url));

interface Run {
  id: number;
  status: string;
  fileName: string;
  counts: Record<string, number>;
  rowErrorCount: number;
}

Deno.test("order files by e-mail reach the order list", async (t) => {
  const info = readServices();
  const server = await startTestServer({ env: { MAIL_CA_FILE: info.caPath } });
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await addMailUser(uniqueName("orders"));
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(mailbox));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const emailSourceId = (saved.body as { id: number }).id;
    const xlsxSource = await createSource(admin, {
      sourceName: "Acme Supply",
      emailSourceId,
      fileType: "xlsx",
      fromEmail: SUPPLIER,
      subjectValue: "Order status report",
      containsNotExact: true,
      attachmentName: "acme_orders",
      columnsToIgnore: "Internal Code",
    });
    const csvSource = await createSource(admin, {
      sourceName: "Acme Supply (CSV)",
      emailSourceId,
      fileType: "csv",
      fromEmail: SUPPLIER,
      subjectValue: "Order status CSV",
      containsNotExact: false,
      attachmentName: "acme_orders",
      columnNormalizationValues: {
        customerPoNumber: "PO #",
        itemNumber: "SKU",
        wildcard1: "Internal Code",
      },
    });

    await t.step("the mails are delivered, polled and imported as runs", async () => {
      await sendMail({
        from: `Acme Supply <${SUPPLIER}>`,
        to: mailbox.address,
        subject: "Fwd: Order status report for March",
        text: "Today's order status is attached.",
        attachments: [
          { filename: "acme_orders.xlsx", content: Buffer.from(await fixture("acme_orders.xlsx")) },
          { filename: "logo.png", content: "not an order file" },
        ],
      });
      await sendMail({
        from: SUPPLIER,
        to: mailbox.address,
        subject: "Order status CSV",
        text: "CSV attached.",
        attachments: [{
          filename: "acme_orders.csv",
          content: Buffer.from(await fixture("acme_orders.csv")),
        }],
      });
      await waitForMessages(mailbox, 2);
      const poll = await pollMailbox(server.server.deps, emailSourceId, {
        processRuns: true,
        log: () => {},
      });
      assert.equal(poll.error, null);
      assert.equal(poll.runs, 2);

      const runs = async (sourceId: number) =>
        (await admin.get(`/api/import-runs?feed=order-tracking&sourceId=${sourceId}`))
          .body as Run[];
      const [xlsxRun] = await runs(xlsxSource);
      assert.equal(xlsxRun.status, "succeeded");
      assert.equal(xlsxRun.fileName, "acme_orders.xlsx");
      assert.equal(xlsxRun.counts.inserted, 4);
      assert.equal(xlsxRun.rowErrorCount, 3);
      const [csvRun] = await runs(csvSource);
      assert.equal(csvRun.status, "succeeded");
      assert.equal(csvRun.counts.inserted, 4);
      const details = (await admin.get(`/api/import-runs/${xlsxRun.id}`)).body as {
        rowErrors: { row: number; column?: string; message: string }[];
      };
      assert.deepEqual(details.rowErrors[0], {
        row: 5,
        column: "PO #",
        message: "The unique column (customerPoNumber) is empty; the row was not imported.",
      });
    });

    await t.step("the orders show in the browser's list, correctly mapped", async () => {
      await server.createUser({ username: "olive", password: "olive-password", orderUser: true });
      const { context, page } = await loggedInPage(browser, server.url, "olive", "olive-password");
      await page.goto("/order-tracking");
      await page.getByLabel("PO Number").fill("PO-1001");
      const rows = page.locator("tbody tr", { hasText: "PO-1001" });
      await rows.nth(1).waitFor();
      assert.equal(await rows.count(), 2);
      const xlsxRow = await rows.filter({ hasText: "Smith Residence" }).innerText();
      for (
        const part of [
          "00417",
          "Smith, John",
          "Smith Residence",
          "Northwind Traders",
          "Contoso",
          "1Z999AA10123456784, 1Z999AA10123456785",
          "3/5/2024",
          "3/7/2024",
          "Shipped",
        ]
      ) assert.ok(xlsxRow.includes(part), `${part} in ${xlsxRow}`);
      // The CSV source names PO, SKU and the internal code (as Wildcard 1); headers spelled like
      // a field (Tracking, Order Date) are read too, the others are not.
      const csvRow = await rows.filter({ hasText: "X1" }).innerText();
      assert.ok(!csvRow.includes("Smith"));
      assert.ok(csvRow.includes("1Z999AA10123456784, 1Z999AA10123456785"));
      await page.getByLabel("PO Number").fill("");
      await page.getByLabel("Customer/Ship To").fill("o'brien");
      // Only the XLSX source maps the customer: one row once the search has run.
      await page.locator("tbody tr").nth(1).waitFor({ state: "detached" });
      const text = await page.locator("tbody tr", { hasText: "O'Brien & Sons" }).innerText();
      assert.match(text, /PO-1003/);
      assert.match(text, /\b1200\b/);
      assert.match(text, /12\/31\/2023/);
      await context.close();
    });

    await t.step("the home page counts the imported orders per source", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olive", "olive-password");
      // The 24-hour table (the dashboard above it names the source too).
      const row = page.getByRole("table", { name: "Stats for the past 24 hours" })
        .locator("tr", { hasText: "Acme Supply (CSV)" });
      await row.waitFor();
      const cells = await row.locator("td, th").allInnerTexts();
      assert.deepEqual(cells.map((c) => c.trim()), ["Acme Supply (CSV)", "4", "0"]);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
