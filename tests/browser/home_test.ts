/** The home statistics page (spec part 1, section 2). */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

const STATS_PATH = "/api/order-tracking/list/update-stats";
const ROWS = [
  { orderTrackingSourceName: "Acme Feed", ordersUpdated: 12, ordersDeleted: 3 },
  { orderTrackingSourceName: "Globex Feed", ordersUpdated: 0, ordersDeleted: 7 },
];

/** Answers the stats call with `rows`: no order tracking sources exist in this test's database. */
async function serveStats(page: Page, rows: unknown): Promise<void> {
  await page.route(`**${STATS_PATH}`, (route) => route.fulfill({ json: rows }));
}

Deno.test("home page", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    await server.createUser({ username: "hana", password: "hana-password" });

    await t.step("title, line and the empty text; the stats load once", async () => {
      const { context, page } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      let calls = 0;
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === STATS_PATH) calls++;
      });
      await logIn(page, "hana", "hana-password");
      await page.getByRole("heading", { name: "Welcome to the Home Page", level: 1 }).waitFor();
      await page.getByText("Here are the stats for the past 24 hours:").waitFor();
      await page.getByText("No stats available for the past 24 hours.").waitFor();
      await page.waitForTimeout(500);
      assert.equal(calls, 1);
      await context.close();
    });

    await t.step("wide screens: a table with the three columns", async () => {
      const { context, page } = await newPage(browser, server.url, {
        viewport: { width: 768, height: 800 },
      });
      page.setDefaultTimeout(10_000);
      await serveStats(page, ROWS);
      await logIn(page, "hana", "hana-password");
      const table = page.getByRole("table", { name: "Stats for the past 24 hours" });
      await table.waitFor();
      assert.deepEqual(
        (await table.getByRole("columnheader").allTextContents()).map((s) => s.trim()),
        ["Source Name", "Orders Updated", "Orders Deleted"],
      );
      const acme = table.getByRole("row").filter({ hasText: "Acme Feed" });
      assert.deepEqual(
        (await acme.getByRole("cell").allTextContents()).map((s) => s.trim()),
        ["12", "3"],
      );
      assert.equal(await page.getByRole("article").count(), 0);
      await context.close();
    });

    await t.step("narrow screens: one card per source", async () => {
      const { context, page } = await newPage(browser, server.url, {
        viewport: { width: 767, height: 900 },
      });
      page.setDefaultTimeout(10_000);
      await serveStats(page, ROWS);
      await logIn(page, "hana", "hana-password");
      const card = page.getByRole("article", { name: "Globex Feed" });
      await card.getByRole("heading", { name: "Globex Feed" }).waitFor();
      await card.getByText("Orders Updated: 0").waitFor();
      await card.getByText("Orders Deleted: 7").waitFor();
      assert.equal(await page.getByRole("article").count(), 2);
      assert.equal(await page.getByRole("table").count(), 0);
      await context.close();
    });

    await t.step("a failure is only logged", async () => {
      const { context, page, console } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      await page.route(
        `**${STATS_PATH}`,
        (route) => route.fulfill({ status: 500, json: { message: "Internal server error." } }),
      );
      await logIn(page, "hana", "hana-password");
      await page.getByText("No stats available for the past 24 hours.").waitFor();
      assert.ok(console.some((line) => line.startsWith("Error fetching data")));
      assert.equal(await page.getByRole("alert").count(), 0);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
