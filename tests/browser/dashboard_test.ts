/**
 * The home page as the dashboard (issue 22) on real data: a failing mailbox, a failing order
 * tracking source, a held inventory run, a working and an inactive source. States are badges with
 * words, failing/held first; a table at 1280 px, cards at 390 px; no axe finding in either theme.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { seedDashboard, STAFF } from "../support/dashboard.ts";
import { scanA11y } from "./a11y.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

const SHOTS = new URL("../../.tmp/screenshots/", import.meta.url).pathname;

Deno.test("home page dashboard", async (t) => {
  await Deno.mkdir(SHOTS, { recursive: true });
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const seed = await seedDashboard(server);

    await t.step(
      "the source lines, most urgent first, link to the source and its runs",
      async () => {
        const { context, page } = await newPage(browser, server.url);
        page.setDefaultTimeout(10_000);
        await logIn(page, STAFF.username, STAFF.password);
        const table = page.getByRole("table", { name: "Sources and their state" });
        await table.waitFor();
        await page.getByText("Needs attention: 2 failing, 1 held.").waitFor();
        const rows = table.getByRole("row");
        // Header, then failing (2), held, ok, inactive.
        const badges = await rows.locator("td:first-child").allTextContents();
        assert.deepEqual(badges.map((s) => s.trim()), [
          "Failing",
          "Failing",
          "Held",
          "OK",
          "Inactive",
        ]);
        const bolt = rows.filter({ hasText: "Bolt Parts" });
        await bolt.getByText("bolt-orders.csv", { exact: true }).waitFor();
        await bolt.getByText(/^Failed: /).waitFor();
        assert.equal(
          await bolt.getByRole("link", { name: "Runs of Bolt Parts" }).getAttribute("href"),
          `/runs?area=order-tracking&sourceId=${seed.failingSourceId}`,
        );
        const stock = rows.filter({ hasText: "Acme stock" });
        await stock.getByText(/^Held for review/).waitFor();
        await stock.getByRole("link", { name: "Source Acme stock" }).click();
        await page.waitForURL(`**/inventory-sources/edit/${seed.inventoryId}`);
        // The spec's 24-hour card stays, with its texts.
        await page.goBack();
        await page.getByText("Here are the stats for the past 24 hours:").waitFor();
        await page.getByRole("table", { name: "Stats for the past 24 hours" }).waitFor();
        await context.close();
      },
    );

    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await t.step(`${theme} theme at ${width} px: no axe findings`, async () => {
          const { context, page } = await newPage(browser, server.url, {
            viewport: { width, height: 900 },
          });
          page.setDefaultTimeout(10_000);
          await context.addInitScript((chosen) => localStorage.setItem("theme", chosen), theme);
          await logIn(page, STAFF.username, STAFF.password);
          if (width === 390) {
            await page.getByRole("article", { name: "Acme stock: Held" }).waitFor();
            await page.getByRole("article", { name: "stock-inbox@test.example: Failing" })
              .waitFor();
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide`);
          } else {
            await page.getByRole("table", { name: "Sources and their state" }).waitFor();
          }
          const findings = await scanA11y(page);
          await page.screenshot({
            path: `${SHOTS}dashboard_${theme}_${width}.png`,
            fullPage: true,
          });
          assert.deepEqual(findings, []);
          await context.close();
        });
      }
    }

    await t.step("a new install: the empty state in words", async () => {
      const fresh = await startTestServer();
      try {
        await fresh.createUser({ ...STAFF, orderUser: true });
        const { context, page } = await newPage(browser, fresh.url);
        page.setDefaultTimeout(10_000);
        await logIn(page, STAFF.username, STAFF.password);
        await page.getByText(/^No sources yet\./).waitFor();
        await page.getByText("No stats available for the past 24 hours.").waitFor();
        await context.close();
      } finally {
        await fresh.close();
      }
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
