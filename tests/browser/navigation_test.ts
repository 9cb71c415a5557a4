import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, loggedInPage, logIn, MOBILE_VIEWPORT, newPage } from "./browser.ts";

const MENU = ["Home", "Order Tracking", "Sources", "Runs", "Admin"];
const CARDS = [
  "Email Sources",
  "Order Tracking Sources",
  "Inventory Sources",
  "Order Submission Sources",
  "Submission Vendor Sources",
  "Notification Settings",
];

/** Names of the links in the main navigation, in order. */
async function menuLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Home" }).waitFor();
  return (await nav.getByRole("link").allTextContents()).map((text) => text.trim());
}

/** Titles of the cards on the sources hub, in order. */
async function hubCards(page: Page): Promise<string[]> {
  await page.goto("/sources");
  await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
  return (await page.getByRole("region").getByRole("heading").allTextContents())
    .map((text) => text.trim());
}

Deno.test("navigation bar, sources hub, theme, drawer, logout", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  const none = { orderUser: false, inventoryUser: false, submissionUser: false };
  try {
    await server.createUser({
      username: "root",
      password: "pw-root-123",
      isAdmin: true,
      orderUser: true,
      inventoryUser: true,
      submissionUser: true,
    });
    await server.createUser({
      username: "ivy",
      password: "pw-ivy-123",
      ...none,
      inventoryUser: true,
    });
    await server.createUser({
      username: "sam",
      password: "pw-sam-123",
      ...none,
      submissionUser: true,
    });
    await server.createUser({
      username: "otto",
      password: "pw-otto-123",
      ...none,
      orderUser: true,
    });
    await server.createUser({ username: "nobody", password: "pw-nobody-123", ...none });
    await server.createUser({ username: "boss", password: "pw-boss-123", ...none, isAdmin: true });

    await t.step("an admin with every flag sees every menu entry and hub card", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      assert.deepEqual(await menuLinks(page), MENU);
      assert.deepEqual(await hubCards(page), CARDS);
      await context.close();
    });

    await t.step("an inventory user sees Home and Sources and three cards", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "ivy", "pw-ivy-123");
      assert.deepEqual(await menuLinks(page), ["Home", "Sources", "Runs"]);
      assert.deepEqual(await hubCards(page), [
        "Email Sources",
        "Inventory Sources",
        "Notification Settings",
      ]);
      await page.getByRole("region", { name: "Inventory Sources" })
        .getByRole("link", { name: "Manage" }).click();
      await page.getByRole("heading", { name: "Inventory Sources" }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/inventory-sources");
      await context.close();
    });

    await t.step("cards follow the submission and order flags", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "sam", "pw-sam-123");
      assert.deepEqual(await hubCards(page), [
        "Email Sources",
        "Order Submission Sources",
        "Submission Vendor Sources",
        "Notification Settings",
      ]);
      await context.close();

      const otto = await newPage(browser, server.url);
      await logIn(otto.page, "otto", "pw-otto-123");
      assert.deepEqual(await menuLinks(otto.page), ["Home", "Order Tracking", "Sources", "Runs"]);
      assert.deepEqual(await hubCards(otto.page), [
        "Email Sources",
        "Order Tracking Sources",
        "Notification Settings",
      ]);
      await otto.context.close();
    });

    await t.step("without flags: Home only; an admin without flags: Home and Admin", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "nobody", "pw-nobody-123");
      assert.deepEqual(await menuLinks(page), ["Home"]);
      assert.deepEqual(await hubCards(page), []);
      await context.close();

      const boss = await newPage(browser, server.url);
      await logIn(boss.page, "boss", "pw-boss-123");
      assert.deepEqual(await menuLinks(boss.page), ["Home", "Runs", "Admin"]);
      assert.deepEqual(await hubCards(boss.page), ["Notification Settings"]);
      await boss.context.close();
    });

    await t.step("the theme starts dark and a choice survives a reload", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      const htmlClass = () => page.evaluate(() => document.documentElement.className);
      assert.match(await htmlClass(), /\bdark\b/);
      await page.getByRole("radio", { name: "Light" }).click();
      assert.match(await htmlClass(), /\blight\b/);
      await page.reload();
      assert.match(await htmlClass(), /\blight\b/);
      await page.getByRole("radio", { name: "Light", checked: true }).waitFor();
      await page.getByRole("radio", { name: "System" }).click();
      await page.reload();
      await page.getByRole("radio", { name: "System", checked: true }).waitFor();
      await context.close();
    });

    await t.step("on a narrow window the menu is a side drawer dialog", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123", {
        viewport: MOBILE_VIEWPORT,
      });
      assert.equal(await page.getByRole("navigation", { name: "Main" }).count(), 0);
      await page.getByRole("button", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      assert.deepEqual(
        (await drawer.getByRole("link").allTextContents()).map((text) => text.trim()),
        MENU,
      );
      await drawer.getByRole("link", { name: "Sources" }).click();
      await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
      await drawer.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Open menu" }).click();
      await drawer.getByRole("button", { name: "Manage" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      await context.close();
    });

    await t.step("Account menu: Manage opens /account, Logout goes to /", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByRole("menuitem", { name: "Manage" }).click();
      await page.getByRole("heading", { name: "Account" }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/account");
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByRole("menuitem", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto("/home");
      await page.getByRole("alert").getByText("Your session has expired. Please log in again.")
        .waitFor();
      await context.close();
    });

    await t.step("logout still ends on / when the server fails", async () => {
      const { context, page, console } = await loggedInPage(
        browser,
        server.url,
        "root",
        "pw-root-123",
      );
      await page.route(
        "**/auth/logout",
        (route) => route.fulfill({ status: 500, json: { message: "Server error" } }),
      );
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByRole("menuitem", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("button", { name: "Login" }).waitFor();
      assert.ok(console.includes("Server logout failed, clearing client session anyway"));
      const names = (await context.cookies()).map((cookie) => cookie.name);
      assert.ok(!names.includes("X-Username"));
      await context.close();
    });

    await t.step("an unknown route shows the fallback page", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      await page.goto("/no/such/page");
      await page.getByRole("heading", { name: "Unexpected Application Error!" }).waitFor();
      await context.close();
    });

    await t.step("a page that fails to load shows the fallback page", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      await page.route("**/assets/account_page-*.js", (route) => route.abort());
      await page.getByRole("button", { name: "Account" }).click();
      await page.getByRole("menuitem", { name: "Manage" }).click();
      await page.getByRole("heading", { name: "Unexpected Application Error!" }).waitFor();
      await page.getByRole("link", { name: "Sources" }).click();
      await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
      await context.close();
    });

    await t.step("navigating does not reload the page", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "root", "pw-root-123");
      await page.evaluate(() => Object.assign(globalThis, { stillHere: true }));
      await page.getByRole("link", { name: "Order Tracking" }).click();
      await page.getByRole("heading", { name: "Order Tracking" }).waitFor();
      await page.getByRole("link", { name: "Sources" }).click();
      await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
      assert.equal(await page.evaluate(() => "stillHere" in globalThis), true);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
