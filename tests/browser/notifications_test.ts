/**
 * The notification settings screens (spec part 2, sections 2, 4, 5, 8, 9): list texts, filters,
 * badges, table and cards, delete; the edit form's cards, defaults, cron check, save and test
 * states and messages.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { launchBrowser, logIn, MOBILE_VIEWPORT, newPage } from "./browser.ts";
import { choose, pathOf, saveButton } from "./support.ts";

Deno.test("notification settings screens", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const { context, page } = await newPage(browser, server.url);
    page.setDefaultTimeout(10_000);
    await logIn(page, "admin", ADMIN_PASSWORD);

    await t.step(
      "empty list: count line, empty text in table and cards, labelled filters",
      async () => {
        await page.goto("/notification-settings");
        await page.getByRole("heading", { name: "Notification Settings", level: 1 }).waitFor();
        await page.getByText("Showing 0 of 0 notification settings").waitFor();
        const table = page.getByRole("table", { name: "Notification settings" });
        await table.getByText("No notification settings found.").waitFor();
        for (
          const header of [
            "Name",
            "Source Type",
            "Source Name",
            "Enabled",
            "Interval",
            "Includes",
            "Last Sent",
            "Actions",
          ]
        ) await table.getByRole("columnheader", { name: header, exact: true }).waitFor();
        for (const label of ["Source Name", "Source Type", "Interval"]) {
          await page.getByLabel(label, { exact: true }).waitFor();
        }
        await page.getByRole("radio", { name: "Cards" }).click();
        await page.getByText("No notification settings found.").waitFor();
        await page.getByRole("radio", { name: "Table" }).click();
      },
    );

    await t.step("new setting: the cards, the defaults of section 9, unsaved test", async () => {
      await page.getByRole("link", { name: "Add Notification Setting" }).click();
      await page.waitForURL("**/notification-settings/edit/0");
      for (
        const heading of [
          "Basic Settings",
          "Schedule Settings",
          "Content Settings",
          "Email Settings",
          "Email Configuration",
        ]
      ) await page.getByRole("heading", { name: heading, level: 2 }).waitFor();
      assert.equal(await page.getByLabel("Notification Name").inputValue(), "");
      assert.equal(await page.getByLabel("Notification Interval").textContent(), "Weekly");
      await page.getByLabel("Day of Week").waitFor();
      assert.equal(await page.getByLabel("Cron Expression").count(), 0);
      assert.equal(
        await page.getByRole("switch", { name: "Notification Enabled" }).isChecked(),
        false,
      );
      const defaults: Array<[string, boolean]> = [
        ["Include Status Changes", true],
        ["Include Quantity Changes", true],
        ["Include Zero Quantity Alerts", false],
        ["Include Daily Breakdown", true],
        ["Include Item Details", true],
        ["Include Error Alerts", true],
        ["Include Success Alerts", true],
        ["Consolidated Email", false],
      ];
      for (const [name, on] of defaults) {
        assert.equal(await page.getByRole("switch", { name }).isChecked(), on, name);
      }
      await page.getByText("Order recipients").waitFor();

      await page.getByRole("button", { name: "Test Notification" }).click();
      const unsaved = page.getByText("Please save the notification setting first before testing");
      await unsaved.waitFor();
      await unsaved.waitFor({ state: "detached", timeout: 5000 });
    });

    await t.step("required fields", async () => {
      await saveButton(page).click();
      await page.getByText("Notification name is required").waitFor();
      await page.getByText("Source type is required").waitFor();
      assert.equal(pathOf(page.url()), "/notification-settings/edit/0");
    });

    await t.step("Custom: the cron check after a pause, green, red, failed, cleared", async () => {
      await choose(page, "Notification Interval", "Custom");
      assert.equal(await page.getByLabel("Day of Week").count(), 0);
      const cron = page.getByLabel("Cron Expression");
      const result = page.getByTestId("cron-result");
      await cron.fill("0 7 * * 1");
      await result.getByText(/Valid cron expression/).waitFor();
      // The next run is said once (issue 24: the message no longer repeats it).
      const said = await result.innerText();
      assert.equal(said.match(/next run/gi)?.length, 1, said);
      assert.doesNotMatch(said, /Next execution/);
      assert.match(await result.getAttribute("class") ?? "", /green|rt-/);
      await cron.fill("61 * * * *");
      await result.getByText(/Invalid cron expression/).waitFor();
      await cron.fill("");
      await result.waitFor({ state: "detached" });
      await page.route("**/api/notification-settings/validate-cron", (route) => route.abort());
      await cron.fill("0 8 * * *");
      await result.getByText("Error validating cron expression", { exact: true }).waitFor();
      await page.unroute("**/api/notification-settings/validate-cron");
    });

    await t.step("save: Saved! and back to the list after 1 s; the row's texts", async () => {
      await page.getByLabel("Notification Name").fill("Tracking weekly");
      await choose(page, "Source Type", "Order Tracking");
      await choose(page, "Notification Interval", "Weekly");
      await choose(page, "Day of Week", "Wednesday");
      await page.getByRole("switch", { name: "Notification Enabled" }).click();
      await saveButton(page).click();
      await page.getByRole("button", { name: "Saved!" }).waitFor().catch(async (error) => {
        console.log(await page.locator("form").innerText());
        throw error;
      });
      await page.waitForURL(/\/notification-settings\/edit\/[1-9]\d*$/);
      await page.waitForURL("**/notification-settings", { timeout: 5000 });
      await page.getByText("Showing 1 of 1 notification settings").waitFor();
      const row = page.getByRole("row").filter({ hasText: "All sources" });
      await row.getByText("Order Tracking", { exact: true }).waitFor();
      // The setting's own name is in the table (issue 24).
      await row.getByRole("rowheader", { name: "Tracking weekly" }).waitFor();
      await row.getByText("Enabled", { exact: true }).waitFor();
      await row.getByText("Weekly (Wednesday)").waitFor();
      await row.getByText("Status Changes", { exact: true }).waitFor();
      await row.getByText("Quantity Changes", { exact: true }).waitFor();
      await row.getByText("+4 more").waitFor();
      await row.getByText("Never").waitFor();
    });

    await t.step("edit: loaded values; test errors with Dismiss; test sent for 5 s", async () => {
      await page.getByRole("link", { name: "Edit Tracking weekly" }).click();
      await page.waitForURL(/\/notification-settings\/edit\/\d+$/);
      await page.getByRole("heading", { name: "Edit Notification Setting" }).waitFor();
      await page.waitForFunction(() =>
        (document.querySelector("input[name=name]") as HTMLInputElement)?.value ===
          "Tracking weekly"
      );
      // no recipients and no mail server: the server's message, dismissable
      await page.getByRole("button", { name: "Test Notification" }).click();
      await page.getByText(/No recipients/).waitFor();
      await page.getByRole("link", { name: "Dismiss" }).click();
      await page.getByText(/No recipients/).waitFor({ state: "detached" });
      // a failed call without a message: the default text
      await page.route("**/api/notification-settings/*/test", (route) => route.abort());
      await page.getByRole("button", { name: "Test Notification" }).click();
      await page.getByText("Failed to send test notification").waitFor();
      await page.unroute("**/api/notification-settings/*/test");
      await page.route("**/api/notification-settings/*/test", (route) =>
        route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({
            success: true,
            message: "ok",
            subject: "s",
            recipients: ["a@example.com"],
            windowFrom: new Date().toISOString(),
            windowTo: new Date().toISOString(),
            details: 'Sent "s" to a@example.com.',
          }),
        }));
      await page.getByRole("button", { name: "Test Notification" }).click();
      await page.getByRole("button", { name: "Sent!" }).waitFor();
      await page.getByText('Sent "s" to a@example.com.').waitFor();
      await page.getByRole("button", { name: "Test Notification" }).waitFor({ timeout: 7000 });
      // The button is idle again, the feedback stays until the person dismisses it.
      await page.getByRole("status").getByText('Sent "s" to a@example.com.').waitFor();
      await page.getByRole("status").getByRole("link", { name: "Dismiss" }).click();
      await page.getByText('Sent "s" to a@example.com.').waitFor({ state: "detached" });
      await page.unroute("**/api/notification-settings/*/test");
    });

    await t.step("save failure: malformed recipients are named; server message shown", async () => {
      await page.getByLabel("Override Email Recipients").fill("ok@example.com, bad");
      await saveButton(page).click();
      await page.getByText('Not valid e-mail addresses: "bad"').waitFor();
      await page.getByLabel("Override Email Recipients").fill("");
      await page.route(
        "**/api/notification-settings/*",
        (route) =>
          route.request().method() === "PUT"
            ? route.fulfill({
              status: 400,
              contentType: "application/json",
              body: JSON.stringify({ message: "Unknown source: gone" }),
            })
            : route.continue(),
      );
      await saveButton(page).click();
      await page.getByRole("alert").getByText("Unknown source: gone").waitFor();
      await page.getByRole("button", { name: "Error - Try Again" }).waitFor();
      await page.unroute("**/api/notification-settings/*");
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL("**/notification-settings");
    });

    await t.step("filters, badges and cards", async () => {
      const admin = testClient(server.url);
      await admin.login("admin", ADMIN_PASSWORD);
      const created = await admin.post("/api/notification-settings", {
        name: "Inventory daily",
        sourceTypeId: 1,
        notificationInterval: "Daily",
        includeStatusChanges: false,
      });
      assert.equal(created.status, 200);
      await page.reload();
      await page.getByText("Showing 2 of 2 notification settings").waitFor();
      await choose(page, "Source Type", "Inventory");
      await page.getByText("Showing 1 of 2 notification settings").waitFor();
      await page.getByRole("row").filter({ hasText: "Daily" }).getByText("Disabled").waitFor();
      await choose(page, "Interval", "Weekly");
      await page.getByText("Showing 0 of 2 notification settings").waitFor();
      await page.getByText("No notification settings found.").waitFor();
      await choose(page, "Source Type", "All");
      await page.getByText("Showing 1 of 2 notification settings").waitFor();
      await choose(page, "Interval", "All");
      await choose(page, "Source Name", "All sources");
      await page.getByText("Showing 2 of 2 notification settings").waitFor();
      const inventoryBadge = page.getByRole("row").filter({ hasText: "Daily" })
        .getByText("Inventory", { exact: true });
      assert.equal(await inventoryBadge.getAttribute("data-variant"), "solid");
      const trackingBadge = page.getByRole("row").filter({ hasText: "Weekly" })
        .getByText("Order Tracking", { exact: true });
      assert.equal(await trackingBadge.getAttribute("data-variant"), "outline");

      await page.getByRole("radio", { name: "Cards" }).click();
      const card = page.getByRole("region", { name: "Tracking weekly" });
      await card.getByText("Status Changes", { exact: true }).waitFor();
      await card.getByText("Zero Quantity Alerts", { exact: false }).count();
      await card.getByText("+3 more").waitFor();
      await card.getByText("Last Sent: Never").waitFor();
      await page.getByRole("radio", { name: "Table" }).click();
    });

    await t.step("delete with confirmation", async () => {
      await page.getByRole("button", { name: "Delete Inventory daily" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByText("Confirm Deletion").waitFor();
      await dialog.getByText('Are you sure you want to delete "Inventory daily"?').waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Showing 1 of 1 notification settings").waitFor();
    });
    await context.close();

    await t.step("below 768 px: cards forced, no toggle", async () => {
      const mobile = await newPage(browser, server.url, { viewport: MOBILE_VIEWPORT });
      try {
        await logIn(mobile.page, "admin", ADMIN_PASSWORD);
        await mobile.page.goto("/notification-settings");
        await mobile.page.getByRole("region", { name: "Tracking weekly" }).waitFor();
        assert.equal(await mobile.page.getByRole("radio", { name: "Cards" }).count(), 0);
        assert.equal(await mobile.page.getByRole("table").count(), 0);
      } finally {
        await mobile.context.close();
      }
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
