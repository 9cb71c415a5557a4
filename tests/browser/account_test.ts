/** The account page as a new user walks through it (spec part 1, sections 2, 4, 5). */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { ORDER_TRACKING_COLUMNS } from "../../shared/contract/order_columns.ts";
import { ORDER_LABELS } from "../../shared/contract/order_tracking.ts";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, loggedInPage, logIn, newPage } from "./browser.ts";
import { countRequests, pathOf } from "./support.ts";

/** Opens /account through the Account menu, as a user would. */
async function openAccount(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Manage" }).click();
  await page.getByRole("heading", { name: "Account Settings", level: 1 }).waitFor();
  await page.getByText("User Information").waitFor();
}

const cardValue = (page: Page, label: string) =>
  page.getByRole("region", { name: label, exact: true }).getByTestId(`${label} value`);

/** The rendered width, once the opening animation (a slight zoom) has finished. */
async function widthOf(locator: Locator): Promise<number> {
  await locator.evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished))
  );
  const box = await locator.boundingBox();
  assert.ok(box, "the element is visible");
  return Math.round(box.width);
}

Deno.test("account page", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  const { db } = server;
  try {
    const waltId = await server.createUser({
      username: "walt",
      password: "walt-password",
      email: "walt@test.local",
      orderUser: true,
    });
    const { context, page, console } = await newPage(browser, server.url);
    page.setDefaultTimeout(10_000);
    await logIn(page, "walt", "walt-password");
    await openAccount(page);

    await t.step("the read-only cards show id, name and long dates", async () => {
      assert.equal(await cardValue(page, "User Id").textContent(), String(waltId));
      assert.equal(await cardValue(page, "Username").textContent(), "walt");
      // Long form: month name, day, year and a time.
      const longDate = /^[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2} [AP]M$/;
      assert.match((await cardValue(page, "Last Login").textContent()) ?? "", longDate);
      assert.match((await cardValue(page, "Created On").textContent()) ?? "", longDate);
    });

    await t.step("a never-set date shows blank", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "walt", "walt-password");
      await page.route("**/api/accounts/user-info/*", async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...(await response.json()), lastLogin: null } });
      });
      await openAccount(page);
      assert.equal(await cardValue(page, "Last Login").textContent(), "");
      await context.close();
    });

    await t.step("each Save sends e-mail and both names together and refills them", async () => {
      const email = page.getByRole("form", { name: "Email" }).getByLabel("Email");
      assert.equal(await email.inputValue(), "walt@test.local");
      await email.fill("walter@test.local");
      await page.getByRole("textbox", { name: "First Name" }).fill("Walter");
      await page.getByRole("textbox", { name: "Last Name" }).fill("White");
      // The fields are refilled from the answer: here the server's answer differs from the input.
      await page.route("**/api/accounts/update/user-info", async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...(await response.json()), lastName: "W." } });
      });
      const sent = page.waitForRequest((r) => pathOf(r.url()) === "/api/accounts/update/user-info");
      await page.getByRole("form", { name: "First Name" }).getByRole("button", { name: "Save" })
        .click();
      assert.deepEqual((await sent).postDataJSON(), {
        userId: waltId,
        email: "walter@test.local",
        firstName: "Walter",
        lastName: "White",
      });
      await page.waitForFunction(() =>
        [...document.querySelectorAll("input")].some((input) => input.value === "W.")
      );
      await page.unroute("**/api/accounts/update/user-info");
      const [row] = await db.query<{ email: string; firstName: string; lastName: string }>(
        `select email, first_name as "firstName", last_name as "lastName" from users where id = $1`,
        [waltId],
      );
      assert.deepEqual(row, { email: "walter@test.local", firstName: "Walter", lastName: "White" });
    });

    await t.step("the username dialog is 425 px wide and renames the account", async () => {
      await page.getByRole("button", { name: "Change Username" }).click();
      const dialog = page.getByRole("dialog", { name: "Change Username" });
      assert.equal(await widthOf(dialog), 425);
      await dialog.getByLabel("Username").fill("walter");
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.waitFor({ state: "detached" });
      await cardValue(page, "Username").getByText("walter", { exact: true }).waitFor();
      const cookie = (await context.cookies()).find((c) => c.name === "X-Username");
      assert.equal(cookie?.value, "walter");
    });

    await t.step("a taken username keeps the dialog open with the reason", async () => {
      await server.createUser({ username: "jesse", password: "jesse-password" });
      await page.getByRole("button", { name: "Change Username" }).click();
      const dialog = page.getByRole("dialog", { name: "Change Username" });
      assert.equal(await dialog.getByLabel("Username").inputValue(), "walter");
      await dialog.getByLabel("Username").fill("jesse");
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await dialog.getByRole("alert").getByText('The username "jesse" is already taken.').waitFor();
      assert.ok(console.some((line) => line.startsWith("Request failed")));
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await cardValue(page, "Username").textContent(), "walter");
    });

    await t.step("mismatched passwords turn both labels red and send nothing", async () => {
      const calls = countRequests(page, "/api/accounts/update/password");
      await page.getByRole("button", { name: "Change Password" }).click();
      const dialog = page.getByRole("dialog", { name: "Change Password" });
      assert.equal(await widthOf(dialog), 425);
      await dialog.getByLabel("Current Password").fill("walt-password");
      await dialog.getByLabel("New Password").fill("new-password-1");
      await dialog.getByLabel("Confirm Password").fill("new-password-2");
      const label = (name: string) => dialog.locator("label", { hasText: name });
      const colour = (name: string) =>
        label(name).evaluate((element) => getComputedStyle(element).color);
      const normal = await colour("Current Password");
      assert.equal(await colour("New Password"), normal);
      await dialog.getByRole("button", { name: "Save Password" }).click();
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll("label")].filter((l) =>
            l.getAttribute("data-accent-color") === "red"
          ).length === 2,
      );
      assert.notEqual(await colour("New Password"), normal);
      assert.notEqual(await colour("Confirm Password"), normal);
      assert.equal(await colour("Current Password"), normal);
      assert.equal(await label("New Password").getAttribute("data-accent-color"), "red");
      // Said in words too (issue 24), and tied to the field for screen readers.
      const said = page.getByRole("dialog", { name: "Change Password" }).getByRole("alert")
        .getByText("Passwords do not match", { exact: true });
      await said.waitFor();
      const confirm = page.getByRole("dialog", { name: "Change Password" }).getByLabel(
        "Confirm Password",
      );
      assert.equal(
        await confirm.getAttribute("aria-describedby"),
        await said.getAttribute("id"),
      );
      assert.equal(calls.count, 0);
    });

    await t.step("a wrong current password is refused; the right one changes it", async () => {
      const dialog = page.getByRole("dialog", { name: "Change Password" });
      await dialog.getByLabel("Current Password").fill("not-my-password");
      await dialog.getByLabel("Confirm Password").fill("new-password-1");
      await dialog.getByRole("button", { name: "Save Password" }).click();
      await dialog.getByRole("alert").getByText("Current password is incorrect.").waitFor();
      await dialog.getByLabel("Current Password").fill("walt-password");
      await dialog.getByRole("button", { name: "Save Password" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Password changed.").waitFor();
      // This session goes on; the new password logs in elsewhere.
      const other = await newPage(browser, server.url);
      await logIn(other.page, "walter", "new-password-1");
      await other.context.close();
    });

    await t.step("the columns dialog: 900 px, 3 columns of switches, all on", async () => {
      await page.getByRole("button", { name: "Select Columns" }).click();
      const dialog = page.getByRole("dialog", { name: "Order Tracking Page View Columns" });
      await dialog.getByText("Select which columns you want on your default view").waitFor();
      assert.equal(await widthOf(dialog), 900);
      const switches = dialog.getByRole("switch");
      assert.equal(await switches.count(), ORDER_TRACKING_COLUMNS.length);
      for (const column of ORDER_TRACKING_COLUMNS) {
        assert.equal(
          await dialog.getByRole("switch", { name: ORDER_LABELS[column], exact: true }).isChecked(),
          true,
          column,
        );
      }
      assert.equal(await dialog.getByRole("switch", { name: "id", exact: true }).count(), 0);
      assert.equal(
        await dialog.getByRole("switch", { name: "userOrderTrackingViewSettingsId" }).count(),
        0,
      );
      const lefts = new Set<number>();
      for (
        const box of await switches.evaluateAll((all) =>
          all.map((s) => s.getBoundingClientRect().left)
        )
      ) {
        lefts.add(Math.round(box));
      }
      assert.equal(lefts.size, 3);
    });

    await t.step(
      "toggling is local; Save Changes stores and takes the server's columns",
      async () => {
        const calls = countRequests(page, "/api/accounts/update/order-tracking-settings");
        const dialog = page.getByRole("dialog", { name: "Order Tracking Page View Columns" });
        await dialog.getByRole("switch", { name: "Notes", exact: true }).click();
        await dialog.getByRole("switch", { name: "PO Date", exact: true }).click();
        assert.equal(
          await dialog.getByRole("switch", { name: "Notes", exact: true }).isChecked(),
          false,
        );
        assert.equal(calls.count, 0);
        // The server's answer wins: here it also turned qty off.
        await page.route("**/api/accounts/update/order-tracking-settings", async (route) => {
          const response = await route.fetch();
          const body = await response.json();
          await route.fulfill({
            response,
            json: { ...body, enabledColumns: { ...body.enabledColumns, qty: false } },
          });
        });
        const sent = page.waitForRequest((r) =>
          pathOf(r.url()) === "/api/accounts/update/order-tracking-settings"
        );
        await dialog.getByRole("button", { name: "Save Changes" }).click();
        const payload = (await sent).postDataJSON();
        assert.equal(payload.userId, waltId);
        assert.equal(payload.enabledColumns.notes, false);
        assert.equal(payload.enabledColumns.poDate, false);
        assert.equal(payload.enabledColumns.qty, true);
        await dialog.waitFor({ state: "detached" });
        await page.unroute("**/api/accounts/update/order-tracking-settings");
        await page.getByRole("button", { name: "Select Columns" }).click();
        assert.equal(
          await dialog.getByRole("switch", { name: "Qty", exact: true }).isChecked(),
          false,
        );
        assert.equal(
          await dialog.getByRole("switch", { name: "Notes", exact: true }).isChecked(),
          false,
        );
        await dialog.getByRole("button", { name: "Cancel" }).click();
        const [row] = await db.query<{ columns: Record<string, boolean> }>(
          `select enabled_columns as columns from order_tracking_view_settings where user_id = $1`,
          [waltId],
        );
        assert.equal(row.columns.notes, false);
        assert.equal(row.columns.poDate, false);
      },
    );

    await t.step("a reload shows the stored columns", async () => {
      await page.reload();
      await page.getByRole("heading", { name: "Account Settings" }).waitFor();
      await cardValue(page, "Username").getByText("walter").waitFor();
      await page.getByRole("button", { name: "Select Columns" }).click();
      const dialog = page.getByRole("dialog", { name: "Order Tracking Page View Columns" });
      assert.equal(
        await dialog.getByRole("switch", { name: "Notes", exact: true }).isChecked(),
        false,
      );
      assert.equal(
        await dialog.getByRole("switch", { name: "Qty", exact: true }).isChecked(),
        true,
      );
      await page.keyboard.press("Escape");
    });

    await t.step("access tokens: created with a name, shown once, listed, revoked", async () => {
      const card = page.getByRole("region", { name: "Access tokens" });
      await card.getByText(/No access tokens/).waitFor();
      // Said in words, not as a command name (issue 24).
      const said = await card.innerText();
      assert.doesNotMatch(said, /cli login/);
      assert.match(said, /lets a program act as you without your password/);
      await card.getByRole("button", { name: "Create token" }).click();
      const dialog = page.getByRole("dialog", { name: "Create access token" });
      await dialog.getByLabel("Name").fill("CI pipeline");
      await dialog.getByRole("button", { name: "Create" }).click();
      const shown = (await dialog.getByTestId("new access token").textContent()) ?? "";
      assert.match(shown, /^smt_[A-Za-z0-9_-]{43}$/);
      await dialog.getByRole("button", { name: "Copy" }).waitFor();
      await dialog.getByRole("button", { name: "Done" }).click();
      await card.getByRole("rowheader", { name: "CI pipeline" }).waitFor();
      assert.equal(await card.getByText(shown).count(), 0, "the token is not shown again");
      assert.equal(await card.getByText("Never").count(), 1);
      const me = await fetch(`${server.url}/auth/user`, {
        headers: { authorization: `Bearer ${shown}` },
      });
      assert.equal(((await me.json()) as { username: string }).username, "walter");
      await card.getByRole("button", { name: "Revoke CI pipeline" }).click();
      await card.getByText(/No access tokens/).waitFor();
      const after = await fetch(`${server.url}/auth/user`, {
        headers: { authorization: `Bearer ${shown}` },
      });
      await after.body?.cancel();
      assert.equal(after.status, 401);
    });
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
