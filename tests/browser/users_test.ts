/** Admin dashboard, user list and user edit as an admin walks through them (spec part 1). */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, loggedInPage, logIn, newPage } from "./browser.ts";
import { countRequests, pathOf, saveButton, timeButtonText } from "./support.ts";

async function openUsers(page: Page): Promise<void> {
  await page.goto("/admin/manage/users");
  await page.getByRole("heading", { name: "Manage Users", level: 1 }).waitFor();
}

Deno.test("admin dashboard and user management", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  const { db } = server;
  try {
    await server.createUser({ username: "ann", password: "ann-password", email: "ann@test.local" });
    const benId = await server.createUser({
      username: "ben",
      password: "ben-password",
      email: "ben@test.local",
      inventoryUser: true,
    });
    const { context, page, console } = await newPage(browser, server.url);
    page.setDefaultTimeout(10_000);
    await logIn(page, "admin", "admin-test-password");

    await t.step("the dashboard shows the number of users and links to the list", async () => {
      await page.getByRole("link", { name: "Admin" }).click();
      await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
      await page.getByText("Number of Users").waitFor();
      // This server has no PUBLIC_URL: the admin is told that mails carry no links (issue 28).
      await page.getByRole("status", { name: "Configuration warning" })
        .getByText(/PUBLIC_URL is not set/).waitFor();
      await page.getByRole("status").getByText("3", { exact: true }).waitFor();
      await page.getByRole("link", { name: "Manage Users" }).click();
      await page.getByRole("heading", { name: "Manage Users", level: 1 }).waitFor();
      assert.equal(pathOf(page.url()), "/admin/manage/users");
    });

    await t.step("from 1024 px: a table with a table/cards toggle", async () => {
      await page.setViewportSize({ width: 1024, height: 800 });
      const table = page.getByRole("table", { name: "Users" });
      await table.waitFor();
      const rows = table.getByRole("row");
      assert.equal(await rows.count(), 4);
      assert.deepEqual(
        (await table.getByRole("rowheader").allTextContents()).map((s) => s.trim()),
        ["admin", "ann", "ben"],
      );
      const benRow = table.getByRole("row").filter({ hasText: "ben@test.local" });
      await benRow.getByRole("link", { name: "Edit ben" }).waitFor();
      await page.getByRole("radio", { name: "Cards" }).click();
      await page.getByRole("article", { name: "ben" }).waitFor();
      assert.equal(await table.count(), 0);
      await page.getByRole("radio", { name: "Table" }).click();
      await table.waitFor();
    });

    await t.step("under 1024 px: cards only, no toggle", async () => {
      await page.setViewportSize({ width: 1023, height: 800 });
      await page.getByRole("article", { name: "ann" }).waitFor();
      assert.equal(await page.getByRole("table").count(), 0);
      assert.equal(await page.getByRole("radio", { name: "Table" }).count(), 0);
      const card = page.getByRole("article", { name: "ben" });
      await card.getByText("ben@test.local").waitFor();
      await card.getByText("Active: Yes").waitFor();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole("table", { name: "Users" }).waitFor();
    });

    await t.step("Add User opens the create form with the new-user defaults", async () => {
      await page.getByRole("link", { name: "Add User" }).click();
      await page.getByRole("heading", { name: "Create New User" }).waitFor();
      assert.equal(pathOf(page.url()), "/admin/manage/users/edit/0");
      assert.equal(await page.getByRole("switch", { name: "Order User" }).isChecked(), true);
      assert.equal(await page.getByRole("switch", { name: "Active" }).isChecked(), false);
      assert.equal(await page.getByRole("switch", { name: "Admin" }).isChecked(), false);
      assert.equal(await saveButton(page).textContent(), "Save");
    });

    await t.step("username and a valid e-mail are required; nothing is sent", async () => {
      const sent = countRequests(page, "/api/accounts/update/user");
      await saveButton(page).click();
      await page.getByText("Username is required").waitFor();
      await page.getByText("Email is required").waitFor();
      await page.getByRole("textbox", { name: "Email" }).fill("not-an-address");
      await saveButton(page).click();
      await page.getByText("Enter a valid email address").waitFor();
      assert.equal(sent.count, 0);
    });

    await t.step("a save shows Saving..., Saved!, a Back button, then Save after 2 s", async () => {
      await page.getByRole("textbox", { name: "Username" }).fill("cleo");
      await page.getByRole("textbox", { name: "Email" }).fill("cleo@test.local");
      await page.getByRole("textbox", { name: "First Name" }).fill("Cleo");
      await page.getByRole("switch", { name: "Active" }).click();
      // Hold the answer to see the saving state.
      let release = () => {};
      const held = new Promise<void>((resolve) => release = resolve);
      await page.route("**/api/accounts/update/user", async (route) => {
        await held;
        await route.continue();
      });
      const savedShown = await timeButtonText(page, "Saved!", 2000);
      await saveButton(page).click();
      await page.getByRole("button", { name: "Saving..." }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Saving..." }).isDisabled(), true);
      release();
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      await page.getByRole("button", { name: "Back", exact: true }).waitFor();
      await page.getByRole("button", { name: "Save", exact: true }).waitFor({ timeout: 4000 });
      const elapsed = await savedShown();
      assert.ok(elapsed > 1500 && elapsed < 3000, `reset after ${elapsed} ms`);
      await page.unroute("**/api/accounts/update/user");
      const [row] = await db.query<
        { orderUser: boolean; active: boolean; hash: string | null; firstName: string }
      >(
        `select order_user as "orderUser", active_status as active, password_hash as hash,
                first_name as "firstName"
           from users where username = 'cleo'`,
      );
      assert.deepEqual(row, { orderUser: true, active: true, hash: null, firstName: "Cleo" });
      // A second save edits the user just made instead of creating another.
      await page.getByRole("heading", { name: "Edit User" }).waitFor();
      const [{ id }] = await db.query<{ id: number }>(
        "select id from users where username = 'cleo'",
      );
      assert.equal(pathOf(page.url()), `/admin/manage/users/edit/${id}`);
      await page.getByRole("textbox", { name: "Last Name" }).fill("Patra");
      await saveButton(page).click();
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from users where username = 'cleo'",
      );
      assert.equal(count, 1);
    });

    await t.step("Back after a save returns to the list, which shows the new user", async () => {
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await page.getByRole("table", { name: "Users" }).getByRole("rowheader", { name: "cleo" })
        .waitFor();
      assert.equal(pathOf(page.url()), "/admin/manage/users");
    });

    await t.step("a duplicate username ends in Error - Try Again with the reason", async () => {
      await page.getByRole("link", { name: "Add User" }).click();
      await page.getByRole("textbox", { name: "Username" }).fill("ANN");
      await page.getByRole("textbox", { name: "Email" }).fill("other@test.local");
      await saveButton(page).click();
      await page.getByRole("button", { name: "Error - Try Again" }).waitFor();
      await page.getByRole("alert").getByText('The username "ANN" is already taken.').waitFor();
      assert.equal(await page.getByRole("button", { name: "Back", exact: true }).count(), 0);
      await page.getByRole("button", { name: "Save", exact: true }).waitFor({ timeout: 4000 });
      assert.ok(console.some((line) => line.startsWith("Save failed")));
    });

    await t.step("Edit loads the user; a blank password keeps the old one", async () => {
      await page.getByRole("link", { name: "Back to Users" }).click();
      await page.getByRole("table", { name: "Users" }).getByRole("link", { name: "Edit ben" })
        .click();
      await page.getByRole("heading", { name: "Edit User" }).waitFor();
      assert.equal(pathOf(page.url()), `/admin/manage/users/edit/${benId}`);
      assert.equal(await page.getByRole("textbox", { name: "Username" }).inputValue(), "ben");
      assert.equal(await page.getByRole("switch", { name: "Inventory User" }).isChecked(), true);
      assert.equal(await page.getByLabel("Password", { exact: true }).inputValue(), "");
      await page.getByText("Leave blank to keep the current password.").waitFor();
      await page.getByRole("switch", { name: "Submission User" }).click();
      await saveButton(page).click();
      await page.getByRole("button", { name: "Saved!" }).waitFor();
      const [row] = await db.query<{ submission: boolean }>(
        "select submission_user as submission from users where id = $1",
        [benId],
      );
      assert.equal(row.submission, true);
      const ben = await newPage(browser, server.url);
      await logIn(ben.page, "ben", "ben-password");
      await ben.context.close();
    });

    await t.step("Delete asks first; Cancel keeps the user", async () => {
      await openUsers(page);
      const table = page.getByRole("table", { name: "Users" });
      await table.getByRole("button", { name: "Delete ann" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Confirm Deletion" });
      await dialog.getByText('Are you sure you want to delete "ann"?').waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      await table.getByRole("rowheader", { name: "ann" }).waitFor();
    });

    await t.step("a failed delete keeps the dialog open", async () => {
      const table = page.getByRole("table", { name: "Users" });
      await table.getByRole("button", { name: "Delete admin" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Confirm Deletion" });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.getByRole("alert").getByText("You cannot delete your own account.").waitFor();
      assert.ok(console.some((line) => line.startsWith("Delete failed")));
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("confirming removes the user and the row", async () => {
      const table = page.getByRole("table", { name: "Users" });
      await table.getByRole("button", { name: "Delete ann" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Confirm Deletion" });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "detached" });
      await table.getByRole("rowheader", { name: "ann" }).waitFor({ state: "detached" });
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from users where username = 'ann'",
      );
      assert.equal(count, 0);
    });

    await t.step("on a narrow window the cards carry the same actions", async () => {
      await page.setViewportSize({ width: 500, height: 900 });
      const card = page.getByRole("article", { name: "cleo" });
      await card.getByRole("link", { name: "Edit cleo" }).waitFor();
      await card.getByRole("button", { name: "Delete cleo" }).click();
      await page.getByRole("alertdialog", { name: "Confirm Deletion" })
        .getByText('Are you sure you want to delete "cleo"?').waitFor();
      await page.keyboard.press("Escape");
    });
    await context.close();

    await t.step("an unknown user id says so", async () => {
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        "admin",
        "admin-test-password",
      );
      await page.goto("/admin/manage/users/edit/999");
      await page.getByRole("alert").getByText("User 999 not found.").waitFor();
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
