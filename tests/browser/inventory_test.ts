/** The inventory source pages in Chromium: list, edit, manual processing (spec part 2). */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startTestServer, type TestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv } from "../support/inventory.ts";
import { sampleFile } from "../../shared/inventory/testing.ts";
import type { Browser } from "playwright-core";
import { launchBrowser, loggedInPage, MOBILE_VIEWPORT } from "./browser.ts";
import { choose, timeButtonText } from "./support.ts";

const USER = { username: "ivy", password: "ivy-password" };

/** A page logged in as {@link USER}. */
const userPage = (browser: Browser, url: string) =>
  loggedInPage(browser, url, USER.username, USER.password);

/** Saves a source over HTTP and returns its id. */
async function saveSource(
  client: TestClient,
  mailboxId: number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const saved = await client.post(
    "/api/inventory-sources/inventory/save",
    sourcePayload(mailboxId, overrides),
  );
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return (saved.body as { id: number }).id;
}

/** A logged-in inventory user's client and an e-mail source for the sources to use. */
async function prepare(server: TestServer) {
  await server.createUser({ ...USER, inventoryUser: true });
  const client = testClient(server.url);
  await client.login(USER.username, USER.password);
  const mailboxId = await saveMailbox(client);
  const pairs = (await client.get("/api/email-sources/email-list")).body as {
    item1: string;
    item2: number;
  }[];
  return { client, mailboxId, mailboxName: pairs[0].item1 };
}

const csv = (name: string, bytes: Uint8Array) => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(bytes),
});

Deno.test("inventory source pages", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const { client, mailboxId, mailboxName } = await prepare(server);

    await t.step("a user without the inventory flag is told the area is not theirs", async () => {
      await server.createUser({ username: "ned", password: "ned-password", orderUser: true });
      const { context, page } = await loggedInPage(browser, server.url, "ned", "ned-password");
      await page.goto("/inventory-sources");
      await page.getByRole("heading", { name: "Not part of your account", level: 1 }).waitFor();
      await page.getByText("Your account does not include inventory sources.", { exact: false })
        .waitFor();
      await page.getByText("Inventory User", { exact: false }).waitFor();
      assert.equal(await page.getByText("No results.").count(), 0);
      await context.close();
    });

    await t.step("empty list: heading, No results., cards empty text", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources");
      await page.getByRole("heading", { name: "Inventory Sources", level: 1 }).waitFor();
      await page.getByText("No results.").waitFor();
      await page.getByRole("radio", { name: "Cards" }).click();
      await page.getByText("No inventory sources found.").waitFor();
      await page.getByRole("link", { name: "Add Source" }).click();
      await page.waitForURL("**/inventory-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await context.close();
    });

    const stockId = await saveSource(client, mailboxId, {
      sourceName: "Acme stock",
      expectedAttachmentCount: 1,
      minItemsToBeActive: 2,
    });
    await saveSource(client, mailboxId, { sourceName: "Bare feed", fromEmail: "bare@x.example" });

    await t.step("table columns, priority hint, cards with N/A, mobile cards", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources");
      const row = page.locator("tbody tr", { hasText: "Acme stock" });
      await row.waitFor();
      for (
        const header of [
          "Active",
          "Source Name",
          "File Type",
          "From Email",
          "Att. Count",
          "Subject Value",
          "Attachment Name",
          "Item Col.",
          "Qty Col.",
          "Min Items",
        ]
      ) {
        assert.equal(
          await page.getByRole("columnheader", { name: header, exact: true }).count(),
          1,
        );
      }
      const cells = await row.locator("td, th").allInnerTexts();
      assert.deepEqual(cells.slice(1, 10), [
        "Acme stock",
        "csv",
        "stock@acme.example",
        "1",
        "stock report",
        "stock",
        "Item Number",
        "Qty",
        "2",
      ]);
      // The Active switch is local only.
      const active = page.getByRole("switch", { name: "Active: Acme stock" });
      assert.equal(await active.getAttribute("aria-checked"), "true");
      let writes = 0;
      page.on("request", (r) => r.method() === "POST" && writes++);
      await active.click();
      assert.equal(await active.getAttribute("aria-checked"), "false");
      assert.equal(writes, 0);
      await page.getByText(/Some columns are hidden|Swipe horizontally/).waitFor({
        state: "detached",
      });

      // Tablet: the hint, low-priority columns hidden.
      await page.setViewportSize({ width: 900, height: 800 });
      await page.getByText(
        "Some columns are hidden on this screen size. Widen the window to see all columns.",
      ).waitFor();
      assert.equal(await page.getByRole("columnheader", { name: "Qty Col." }).count(), 0);
      assert.equal(await page.getByRole("columnheader", { name: "Min Items" }).count(), 1);

      // Cards: the same facts, N/A for empty Min Items and Att. Count.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("radio", { name: "Cards" }).click();
      const bare = page.getByRole("region", { name: "Bare feed" });
      await bare.waitFor();
      const text = await bare.innerText();
      assert.match(text, /Att\. Count\s+N\/A/);
      assert.match(text, /Min Items\s+N\/A/);
      assert.match(text, /From Email\s+bare@x\.example/);
      const acme = await page.getByRole("region", { name: "Acme stock" }).innerText();
      assert.match(acme, /Min Items\s+2/);
      assert.match(acme, /Qty Col\.\s+Qty/);

      // Mobile: cards forced, no toggle.
      await page.setViewportSize(MOBILE_VIEWPORT);
      await page.getByRole("radio", { name: "Cards" }).waitFor({ state: "detached" });
      await page.getByRole("region", { name: "Bare feed" }).waitFor();
      assert.equal(await page.locator("table").count(), 0);
      await context.close();
    });

    await t.step("delete asks naming the source; Cancel keeps, Delete removes", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources");
      await page.getByRole("button", { name: "Actions for Bare feed" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Confirm Deletion" });
      await dialog.getByText('Are you sure you want to delete "Bare feed"?').waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Actions for Bare feed" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.locator("tbody tr", { hasText: "Bare feed" }).waitFor({ state: "detached" });
      const list = (await client.get("/api/inventory-sources/inventories")).body as unknown[];
      assert.equal(list.length, 1);
      await context.close();
    });

    await t.step("edit: every validation message, none sent", async () => {
      const { context, page } = await userPage(browser, server.url);
      let saves = 0;
      page.on("request", (r) => r.url().endsWith("/inventory/save") && saves++);
      await page.goto("/inventory-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await page.getByText("Configure how inventory data is received, processed, and managed")
        .waitFor();
      assert.equal(await page.getByLabel("File Type").getAttribute("placeholder"), "CSV, XLSX");
      assert.equal(await page.getByLabel("SFTP Port").getAttribute("placeholder"), "22");
      await page.getByRole("button", { name: "Save" }).click();
      for (
        const message of [
          "Source name is required",
          "Email source is required",
          "File type is required",
          "From email is required",
          "Subject value is required",
          "Attachment name is required",
          "Quantity column is required",
          "User activated items are required",
          "Item status column is required",
          "Item status date column is required",
          "Sample inventory file is required for new sources",
        ]
      ) {
        await page.getByText(message, { exact: true }).waitFor();
      }
      // Both item columns (supplier file and generated file).
      assert.equal(await page.getByText("Item number column is required").count(), 2);
      // The file message sits on the file field.
      const file = page.getByLabel("Sample Inventory File (.xls, .xlsx, .csv)");
      assert.equal(await file.getAttribute("aria-invalid"), "true");
      assert.equal(await file.getAttribute("accept"), ".csv,.xlsx,.xls");
      assert.equal(saves, 0);
      await context.close();
    });

    await t.step("edit: conditional fields and labels", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources/edit/0");
      await page.getByLabel("Item Number Column Name").waitFor();
      await page.getByLabel("Quantity Column Name").waitFor();
      await page.getByRole("switch", { name: "File Has Headers", exact: true }).click();
      await page.getByLabel("Item Number Column Index").waitFor();
      await page.getByLabel("Quantity Column Index").waitFor();
      assert.equal(await page.getByLabel("Item Number Column Name").count(), 0);

      assert.equal(await page.getByLabel("Available Status Values").count(), 0);
      await page.getByRole("switch", { name: "Status Supersedes Quantity" }).click();
      await page.getByLabel("Available Status Values").waitFor();
      await page.getByLabel("Out of Stock Status Values").waitFor();
      await page.getByLabel("Status Column Index").waitFor();
      await page.getByRole("switch", { name: "File Has Headers", exact: true }).click();
      await page.getByLabel("Status Column Name").waitFor();

      assert.equal(await page.getByLabel("Lookback Days *").count(), 0);
      await page.getByRole("switch", { name: "Enable Predictive Algorithm" }).click();
      const bounds = {
        "Lookback Days *": ["1", "365", "1"],
        "Min Data Points *": ["1", "100", "1"],
        "Safety Multiplier *": ["1", "5", "0.1"],
        "Safety Padding *": ["0", "10000", "1"],
        "Large Drop Threshold *": ["1", "100000", "1"],
        "Large Drop Multiplier *": ["1", "5", "0.1"],
      };
      for (const [label, [min, max, step]] of Object.entries(bounds)) {
        const input = page.getByLabel(label, { exact: true });
        assert.equal(await input.getAttribute("min"), min, label);
        assert.equal(await input.getAttribute("max"), max, label);
        assert.equal(await input.getAttribute("step"), step, label);
      }
      await page.getByText("1 to 365 days; 7 to 90 suggested (e.g. 30)").waitFor();

      await page.getByLabel("Header Row Index").waitFor();
      await page.getByRole("switch", { name: "Generated File Has Headers" }).click();
      await page.getByLabel("Header Row Index").waitFor({ state: "detached" });
      await page.getByText(/only one is processed: the best match on file type/).waitFor();
      for (
        const label of [
          "Alert After (Days)",
          "Expected Attachments",
          "Min Items to Keep Product Active",
          "SFTP Server Address",
          "SFTP Username",
          "SFTP Password",
          "SFTP Inbox Folder",
          "User Activated Item Numbers",
        ]
      ) {
        assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, label);
      }
      await page.getByRole("switch", { name: "Subject Contains Text" }).waitFor();
      await page.getByRole("switch", { name: "Active Source" }).waitFor();
      await page.getByRole("switch", { name: "Strip Leading Zeros" }).waitFor();
      await context.close();
    });

    let createdId = 0;
    await t.step("edit: create with a sample file; save states, 3 s reset", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources/edit/0");
      await page.getByLabel("Source Name").fill("Widgets Ltd");
      await page.getByLabel("File Type").fill("csv");
      await page.getByLabel("From Email").fill("stock@widgets.example");
      await choose(page, "Email Source", mailboxName);
      await page.getByRole("switch", { name: "Active Source" }).click();
      await page.getByLabel("Subject Value").fill("Daily stock");
      await page.getByLabel("Attachment Name").fill("stock");
      await page.getByLabel("Expected Attachments").fill("1");
      await page.getByLabel("Alert After (Days)").fill("3");
      await page.getByLabel("Item Number Column Name").fill("Item Number");
      await page.getByLabel("Quantity Column Name").fill("Qty");
      await page.getByLabel("Min Items to Keep Product Active").fill("2");
      await page.getByRole("switch", { name: "Enable Predictive Algorithm" }).click();
      await page.getByLabel("Lookback Days *").fill("30");
      await page.getByLabel("Safety Multiplier *").fill("1.2");
      await page.getByLabel("User Activated Item Numbers").fill("A1\nA2\nA3\nA4");
      const sample = sampleFile("csv");
      await page.getByLabel("Sample Inventory File (.xls, .xlsx, .csv)").setInputFiles(
        csv(sample.name, sample.bytes),
      );
      await page.getByLabel("Header Row Index").fill("1");
      await page.getByLabel("Generated Item Number Column").fill("Item");
      await page.getByLabel("Generated Item Status Column", { exact: true }).fill("Status");
      await page.getByLabel("Generated Item Status Date Column").fill("Date");
      const request = page.waitForRequest((r) => r.url().endsWith("/inventory/save"));
      const savedShown = await timeButtonText(page, "Saved!", 3000);
      await page.getByRole("button", { name: "Save" }).click();
      const sent = JSON.parse((await request).postData() ?? "{}");
      assert.equal(sent.id, 0);
      assert.equal(sent.emailSourceId, mailboxId);
      assert.equal(sent.expectedAttachmentCount, 1);
      assert.equal(sent.daysUntilNoUpdateNotification, 3);
      assert.equal(sent.minItemsToBeActive, 2);
      assert.equal(sent.lookbackDays, 30);
      assert.equal(sent.safetyMultiplier, 1.2);
      assert.equal(sent.minDataPoints, null);
      assert.equal(sent.sftpPort, null);
      assert.equal(sent.activeStatus, false);
      assert.equal(sent.fileData.activeStatus, false);
      assert.equal(sent.fileData.headerRowIndex, 1);
      assert.equal(sent.fileData.inventoryFileName, sample.name);
      assert.equal(sent.fileData.inventoryFile, Buffer.from(sample.bytes).toString("base64"));
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      await page.getByText("Inventory source saved successfully!").waitFor();
      await page.getByRole("heading", { name: "Edit Inventory Source" }).waitFor();
      await page.getByRole("button", { name: "Save", exact: true }).waitFor({ timeout: 10_000 });
      const elapsed = await savedShown();
      assert.ok(elapsed > 2500 && elapsed < 4000, `reset after ${elapsed} ms`);
      await page.getByText(`Current file: ${sample.name}`).waitFor();
      // The address names the new source (issue 24), and the form did not reload under it.
      await page.waitForURL(/\/inventory-sources\/edit\/[1-9]\d*$/);

      // A second save resends the stored file.
      const again = page.waitForRequest((r) => r.url().endsWith("/inventory/save"));
      await page.getByRole("button", { name: "Save" }).click();
      const resent = JSON.parse((await again).postData() ?? "{}");
      createdId = resent.id;
      assert.ok(createdId > 0);
      assert.equal(resent.fileData.inventoryFile, null);
      assert.equal(resent.fileData.inventoryFileData, Buffer.from(sample.bytes).toString("base64"));
      await page.getByRole("button", { name: "Saved!" }).waitFor();

      await page.getByRole("link", { name: "Back to Sources" }).click();
      await page.waitForURL(/\/inventory-sources$/);
      await page.locator("tbody tr", { hasText: "Widgets Ltd" }).waitFor();
      await context.close();
    });

    await t.step("edit: loads the source, Current file Download; errors", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources");
      await page.getByRole("button", { name: "Actions for Widgets Ltd" }).click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await page.waitForURL(`**/inventory-sources/edit/${createdId}`);
      await page.getByRole("heading", { name: "Edit Inventory Source" }).waitFor();
      // The form stays hidden until the source has loaded; reading it earlier reads the blanks.
      await page.getByLabel("Source Name").waitFor();
      assert.equal(await page.getByLabel("Source Name").inputValue(), "Widgets Ltd");
      assert.equal(await page.getByLabel("Email Source").innerText(), mailboxName);
      assert.equal(await page.getByLabel("Lookback Days *").inputValue(), "30");
      assert.equal(
        await page.getByRole("switch", { name: "Active Source" }).getAttribute("aria-checked"),
        "false",
      );
      await page.getByText("Current file: seller_feed.csv").waitFor();
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download" }).click();
      assert.equal((await download).suggestedFilename(), "seller_feed.csv");

      // The server's message on a refused save.
      await page.getByLabel("Lookback Days *").fill("400");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("button", { name: "Error - Try Again" }).waitFor();
      await page.getByText("Lookback days must be at most 365").waitFor();

      await page.goto("/inventory-sources/edit/9999");
      await page.getByText("Failed to load inventory source data").waitFor();
      await context.close();
    });

    await t.step("manual processing: summary, upload errors, process, flips, release", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto("/inventory-sources");
      await page.getByRole("button", { name: "Actions for Acme stock" }).click();
      await page.getByRole("menuitem", { name: "Manually Process File" }).click();
      await page.waitForURL(`**/inventory-sources/manually-process/${stockId}`);
      const config = page.getByRole("region", { name: "Source Configuration" });
      const summary = await config.innerText();
      assert.match(summary, /File Type\s+csv/);
      assert.match(summary, /Item Column Name\s+Item Number/);
      assert.match(summary, /Quantity Column Name\s+Qty/);
      assert.match(summary, /Min Items to Be Active\s+2/);
      assert.match(summary, /Expected Attachment Name\s+stock/);
      await page.getByRole("region", { name: "Expected Output" }).waitFor();
      await page.getByRole("switch", { name: "Send Email Notification" }).waitFor();
      await page.getByRole("switch", { name: "Submit via SFTP" }).waitFor();
      assert.equal(
        await page.getByRole("button", { name: "Modify File for Debugging" }).count(),
        0,
      );

      const input = page.getByLabel("Supplier File (.csv)");
      assert.equal(await input.getAttribute("accept"), ".csv");
      await input.setInputFiles({
        name: "stock.xlsx",
        mimeType: "application/octet-stream",
        buffer: Buffer.from("x"),
      });
      const alert = page.getByRole("alert").filter({ hasText: "Error" });
      await alert.getByText("Invalid file type. Expected .csv but got .xlsx").waitFor();
      await input.setInputFiles(csv("big.csv", new Uint8Array(10_485_761)));
      await alert.getByText("File size must be less than 10MB").waitFor();

      // A real stock file: A1 5, A2 3 (Active, min 2), A3 1 (Inactive), A4 missing (Inactive).
      await input.setInputFiles(csv("stock.csv", stockCsv([["A1", 5], ["A2", 3], ["A3", 1]])));
      await alert.waitFor({ state: "detached" });
      await page.getByRole("region", { name: "Changes Before Processing" }).waitFor();
      // The run shows its stage while it works (issue 24): held back here so it can be seen.
      let letGo: () => void = () => {};
      const held = new Promise<void>((resolve) => letGo = resolve);
      await page.route("**/api/inventory-sources/manually-process", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("button", { name: "Process File" }).click();
      const progress = page.getByRole("status", { name: "Processing progress" });
      await progress.getByText(/Step [12] of 2/).waitFor();
      assert.match(
        await progress.innerText(),
        /Uploading the file: \d+%|Reading the file, applying the rules and writing the result/,
      );
      letGo();
      await page.getByRole("heading", { name: /Processing Complete/ }).waitFor();
      await progress.waitFor({ state: "detached" });
      await page.unroute("**/api/inventory-sources/manually-process");
      await page.getByLabel("Active: 2", { exact: true }).waitFor();
      await page.getByLabel("Inactive: 2", { exact: true }).waitFor();
      await page.getByLabel(/^Processed: \d+$/).waitFor();
      await page.getByRole("list", { name: "Processing Logs" }).waitFor();
      // The options went as "false"/"false".
      const [run] = await server.db.query<{ sftp: boolean; email: boolean }>(
        "select deliver_sftp as sftp, deliver_email as email from inventory_runs",
      );
      assert.deepEqual(run, { sftp: false, email: false });
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: /^Download / }).click();
      const saved = await download;
      const path = await saved.path();
      const output = await Deno.readTextFile(path!);
      assert.match(output, /A1,Active/);
      assert.match(output, /A4,Inactive/);

      // The next file turns both active items inactive: the preview says so, the run is held.
      await page.getByRole("button", { name: "Process Another" }).click();
      await input.setInputFiles(csv("stock2.csv", stockCsv([["A1", 0], ["A2", 0], ["A3", 5]])));
      const preview = page.getByRole("region", { name: "Changes Before Processing" });
      await preview.getByRole("list", { name: "Active → Inactive (2)" }).waitFor();
      const off = await preview.getByRole("list", { name: "Active → Inactive (2)" }).innerText();
      assert.match(off, /A1/);
      assert.match(off, /A2/);
      assert.match(
        await preview.getByRole("list", { name: "Inactive → Active (1)" }).innerText(),
        /A3/,
      );
      await preview.getByText(/This run would be held, not delivered/).waitFor();
      await page.getByRole("button", { name: "Process File" }).click();
      await page.getByText(/This run is held by the guard/).waitFor();
      await page.getByRole("button", { name: "Release" }).click();
      await page.getByText("Released: the run has been delivered.").waitFor();
      // The banner follows the state: a released run is no longer said to be held.
      assert.equal(await page.getByText(/This run is held by the guard/).count(), 0);
      assert.equal(await page.getByRole("button", { name: "Release" }).count(), 0);
      await page.getByRole("region", { name: /Processing Complete/ }).getByText("Released", {
        exact: true,
      }).waitFor();

      // Clear resets the file and the options.
      await page.getByRole("button", { name: "Process Another" }).click();
      const stock3 = csv("stock3.csv", stockCsv([["A1", 9], ["A3", 5]]));
      await input.setInputFiles(stock3);
      await page.getByText("Selected: stock3.csv", { exact: false }).waitFor();
      const email = page.getByRole("switch", { name: "Send Email Notification" });
      await email.click();
      await page.getByRole("button", { name: "Clear" }).click();
      await page.getByText("Selected: stock3.csv", { exact: false }).waitFor({
        state: "detached",
      });
      assert.equal(await email.getAttribute("aria-checked"), "false");
      assert.equal(await page.getByRole("button", { name: "Process File" }).isDisabled(), true);

      // E-mail on ("true"): this server has no system mail, so the delivery fails with the
      // server's message and the file is kept.
      await input.setInputFiles(stock3);
      await email.click();
      await page.getByRole("button", { name: "Process File" }).click();
      await page.getByRole("heading", { name: /Processing Failed/ }).waitFor();
      await page.getByRole("region", { name: /Processing Failed/ }).getByText(/^Delivery failed/)
        .first().waitFor();
      const [last] = await server.db.query<{ sftp: boolean; email: boolean }>(
        `select deliver_sftp as sftp, deliver_email as email from inventory_runs
          order by import_run_id desc limit 1`,
      );
      assert.deepEqual(last, { sftp: false, email: true });

      await page.goto("/inventory-sources/manually-process/9999");
      await page.getByText("Failed to load inventory source details").waitFor();
      await page.getByRole("link", { name: /Back to Inventory Sources/ }).click();
      await page.waitForURL(/\/inventory-sources$/);
      await context.close();
    });

    await t.step("manual processing: a refused file builds a failed result", async () => {
      const { context, page } = await userPage(browser, server.url);
      await page.goto(`/inventory-sources/manually-process/${stockId}`);
      await page.getByLabel("Supplier File (.csv)").setInputFiles(
        csv("wrong.csv", new TextEncoder().encode("Sku,Amount\r\nA1,5\r\n")),
      );
      await page.getByRole("button", { name: "Process File" }).click();
      await page.getByRole("heading", { name: /Processing Failed/ }).waitFor();
      await page.getByLabel("Processed: 0", { exact: true }).waitFor();
      await page.getByLabel("Active: 0", { exact: true }).waitFor();
      await page.getByRole("list", { name: "Errors" }).getByText(/Item Number/).waitFor();
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});

Deno.test("inventory manual processing: the debug button follows DEBUG_TOOLS", async () => {
  const server = await startTestServer({ env: { DEBUG_TOOLS: "true" } });
  const browser = await launchBrowser();
  try {
    const { client, mailboxId } = await prepare(server);
    const id = await saveSource(client, mailboxId);
    const { context, page } = await userPage(browser, server.url);
    await page.goto(`/inventory-sources/manually-process/${id}`);
    const button = page.getByRole("button", { name: "Modify File for Debugging" });
    await button.waitFor();
    assert.equal(await button.isDisabled(), true);
    await page.getByLabel("Supplier File (.csv)").setInputFiles(
      csv("stock.csv", stockCsv([["A1", 5], ["A2", 3], ["A3", 0], ["A4", 10]])),
    );
    await button.click();
    await page.getByRole("heading", { name: "Debug File Modified" }).waitFor();
    await page.getByText(
      "File has been modified with test quantities. Review changes below and download when ready.",
    ).waitFor();
    await page.getByText(/^Success rate: \d+% \(\d+ of 4 rows modified\)$/).waitFor();
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
