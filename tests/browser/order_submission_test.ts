/** The order submission source and vendor pages in Chromium. */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as XLSX from "xlsx";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { launchBrowser, loggedInPage, MOBILE_VIEWPORT } from "./browser.ts";
import { choose, countRequests, saveOrderMailbox } from "./support.ts";

/** An XLSX template with its header on row 1. */
function templateBytes(): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    wb,
    XLSX.utils.aoa_to_sheet([["PO Number", "Ship To", "Description", "Qty"]]),
    "Order",
  );
  return Buffer.from(XLSX.write(wb, { type: "array", bookType: "xlsx" }));
}

Deno.test("order submission pages", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const { mailboxId, mailboxName } = await saveOrderMailbox(admin);
    await server.createUser({ username: "sue", password: "sue-password", submissionUser: true });

    await t.step("empty source list: table, cards, priority hint", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/sources");
      await page.getByRole("heading", { name: "Order Submission Sources", level: 1 }).waitFor();
      await page.getByText("No results.").waitFor();
      assert.equal(await page.getByRole("columnheader", { name: "File Type" }).count(), 1);
      await page.getByRole("radio", { name: "Cards" }).click();
      await page.getByText("No order submission sources found.").waitFor();
      await page.getByRole("radio", { name: "Table" }).click();
      // Tablet: low-priority columns hidden, with the hint.
      await page.setViewportSize({ width: 900, height: 800 });
      await page.getByText(/Some columns are hidden/).waitFor();
      assert.equal(await page.getByRole("columnheader", { name: "File Type" }).count(), 0);
      assert.equal(await page.getByRole("columnheader", { name: "Subject Value" }).count(), 1);
      await context.close();
    });

    await t.step("the source form checks every rule before sending", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      const saves = countRequests(page, "/api/order-submission/sources/save");
      await page.goto("/order-submission/sources");
      await page.getByRole("link", { name: "Add Source" }).click();
      await page.waitForURL("**/order-submission/sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await page.getByLabel("From Email").fill("not-an-address");
      await page.getByLabel("Subject Value").fill("ab");
      await page.getByLabel("Expected Attachment Count").fill("0");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Enter a valid email address").waitFor();
      await page.getByText("Enter at least 3 characters").waitFor();
      await page.getByText("Must be at least 1").waitFor();
      assert.equal(await page.getByText("Required", { exact: true }).count(), 2);
      assert.equal(saves.count, 0);
      // The link-click fields appear with their switch.
      assert.equal(await page.getByLabel("Link Click Preceded By Text").count(), 0);
      await page.getByRole("switch", { name: "No Attachments - Needs Link Click" }).click();
      await page.getByLabel("Link Click Preceded By Text").waitFor();
      await page.getByLabel("Spreadsheet Download Button Text").waitFor();
      await context.close();
    });

    await t.step("creating a source shows Saved!, the message, then Save again", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/sources/edit/0");
      await page.getByLabel("Source Name").fill("Customer Orders");
      await choose(page, "Email Source", mailboxName);
      await page.getByLabel("From Email").fill("orders@customer.example");
      await page.getByLabel("File Type").fill("xlsx");
      await page.getByLabel("Subject Value").fill("Daily orders");
      await page.getByLabel("Expected Number of Batch Emails").fill("2");
      await page.getByRole("switch", { name: "No Attachments - Needs Link Click" }).click();
      await page.getByLabel("Link Click Preceded By Text").fill("Download your report");
      const request = page.waitForRequest((r) =>
        r.url().endsWith("/api/order-submission/sources/save")
      );
      await page.getByRole("button", { name: "Save" }).click();
      const sent = JSON.parse((await request).postData() ?? "{}");
      assert.equal(sent.id, 0);
      assert.equal(sent.emailSourceId, mailboxId);
      assert.equal(sent.expectedNumberOfBatchEmails, 2);
      assert.equal(sent.noAttachmentsNeedsLinkClick, true);
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      await page.getByText("Order submission source saved successfully!").waitFor();
      await page.getByRole("heading", { name: "Edit Order Submission Source" }).waitFor();
      await page.getByRole("button", { name: "Save", exact: true }).waitFor({ timeout: 10_000 });
      await page.waitForURL(/\/order-submission\/sources\/edit\/[1-9]\d*$/);
      await page.getByRole("link", { name: "Back to Sources" }).click();
      await page.waitForURL(/\/order-submission\/sources$/);
      const row = page.locator("tbody tr", { hasText: "Customer Orders" });
      await row.waitFor();
      assert.ok((await row.innerText()).includes("orders@customer.example"));
      // The Active column shows the source's state (issue 24).
      assert.equal(
        await row.getByRole("checkbox", { name: "Active: Customer Orders" }).getAttribute(
          "aria-checked",
        ),
        "true",
      );
      await context.close();
    });

    await t.step("editing loads the source; load failure says so", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/sources");
      await page.getByRole("button", { name: "Actions for Customer Orders" }).click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await page.waitForURL(/\/order-submission\/sources\/edit\/\d+$/);
      await page.getByRole("heading", { name: "Edit Order Submission Source" }).waitFor();
      await page.getByLabel("Link Click Preceded By Text").waitFor();
      assert.equal(await page.getByLabel("Source Name").inputValue(), "Customer Orders");
      assert.equal(await page.getByLabel("Email Source").innerText(), mailboxName);
      assert.equal(await page.getByLabel("Expected Number of Batch Emails").inputValue(), "2");
      await page.goto("/order-submission/sources/edit/9999");
      await page.getByText("Failed to load order submission source data").waitFor();
      await context.close();
    });

    await t.step("empty vendor list says so in table and cards", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/vendor");
      await page.getByRole("heading", { name: "Order Submission Vendor Sources", level: 1 })
        .waitFor();
      await page.getByText("No order vendor sources found.").waitFor();
      for (
        const header of [
          "Active",
          "Vendor Name",
          "Emails to",
          "Trimmed Details",
          "Non Daily Submission",
          "Wants PDF",
          "Wants all data",
        ]
      ) {
        assert.equal(
          await page.getByRole("columnheader", { name: header, exact: true }).count(),
          1,
        );
      }
      await page.getByRole("radio", { name: "Cards" }).click();
      await page.getByText("No order vendor sources found.").waitFor();
      await context.close();
    });

    await t.step("vendor form: required fields, conditional fields, invalid regex", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      const saves = countRequests(page, "/api/order-submission/vendor/save");
      await page.goto("/order-submission/vendor");
      await page.getByRole("link", { name: "Add Source" }).click();
      await page.waitForURL("**/order-submission/vendor/edit/0");
      await page.getByRole("heading", { name: "Create Order Vendor Source" }).waitFor();
      await page.getByText(
        "The wildcards {poNumbers}, {originalSubject} and {originalBody} work only",
      ).waitFor();
      await page.getByLabel("Submit File Header Row Index *").fill("");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Required", { exact: true }).first().waitFor();
      assert.equal(await page.getByText("Required", { exact: true }).count(), 6);
      assert.equal(await page.getByLabel("Vendor Regex For Item Description").count(), 0);
      assert.equal(await page.getByLabel("Vendor Custom Submit Every X Days").count(), 0);
      await page.getByRole("switch", { name: "Vendor Wants Trimmed Item Description" }).click();
      await page.getByLabel("Vendor Regex For Item Description").fill("([a-z]");
      await page.getByRole("switch", { name: "Vendor Wants Non Daily Submission" }).click();
      await page.getByLabel("Vendor Custom Submit Every X Days").fill("400");
      await page.getByLabel("Submit Cc Emails").fill("nope");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText(/Invalid regular expression/).waitFor();
      await page.getByText("Enter a number of days from 1 to 365").waitFor();
      await page.getByText("Enter valid email addresses separated by commas").waitFor();
      // Patterns run on a linear-time engine (issue 28): a backreference is refused on the
      // field; `^(a+)+$`, linear there, is accepted.
      const regex = page.getByLabel("Vendor Regex For Item Description");
      await regex.fill("(a)\\1");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText(
        "Backreferences (\\1, \\k<name>) are not supported: patterns are matched by a linear-time engine (RE2 syntax).",
      ).waitFor();
      assert.equal(await regex.getAttribute("aria-invalid"), "true");
      await regex.fill("^(a+)+$");
      assert.equal(await regex.inputValue(), "^(a+)+$");
      // After a first Save the form validates as the user types: the message goes at once.
      const patternMessage = page.getByText(/Backreferences|Invalid regular expression/);
      await patternMessage.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByText("Enter a number of days from 1 to 365").waitFor();
      assert.equal(await patternMessage.count(), 0);
      assert.equal(await regex.getAttribute("aria-invalid"), null);
      await page.getByRole("switch", { name: "Vendor Wants Trimmed Item Description" }).click();
      assert.equal(await page.getByLabel("Vendor Regex For Item Description").count(), 0);
      // Every field mapping input has its label.
      for (const label of ["PO Number", "Ship Via", "Total", "Static File Data 5 Column"]) {
        await page.getByLabel(label, { exact: true }).waitFor();
      }
      assert.equal(saves.count, 0);
      await context.close();
    });

    await t.step("aliases are added, edited, cancelled; the vendor saves with them", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/vendor/edit/0");
      await choose(page, "Order Submission Sources *", "Customer Orders");
      await page.getByLabel("Vendor Name From File *").fill("Acme Tools");
      await choose(page, "Send from Email Source *", mailboxName);
      await page.getByLabel("Submit Emails *").fill("orders@acme.example");
      await page.getByLabel("Submit Email Subject Line *").fill("Orders {poNumbers}");
      await page.getByRole("switch", { name: "Vendor Wants PDF" }).click();
      // Add, then Save an alias.
      await page.getByRole("button", { name: "Add Vendor Alias" }).click();
      await page.getByRole("group", { name: "Vendor alias" }).getByRole("button", { name: "Save" })
        .click();
      await page.getByRole("group", { name: "Vendor alias" }).getByText("Required").waitFor();
      await page.getByLabel("Vendor Alias Name From File *").fill("ACME Inc.");
      await page.getByLabel("Alias Vendor Provided Account Number").fill("AC-1");
      await page.getByRole("group", { name: "Vendor alias" }).getByRole("button", { name: "Save" })
        .click();
      await page.getByText("ACME Inc. (Account: AC-1)").waitFor();
      // Add, then Cancel: nothing added.
      await page.getByRole("button", { name: "Add Vendor Alias" }).click();
      await page.getByLabel("Vendor Alias Name From File *").fill("Dropped");
      await page.getByRole("button", { name: "Cancel" }).click();
      assert.equal(await page.getByText("Dropped").count(), 0);
      // Edit in place, then Save; edit again and Cancel keeps the saved text.
      await page.getByRole("button", { name: "Edit alias ACME Inc." }).click();
      await page.getByLabel("Vendor Alias Name From File *").fill("ACME Incorporated");
      await page.getByRole("group", { name: "Vendor alias" }).getByRole("button", { name: "Save" })
        .click();
      await page.getByText("ACME Incorporated (Account: AC-1)").waitFor();
      await page.getByRole("button", { name: "Edit alias ACME Incorporated" }).click();
      await page.getByLabel("Vendor Alias Name From File *").fill("Changed my mind");
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.getByText("ACME Incorporated (Account: AC-1)").waitFor();
      await page.getByRole("button", { name: "Add Vendor Alias" }).click();
      await page.getByLabel("Vendor Alias Name From File *").fill("Acme Co");
      await page.getByRole("group", { name: "Vendor alias" }).getByRole("button", { name: "Save" })
        .click();
      // The template.
      await page.getByLabel("Spreadsheet Template (.xls, .xlsx)").setInputFiles({
        name: "acme.xlsx",
        mimeType: "application/octet-stream",
        buffer: templateBytes(),
      });
      await page.getByLabel("PO Number", { exact: true }).fill("PO Number");
      const request = page.waitForRequest((r) =>
        r.url().endsWith("/api/order-submission/vendor/save")
      );
      await page.getByRole("button", { name: "Save", exact: true }).click();
      const sent = JSON.parse((await request).postData() ?? "{}");
      assert.equal(sent.orderSubmissionSourceId > 0, true);
      assert.equal(sent.sendFromEmailSourceModelId, mailboxId);
      assert.equal(sent.submitFileTemplateFileName, "acme.xlsx");
      assert.ok(sent.submitFileTemplate.length > 100);
      assert.deepEqual(
        sent.vendorSourceAliases.map((a: { vendorAliasNameFromFile: string }) =>
          a.vendorAliasNameFromFile
        ),
        ["ACME Incorporated", "Acme Co"],
      );
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      await page.getByRole("button", { name: "Back to Vendors" }).waitFor();
      await page.getByText("Current template: acme.xlsx").waitFor();
      await page.getByRole("heading", { name: "Edit Order Vendor Source" }).waitFor();
      // The address names the new vendor (issue 24).
      await page.waitForURL(/\/order-submission\/vendor\/edit\/[1-9]\d*$/);
      const vendors = (await admin.get("/api/order-submission/vendor/active")).body as {
        id: number;
        vendorSourceAliases: { vendorAliasNameFromFile: string }[];
        vendorWantsPDF: boolean;
      }[];
      assert.equal(vendors.length, 1);
      assert.equal(vendors[0].vendorWantsPDF, true);
      assert.deepEqual(
        vendors[0].vendorSourceAliases.map((a) => a.vendorAliasNameFromFile),
        ["ACME Incorporated", "Acme Co"],
      );
      await context.close();
    });

    await t.step(
      "a stored alias is deleted after confirmation; the template downloads",
      async () => {
        const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
        await page.goto("/order-submission/vendor");
        // The saved vendor is active, and its Active box says so (issue 24).
        assert.equal(
          await page.getByRole("checkbox", { name: "Active: Acme Tools" }).getAttribute(
            "aria-checked",
          ),
          "true",
        );
        await page.getByRole("button", { name: "Actions for Acme Tools" }).click();
        await page.getByRole("menuitem", { name: "Edit" }).click();
        await page.getByRole("heading", { name: "Edit Order Vendor Source" }).waitFor();
        await page.getByText("Acme Co").waitFor();
        assert.equal(await page.getByLabel("Vendor Name From File *").inputValue(), "Acme Tools");
        const download = page.waitForEvent("download");
        await page.getByRole("button", { name: "Download Template" }).click();
        assert.equal((await download).suggestedFilename(), "acme.xlsx");
        await page.getByRole("button", { name: "Delete alias Acme Co" }).click();
        const dialog = page.getByRole("alertdialog");
        await dialog.getByText('Are you sure you want to delete "Acme Co"?').waitFor();
        await dialog.getByRole("button", { name: "Delete" }).click();
        await dialog.waitFor({ state: "hidden" });
        assert.equal(await page.getByText("Acme Co").count(), 0);
        const vendors = (await admin.get("/api/order-submission/vendor/active")).body as {
          vendorSourceAliases: { vendorAliasNameFromFile: string }[];
        }[];
        assert.deepEqual(
          vendors[0].vendorSourceAliases.map((a) => a.vendorAliasNameFromFile),
          ["ACME Incorporated"],
        );
        await context.close();
      },
    );

    await t.step("a duplicate vendor name shows the red banner for 5 s", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password");
      await page.goto("/order-submission/vendor/edit/0");
      await choose(page, "Order Submission Sources *", "Customer Orders");
      await page.getByLabel("Vendor Name From File *").fill("acme tools");
      await choose(page, "Send from Email Source *", mailboxName);
      await page.getByLabel("Submit Emails *").fill("orders@acme.example");
      await page.getByLabel("Submit Email Subject Line *").fill("Orders");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      const banner = page.getByRole("alert").filter({
        hasText:
          'A vendor with the name "acme tools" already exists. Please use a different vendor name.',
      });
      await banner.waitFor();
      await page.getByRole("button", { name: "Error - Try Again" }).waitFor();
      await banner.waitFor({ state: "detached", timeout: 10_000 });
      await page.getByRole("button", { name: "Save", exact: true }).waitFor();
      // A template the mapping does not fit: the server's message in the banner.
      await page.getByLabel("Vendor Name From File *").fill("Beta Parts");
      await page.getByLabel("Spreadsheet Template (.xls, .xlsx)").setInputFiles({
        name: "beta.xlsx",
        mimeType: "application/octet-stream",
        buffer: templateBytes(),
      });
      await page.getByLabel("Ship Via", { exact: true }).fill("Carrier");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: /"Carrier" \(mapShipVia\)/ }).waitFor();
      await context.close();
    });

    await t.step(
      "vendor delete asks with the vendor's name; narrow windows get cards",
      async () => {
        const { context, page } = await loggedInPage(browser, server.url, "sue", "sue-password", {
          viewport: MOBILE_VIEWPORT,
        });
        await page.goto("/order-submission/vendor");
        await page.getByRole("region", { name: "Acme Tools" }).waitFor();
        assert.equal(await page.getByRole("radio", { name: "Cards" }).count(), 0);
        await page.getByRole("button", { name: "Actions for Acme Tools" }).click();
        await page.getByRole("menuitem", { name: "Delete" }).click();
        const dialog = page.getByRole("alertdialog");
        await dialog.getByText('Are you sure you want to delete "Acme Tools"?').waitFor();
        await dialog.getByRole("button", { name: "Delete" }).click();
        await dialog.waitFor({ state: "hidden" });
        await page.getByText("No order vendor sources found.").waitFor();
        assert.deepEqual((await admin.get("/api/order-submission/vendor/active")).body, []);
        await context.close();
      },
    );
  } finally {
    await browser.close();
    await server.close();
  }
});
