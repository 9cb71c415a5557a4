import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

Deno.test("login page", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    await server.createUser({ username: "alice", password: "correct horse" });

    await t.step("valid credentials go to /home", async () => {
      const { context, page } = await newPage(browser, server.url);
      await logIn(page, "alice", "correct horse");
      assert.equal(new URL(page.url()).pathname, "/home");
      await page.getByRole("heading", { name: "Home" }).waitFor();
      await context.close();
    });

    await t.step("username and password are trimmed", async () => {
      const { context, page } = await newPage(browser, server.url);
      await logIn(page, "  alice ", " correct horse  ");
      await context.close();
    });

    await t.step("a wrong password shows the server's message and stays on /", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.goto("/");
      await page.getByLabel("Username").fill("alice");
      await page.getByLabel("Password").fill("wrong");
      const answer = page.waitForResponse((response) =>
        new URL(response.url()).pathname === "/auth/login"
      );
      await page.getByRole("button", { name: "Login" }).click();
      const { message } = await (await answer).json();
      assert.ok(message, "the server explains the failure");
      await page.getByRole("alert").getByText(message, { exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/");
      await context.close();
    });

    await t.step("empty or blank fields show field messages and send nothing", async () => {
      const { context, page } = await newPage(browser, server.url);
      let loginCalls = 0;
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/auth/login") loginCalls++;
      });
      await page.goto("/");
      await page.getByLabel("Password").fill("   ");
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByText("Username is required").waitFor();
      await page.getByText("Password is required").waitFor();
      assert.equal(await page.getByLabel("Username").getAttribute("aria-invalid"), "true");
      assert.equal(loginCalls, 0);
      await context.close();
    });

    await t.step("a status other than 200/204 without a message", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.route("**/auth/login", (route) => route.fulfill({ status: 500, body: "" }));
      await page.goto("/");
      await page.getByLabel("Username").fill("alice");
      await page.getByLabel("Password").fill("correct horse");
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByRole("alert").getByText("Login failed. Please check your credentials.")
        .waitFor();
      await context.close();
    });

    await t.step("a network failure", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.route("**/auth/login", (route) => route.abort());
      await page.goto("/");
      await page.getByLabel("Username").fill("alice");
      await page.getByLabel("Password").fill("correct horse");
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByRole("alert").getByText("Login failed. Please try again.").waitFor();
      await context.close();
    });

    await t.step("Forgot Password dialog sends the username as a JSON string", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.goto("/");
      await page.getByRole("button", { name: "Forgot Password" }).click();
      const dialog = page.getByRole("dialog", { name: "Forgot Password" });
      await dialog.waitFor();
      const requestSeen = page.waitForRequest((request) =>
        new URL(request.url()).pathname === "/auth/reset-password"
      );
      await dialog.getByLabel("Username").fill(" alice ");
      await dialog.getByRole("button", { name: "Send Reset Link" }).click();
      const request = await requestSeen;
      assert.equal(request.postData(), '"alice"');
      assert.equal(request.headers()["content-type"], "application/json");
      await dialog.getByText("If an account with that username exists").waitFor();
      await context.close();
    });

    await t.step("reset-password page completes with the token from the link", async () => {
      const { context, page } = await newPage(browser, server.url);
      let body: unknown;
      await page.route("**/auth/reset-password/complete", async (route) => {
        body = route.request().postDataJSON();
        await route.fulfill({ status: 204 });
      });
      await page.goto("/reset-password?token=abc123");
      await page.getByLabel("New Password").fill("n3w-passw0rd");
      await page.getByLabel("Confirm Password").fill("other");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page.getByText("Passwords do not match").waitFor();
      assert.equal(body, undefined);
      await page.getByLabel("Confirm Password").fill("n3w-passw0rd");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page.getByText("Your password has been reset.").waitFor();
      assert.deepEqual(body, { token: "abc123", newPassword: "n3w-passw0rd" });
      await page.getByRole("link", { name: "Back to Login" }).click();
      await page.getByRole("button", { name: "Login" }).waitFor();
      await context.close();
    });

    await t.step("reset-password page shows the server's error", async () => {
      const { context, page } = await newPage(browser, server.url);
      await page.goto("/reset-password?token=not-a-real-token");
      await page.getByLabel("New Password").fill("n3w-passw0rd");
      await page.getByLabel("Confirm Password").fill("n3w-passw0rd");
      await page.getByRole("button", { name: "Reset Password" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.ok((await alert.textContent())?.trim());
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
