/**
 * Column pickers and upload progress (issue 24) in Chromium, on real files of tests/fixtures:
 * a sample or template is chosen, its headers are offered in the column fields (a datalist) with
 * a preview of its first rows, a name not in the file can still be typed, and saves that carry a
 * file show their upload's percentage, then the outcome (the server's reason when refused).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Locator, Page } from "playwright-core";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { launchBrowser, loggedInPage } from "./browser.ts";
import { choose, saveOrderMailbox } from "./support.ts";

const fixture = (path: string, mimeType = "application/octet-stream") => ({
  name: path.split("/").pop()!,
  mimeType,
  buffer: Buffer.from(Deno.readFileSync(new URL(`../fixtures/${path}`, import.meta.url))),
});
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The values the field's datalist offers (none without a list). */
function offered(field: Locator): Promise<string[]> {
  return field.evaluate((input: HTMLInputElement) =>
    [...(input.list?.options ?? [])].map((option) => option.value)
  );
}

/** Picks `value` among the field's offered headers (as choosing it in the list does). */
async function pick(field: Locator, value: string): Promise<void> {
  assert.ok((await offered(field)).includes(value), `"${value}" is offered`);
  await field.fill(value);
}

/** The page does not scroll sideways (390 px phones). */
async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide at ${width} px`);
}

/** Slows the page's uploads so that the progress is seen (Chromium's network emulation). */
async function slowUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

const SHOTS = Deno.env.get("SCREENSHOT_DIR");
async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

Deno.test("column pickers and upload progress", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const { mailboxId, mailboxName } = await saveOrderMailbox(admin);
    await server.createUser({ username: "otto", password: "otto-password", orderUser: true });
    await server.createUser({ username: "ivy", password: "ivy-password", inventoryUser: true });
    await server.createUser({ username: "sue", password: "sue-password", submissionUser: true });
    const submission = await admin.post("/api/order-submission/sources/save", {
      sourceName: "Customer orders portal",
      emailSourceId: mailboxId,
      fromEmail: "orders@customer.example",
      subjectValue: "Daily orders",
      expectedAttachmentCount: 1,
      expectedNumberOfBatchEmails: 1,
    });
    assert.equal(submission.status, 200, JSON.stringify(submission.body));

    await t.step("order tracking, a CSV sample on a 390 px phone in the dark theme", async () => {
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        "otto",
        "otto-password",
      );
      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => localStorage.setItem("theme", "dark"));
      await page.goto("/order-tracking-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await page.getByLabel("Source Name").fill("Acme orders");
      await choose(page, "Email Source", mailboxName);
      await choose(page, "File Type", "csv");
      await page.getByLabel("From Email").fill("reports@acme.example");
      await page.getByLabel("Subject", { exact: true }).fill("Daily order status");
      await page.getByLabel("Expected Attachment Count").fill("1");
      await page.getByLabel("Attachment Name").fill("orders");
      await choose(page, "Unique Column", "Customer PO Number");

      const poField = page.getByLabel("Customer PO Number", { exact: true });
      assert.deepEqual(await offered(poField), [], "nothing offered before a sample");
      await page.getByLabel("Sample File", { exact: true }).setInputFiles(
        fixture("orders/acme_orders.csv", "text/csv"),
      );
      const preview = page.getByRole("region", { name: /Preview of the sample file/ });
      await preview.getByText(/first 5 of \d+ rows/).waitFor();
      await preview.getByRole("columnheader", { name: "PO #" }).waitFor();
      await preview.getByRole("cell", { name: "PO-1001" }).waitFor();
      await page.getByText(/13 columns found in acme_orders\.csv \(header row 1\)/).waitFor();
      assert.ok((await offered(poField)).includes("Ship To"));
      await pick(poField, "PO #");
      // A name the sample does not have is still taken as typed.
      await page.getByLabel("Wildcard 1", { exact: true }).fill("Carrier Code");
      await noSidewaysScroll(page, 390);
      await shot(page, "tracking_390_dark");

      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Order tracking source saved successfully!").waitFor();
      await page.waitForURL(/\/order-tracking-sources\/edit\/[1-9]/);
      const id = Number(new URL(page.url()).pathname.split("/").pop());
      const stored = (await admin.get(`/api/order-tracking-sources/get/${id}`)).body as {
        columnNormalizationValues: Record<string, string>;
      };
      assert.equal(stored.columnNormalizationValues.customerPoNumber, "PO #");
      assert.equal(stored.columnNormalizationValues.wildcard1, "Carrier Code");
      await context.close();
    });

    await t.step("order tracking, an XLSX sample read by the server; a refused one", async () => {
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        "otto",
        "otto-password",
      );
      await page.evaluate(() => localStorage.setItem("theme", "light"));
      await page.goto("/order-tracking-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      const previews = page.waitForResponse((r) => r.url().endsWith("/api/sample-files/preview"));
      await page.getByLabel("Sample File", { exact: true }).setInputFiles(
        fixture("orders/acme_orders.xlsx", XLSX_TYPE),
      );
      assert.equal((await previews).status(), 200);
      const preview = page.getByRole("region", { name: /Preview of the sample file/ });
      await preview.getByRole("columnheader", { name: "Tracking" }).waitFor();
      await pick(page.getByLabel("Tracking Numbers", { exact: true }), "Tracking");
      await shot(page, "tracking_1280_light_xlsx");

      await page.getByLabel("Sample File", { exact: true }).setInputFiles(
        fixture("files/zip_bomb_ratio.xlsx", XLSX_TYPE),
      );
      const alert = page.getByRole("alert").filter({ hasText: "could not be read" });
      await alert.waitFor();
      assert.match(await alert.innerText(), /Type the column names instead/);
      assert.deepEqual(await offered(page.getByLabel("Tracking Numbers", { exact: true })), []);
      // The typed value stays.
      assert.equal(
        await page.getByLabel("Tracking Numbers", { exact: true }).inputValue(),
        "Tracking",
      );
      await context.close();
    });

    await t.step("inventory: supplier and sample columns, the save's upload progress", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "ivy", "ivy-password");
      await page.goto("/inventory-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await page.getByLabel("Source Name").fill("Acme stock");
      await page.getByLabel("File Type").fill("CSV");
      await page.getByLabel("From Email").fill("stock@acme.example");
      await choose(page, "Email Source", mailboxName);
      await page.getByLabel("Subject Value").fill("Stock");
      await page.getByLabel("Attachment Name").fill("stock");

      await page.getByLabel("Supplier Sample File").setInputFiles(
        fixture("files/inventory_semicolon.csv", "text/csv"),
      );
      await page.getByRole("region", { name: /Preview of the supplier sample file/ })
        .getByRole("columnheader", { name: "Qty" }).waitFor();
      await pick(page.getByLabel("Item Number Column Name"), "Item Number");
      await pick(page.getByLabel("Quantity Column Name"), "Qty");

      await page.getByLabel("User Activated Item Numbers").fill("00123");
      await page.getByLabel("Sample Inventory File (.xls, .xlsx, .csv)").setInputFiles(
        fixture("files/inventory.xlsx", XLSX_TYPE),
      );
      const sample = page.getByRole("region", { name: /Preview of the sample inventory file/ });
      await sample.waitFor();
      const itemColumn = page.getByLabel("Generated Item Number Column");
      const headers = await offered(itemColumn);
      assert.ok(headers.length >= 3, headers.join(", "));
      await pick(itemColumn, headers[0]);
      await pick(page.getByLabel("Generated Item Status Column"), headers[1]);
      await page.getByLabel("Generated Item Status Date Column").fill("Status Date");
      await shot(page, "inventory_1280_light");

      await slowUploads(page, 4_000);
      await page.getByRole("button", { name: "Save" }).click();
      const banner = page.getByRole("status", { name: "Upload progress" });
      await banner.getByText(
        /Uploading the sample inventory file: \d+%|Uploaded the sample inventory file; saving…/,
      ).waitFor();
      await shot(page, "inventory_uploading");
      await page.getByText("Inventory source saved successfully!").waitFor({ timeout: 30_000 });
      assert.equal(await banner.count(), 0, "the progress gives way to the outcome");
      await context.close();
    });

    await t.step("vendor: template columns, a refused save's reason, then saved", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/order-submission/vendor/edit/0");
      await page.getByRole("heading", { name: "Create Order Vendor Source" }).waitFor();
      await choose(page, "Order Submission Sources *", "Customer orders portal");
      await page.getByLabel("Vendor Name From File *").fill("Acme Tools");
      await choose(page, "Send from Email Source *", mailboxName);
      await page.getByLabel("Submit Emails *").fill("orders@acmetools.example");
      await page.getByLabel("Submit Email Subject Line *").fill("Orders");
      await page.getByLabel("Submit File Header Row Index *").fill("1");
      await page.getByLabel("Spreadsheet Template (.xls, .xlsx)").setInputFiles(
        fixture("orders/acme_orders.xlsx", XLSX_TYPE),
      );
      const preview = page.getByRole("region", { name: /Preview of the spreadsheet template/ });
      await preview.getByRole("columnheader", { name: "SKU" }).waitFor();
      await pick(page.getByLabel("PO Number", { exact: true }), "PO #");
      await pick(page.getByLabel("Quantity", { exact: true }), "Qty Ordered");
      await page.getByLabel("Ship Via", { exact: true }).fill("Carrier Code");
      await noSidewaysScroll(page, 390);
      await shot(page, "vendor_390_light");

      await slowUploads(page, 4_000);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("status", { name: "Upload progress" })
        .getByText(
          /Uploading the spreadsheet template: \d+%|Uploaded the spreadsheet template; saving…/,
        ).waitFor();
      // The template has no "Carrier Code" column: the server says so in the banner.
      const refused = page.getByRole("alert").filter({ hasText: "Carrier Code" });
      await refused.waitFor({ timeout: 30_000 });
      await shot(page, "vendor_refused");

      await page.getByLabel("Ship Via", { exact: true }).fill("");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Template acme_orders.xlsx saved.").waitFor({ timeout: 30_000 });
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
