import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, loggedInPage, newPage } from "./browser.ts";
import { pathOf } from "./support.ts";

Deno.test("route guard and session refresh", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    await server.createUser({ username: "uma", password: "pw-uma-123", orderUser: true });
    await server.createUser({
      username: "ada",
      password: "pw-ada-123",
      isAdmin: true,
      orderUser: true,
    });

    await t.step("logged out: a spinner, then / with the 401 message", async () => {
      const { context, page } = await newPage(browser, server.url);
      let releaseCheck = () => {};
      const held = new Promise<void>((resolve) => releaseCheck = resolve);
      await page.route("**/auth/allowed", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto("/home");
      await page.getByRole("status").waitFor();
      releaseCheck();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("alert").getByText("Your session has expired. Please log in again.")
        .waitFor();
      await context.close();
    });

    await t.step("403 from the check gives the access-denied message", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.route(
        "**/auth/allowed",
        (route) => route.fulfill({ status: 403, json: { message: "Forbidden" } }),
      );
      await page.goto("/sources");
      await page.getByRole("alert")
        .getByText("Access denied. Please log in with proper credentials.").waitFor();
      assert.equal(pathOf(page.url()), "/");
      await context.close();
    });

    await t.step("any other failure asks the user to log in", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.route(
        "**/auth/allowed",
        (route) => route.fulfill({ status: 500, json: { message: "Boom" } }),
      );
      await page.goto("/account");
      await page.getByRole("alert").getByText("Please log in to continue.").waitFor();
      assert.equal(pathOf(page.url()), "/");
      await context.close();
    });

    await t.step("the admin guard sends non-admins to /home", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "uma", "pw-uma-123");
      await page.goto("/admin");
      await page.waitForURL((url) => url.pathname === "/home");
      await page.goto("/admin/manage/users/edit/0");
      await page.waitForURL((url) => url.pathname === "/home");
      await page.getByRole("heading", { name: "Home" }).waitFor();
      await context.close();
    });

    await t.step("admins reach /admin", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "ada", "pw-ada-123");
      await page.getByRole("link", { name: "Admin" }).click();
      await page.getByRole("heading", { name: "Admin" }).waitFor();
      assert.equal(pathOf(page.url()), "/admin");
      await context.close();
    });

    await t.step("an expired access token is refreshed and the request repeated", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "uma", "pw-uma-123");
      await context.clearCookies({ name: "X-Access-Token" });
      const calls: string[] = [];
      page.on("response", (response) => {
        const path = pathOf(response.url());
        if (path.startsWith("/auth/")) calls.push(`${path} ${response.status()}`);
      });
      await page.goto("/order-tracking");
      await page.getByRole("heading", { name: "Order Tracking" }).waitFor();
      assert.equal(pathOf(page.url()), "/order-tracking");
      const first401 = calls.indexOf("/auth/allowed 401");
      assert.deepEqual(calls.slice(first401, first401 + 3), [
        "/auth/allowed 401",
        "/auth/refresh-token 204",
        "/auth/allowed 200",
      ]);
      await context.close();
    });

    await t.step("a failed refresh clears the session and goes to /", async () => {
      const { context, page, console } = await loggedInPage(
        browser,
        server.url,
        "uma",
        "pw-uma-123",
      );
      await context.clearCookies({ name: "X-Access-Token" });
      await context.clearCookies({ name: "X-Refresh-Token" });
      await page.getByRole("link", { name: "Sources" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("alert").getByText("Your session has expired. Please log in again.")
        .waitFor();
      assert.ok(console.includes("Session expired. Redirecting to login."));
      const names = (await context.cookies()).map((cookie) => cookie.name);
      assert.ok(!names.includes("X-Username"), `cookies left: ${names}`);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
