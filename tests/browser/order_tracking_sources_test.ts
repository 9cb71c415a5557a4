/** The order tracking source list and edit pages in Chromium. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { launchBrowser, loggedInPage, MOBILE_VIEWPORT } from "./browser.ts";
import { choose, countRequests, saveOrderMailbox } from "./support.ts";

Deno.test("order tracking source pages", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const { mailboxId, mailboxName } = await saveOrderMailbox(admin);
    await server.createUser({ username: "otto", password: "otto-password", orderUser: true });

    await t.step("an empty list says so in the table and in cards", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      await page.goto("/order-tracking-sources");
      await page.getByRole("heading", { name: "Order Tracking Sources", level: 1 }).waitFor();
      await page.getByText("No results.").waitFor();
      await page.getByRole("radio", { name: "Cards" }).click();
      await page.getByText("No order tracking sources found.").waitFor();
      await context.close();
    });

    await t.step("the form checks every rule before sending", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      const saves = countRequests(page, "/api/order-tracking-sources/save");
      await page.goto("/order-tracking-sources");
      await page.getByRole("link", { name: "Add Source" }).click();
      await page.waitForURL("**/order-tracking-sources/edit/0");
      await page.getByRole("heading", { name: "Create New" }).waitFor();
      await page.getByLabel("From Email").fill("not-an-address");
      await page.getByLabel("Subject", { exact: true }).fill("ab");
      await page.getByLabel("Secondary Delimiter").fill(";;");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Enter a valid email address").waitFor();
      assert.ok(await page.getByText("Required").count() >= 3);
      await page.getByText("At most 1 character").waitFor();
      await page.getByText("Choose a unique column").first().waitFor();
      assert.ok(await page.getByText("Must be at least 3 characters").count() >= 2);
      assert.equal(saves.count, 0);
      await context.close();
    });

    await t.step(
      "creating a source sends ids and numbers, then shows Saved! and Back",
      async () => {
        const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
        await page.goto("/order-tracking-sources/edit/0");
        await page.getByRole("heading", { name: "Create New" }).waitFor();
        await page.getByLabel("Source Name").fill("Acme Supply");
        await choose(page, "Email Source", mailboxName);
        await choose(page, "File Type", "csv");
        await page.getByLabel("From Email").fill("reports@acme.example");
        await page.getByLabel("Subject", { exact: true }).fill("Daily order status");
        await page.getByLabel("Expected Attachment Count").fill("1");
        await page.getByLabel("Attachment Name").fill("orders");
        await page.getByLabel("Secondary Delimiter").fill(";");
        await choose(page, "Unique Column", "Customer PO Number");
        await page.getByLabel("Customer PO Number").fill("PO #");
        await page.getByLabel("Tracking Numbers").fill("Tracking");
        const request = page.waitForRequest((r) =>
          r.url().endsWith("/api/order-tracking-sources/save")
        );
        await page.getByRole("button", { name: "Save" }).click();
        const sent = JSON.parse((await request).postData() ?? "{}");
        assert.equal(sent.Id, 0);
        assert.equal(sent.emailSourceId, mailboxId);
        assert.equal(sent.expectedAttachmentCount, 1);
        assert.equal(sent.deleteAfterDays, null);
        assert.equal(sent.columnNormalizationValues.customerPoNumber, "PO #");
        await page.getByRole("button", { name: "Saved!" }).waitFor();
        await page.getByText("Order tracking source saved successfully!").waitFor();
        // The button returns to Save after its 3000 ms.
        await page.getByRole("button", { name: "Save", exact: true }).waitFor({ timeout: 10_000 });
        // The address names the new source (issue 24), so reopening it shows the source.
        await page.waitForURL(/\/order-tracking-sources\/edit\/[1-9]\d*$/);
        const created = page.url();
        await page.getByRole("button", { name: "Back" }).click();
        await page.waitForURL(/\/order-tracking-sources$/);
        const row = page.locator("tbody tr", { hasText: "Acme Supply" });
        await row.waitFor();
        const text = await row.innerText();
        for (const part of ["csv", "reports@acme.example", "1", "Daily order status", "orders"]) {
          assert.ok(text.includes(part), part);
        }
        // The Active column shows the source's state (issue 24), not an empty row selector.
        const active = row.getByRole("checkbox", { name: "Active: Acme Supply" });
        assert.equal(await active.getAttribute("aria-checked"), "true");
        await page.goto(created);
        await page.getByRole("heading", { name: "Edit Order Tracking Source" }).waitFor();
        await page.waitForFunction(() =>
          (document.querySelector("input[name=sourceName]") as HTMLInputElement | null)?.value ===
            "Acme Supply"
        );
        await context.close();
      },
    );

    await t.step("editing loads the source with its e-mail source by name", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      await page.goto("/order-tracking-sources");
      await page.getByRole("button", { name: "Actions for Acme Supply" }).click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await page.waitForURL(/\/order-tracking-sources\/edit\/\d+$/);
      await page.getByRole("heading", { name: "Edit Order Tracking Source" }).waitFor();
      await page.getByLabel("Source Name").waitFor();
      assert.equal(await page.getByLabel("Source Name").inputValue(), "Acme Supply");
      assert.equal(await page.getByLabel("Email Source").innerText(), mailboxName);
      assert.equal(await page.getByLabel("Unique Column").innerText(), "Customer PO Number");
      assert.equal(await page.getByLabel("Customer PO Number").inputValue(), "PO #");
      await page.getByLabel("Source Name").fill("Acme Supply Co");
      await page.getByLabel("Delete After (Days)").fill("30");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      const sources = (await admin.get("/api/order-tracking-sources/active")).body as {
        sourceName: string;
        deleteAfterDays: number;
      }[];
      assert.deepEqual(sources.map((s) => [s.sourceName, s.deleteAfterDays]), [
        ["Acme Supply Co", 30],
      ]);
      await context.close();
    });

    await t.step("a refused save shows the server's message and Error - Try Again", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      await page.goto("/order-tracking-sources/edit/0");
      await page.getByLabel("Source Name").fill("acme supply co");
      await choose(page, "Email Source", mailboxName);
      await choose(page, "File Type", "xlsx");
      await page.getByLabel("From Email").fill("other@acme.example");
      await page.getByLabel("Subject", { exact: true }).fill("Another report");
      await page.getByLabel("Expected Attachment Count").fill("1");
      await page.getByLabel("Attachment Name").fill("report");
      await choose(page, "Unique Column", "Document Number");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("button", { name: "Error - Try Again" }).waitFor();
      await page.getByText(/order_tracking_sources_name_key/).waitFor();
      await context.close();
    });

    await t.step("a source that cannot be loaded says so", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      await page.goto("/order-tracking-sources/edit/9999");
      await page.getByText("Failed to load order tracking source data").waitFor();
      await context.close();
    });

    await t.step("delete asks with the source's name; Cancel keeps it", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password");
      await page.goto("/order-tracking-sources");
      const open = async () => {
        await page.getByRole("button", { name: "Actions for Acme Supply Co" }).click();
        await page.getByRole("menuitem", { name: "Delete" }).click();
      };
      await open();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByText("Confirm Deletion").waitFor();
      await dialog.getByText('Are you sure you want to delete "Acme Supply Co"?').waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      await open();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByText("No results.").waitFor();
      assert.deepEqual((await admin.get("/api/order-tracking-sources/active")).body, []);
      await context.close();
    });

    await t.step("narrow windows get cards and no toggle", async () => {
      await admin.post("/api/order-tracking-sources/save", {
        id: 0,
        sourceName: "Narrow Co",
        emailSourceId: mailboxId,
        fileType: "csv",
        fromEmail: "n@narrow.example",
        subjectValue: "Narrow report",
        expectedAttachmentCount: 1,
        attachmentName: "n",
        uniqueColumn: "ItemNumber",
        activeStatus: false,
      });
      const { context, page } = await loggedInPage(browser, server.url, "otto", "otto-password", {
        viewport: MOBILE_VIEWPORT,
      });
      await page.goto("/order-tracking-sources");
      const card = page.getByRole("region", { name: "Narrow Co" });
      await card.waitFor();
      const text = await card.innerText();
      assert.match(text, /File Type: csv/);
      assert.match(text, /Active:\s*No/);
      assert.equal(
        await card.getByRole("switch", { name: "Active: Narrow Co" }).getAttribute("aria-checked"),
        "false",
      );
      assert.match(text, /From Email: n@narrow.example/);
      assert.match(text, /Subject: Narrow report/);
      assert.equal(await page.getByRole("radio", { name: "Table" }).count(), 0);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
