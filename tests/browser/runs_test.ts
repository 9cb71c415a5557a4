/**
 * The run history (/runs, /runs/{id}; docs/runs.md) on real data: runs made by an order tracking
 * import (with row errors), a failed import, and manual inventory processing whose second run
 * the guard holds. The history lists them by source name with results in words, its filters live
 * in the address, a run page groups row errors by reason, re-runs, and releases the held run
 * after showing what it would change; the old /import-runs redirects; the charts of a source's
 * edit page; axe finds nothing in both themes at 1280 and 390 px (cards on the phone).
 * Screenshots go to `.tmp/screenshots/` for a look.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, HEADERS } from "../support/order_tracking.ts";
import {
  saveMailbox,
  sourcePayload as inventorySource,
  stockCsv,
  upload,
} from "../support/inventory.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";
import { choose } from "./support.ts";
import { scanA11y } from "./a11y.ts";

const SHOTS = new URL("../../.tmp/screenshots/", import.meta.url).pathname;

const row = (po: string, orderDate = "2026-11-01") => [
  po,
  "SKU-1",
  "Customer",
  "Ship",
  "Vendor",
  "Brand",
  "",
  orderDate,
  "",
  1,
  0,
  "Open",
  "",
];

Deno.test("run history pages", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const trackingId = await createSource(admin, { sourceName: "Acme Supply" });
    const importFile = async (text: string) => {
      const answer = await upload(
        admin,
        server.url,
        `/api/order-tracking-sources/${trackingId}/import`,
        { name: "orders.csv", bytes: new TextEncoder().encode(text) },
        {},
      );
      return (answer.body as { id: number }).id;
    };
    const orderRun = await importFile(
      csv([HEADERS, row("PO-1"), row("PO-2"), row("PO-3", "31/02/2026"), row("PO-4", "x")]),
    );
    await importFile("Nothing,Useful\r\n1,2\r\n");
    const mailbox = await saveMailbox(admin);
    const saved = await admin.post(
      "/api/inventory-sources/inventory/save",
      inventorySource(mailbox, { sourceName: "Stock Feed" }),
    );
    const inventoryId = (saved.body as { id: number }).id;
    const fields = {
      sourceId: String(inventoryId),
      sendEmailNotification: "false",
      submitViaSftp: "false",
    };
    const process = (rows: [string, number][]) =>
      upload(admin, server.url, "/api/inventory-sources/manually-process", {
        name: "stock.csv",
        bytes: stockCsv(rows),
      }, fields);
    await process([["A1", 5], ["A2", 5], ["A3", 5], ["A4", 5]]);
    const held = await process([["A1", 0], ["A2", 0], ["A3", 0], ["A4", 5]]);
    const heldRun = (held.body as { runId: number }).runId;
    await Deno.mkdir(SHOTS, { recursive: true });

    await t.step("Runs in the navigation: every area's runs by source name, in words", async () => {
      const { context, page } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      await logIn(page, "admin", ADMIN_PASSWORD);
      await page.getByRole("link", { name: "Runs", exact: true }).first().click();
      await page.waitForURL("**/runs");
      await page.getByRole("heading", { name: "Runs", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "Runs" });
      const orders = table.getByRole("row").filter({
        has: page.getByRole("rowheader", { name: `Run ${orderRun}` }),
      });
      await orders.getByText("Acme Supply").waitFor();
      await orders.getByText("3 new orders, 1 row skipped, 2 row errors").waitFor();
      await orders.getByText("With row errors").waitFor();
      const heldRow = table.getByRole("row").filter({
        has: page.getByRole("rowheader", { name: `Run ${heldRun}` }),
      });
      await heldRow.getByText("Stock Feed").waitFor();
      await heldRow.getByText("Held", { exact: true }).waitFor();
      await page.getByText("4 runs", { exact: true }).waitFor();

      // Filters go to the address, with the names the dashboard links with.
      await choose(page, "Area", "Inventory");
      await page.waitForURL(/\/runs\?area=inventory$/);
      await page.getByText("2 runs", { exact: true }).waitFor();
      await choose(page, "State", "Held");
      await page.waitForURL(/\/runs\?area=inventory&state=held$/);
      await page.getByText("1 run", { exact: true }).waitFor();
      await choose(page, "Source", "Stock Feed");
      await page.waitForURL(`**/runs?area=inventory&state=held&sourceId=${inventoryId}`);
      await page.getByText("1 run", { exact: true }).waitFor();
      await page.getByLabel("To", { exact: true }).fill("2020-01-01");
      await page.getByText("0 runs", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Clear filters" }).click();
      await page.getByText("4 runs", { exact: true }).waitFor();

      // A link with the filters opens the page filtered; the old page's address redirects.
      await page.goto(`/runs?area=order-tracking&sourceId=${trackingId}&state=failed`);
      await page.getByText("1 run", { exact: true }).waitFor();
      await table.getByText("Failed", { exact: true }).waitFor();
      await page.goto(`/import-runs?feed=inventory&sourceId=${inventoryId}`);
      await page.waitForURL(`**/runs?area=inventory&sourceId=${inventoryId}`);
      await page.getByText("2 runs", { exact: true }).waitFor();
      await context.close();
    });

    await t.step("a run page: row errors by reason, Download, Re-run", async () => {
      const { context, page } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      await logIn(page, "admin", ADMIN_PASSWORD);
      await page.goto(`/runs?area=order-tracking&state=row-errors`);
      await page.getByRole("link", { name: `Run ${orderRun}` }).click();
      await page.getByRole("heading", { name: `Run ${orderRun}`, level: 1 }).waitFor();
      await page.getByText("3 new orders, 1 row skipped, 2 row errors").waitFor();
      const errors = page.getByRole("region", { name: "Row errors (2)" });
      assert.equal(await errors.getByRole("heading", { level: 3 }).count(), 2);
      await errors.getByText(/^Row 4: "31\/02\/2026" is not a date that exists/).waitFor();
      const download = page.getByRole("link", { name: "Download" });
      assert.equal(await download.getAttribute("href"), `/api/import-runs/${orderRun}/file`);
      assert.equal((await page.request.get(`/api/import-runs/${orderRun}/file`)).status(), 200);
      assert.equal(await page.getByRole("button", { name: "Release" }).count(), 0);
      await page.getByRole("button", { name: "Re-run" }).click();
      await page.waitForURL((url) =>
        /\/runs\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${orderRun}`)
      );
      await page.getByText(`of run ${orderRun}`).waitFor();
      await context.close();
    });

    await t.step("release a held inventory run from its page, after its preview", async () => {
      const { context, page } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      await logIn(page, "admin", ADMIN_PASSWORD);
      await page.goto(`/runs/${heldRun}`);
      await page.getByRole("heading", { name: `Run ${heldRun}`, level: 1 }).waitFor();
      const preview = page.getByRole("region", { name: "What Release would change" });
      await preview.getByText("Active → Inactive (3)").waitFor();
      await preview.getByRole("list", { name: "Active → Inactive (3)" }).getByText("A2").waitFor();
      await page.screenshot({ path: `${SHOTS}run_held_light_1280.png`, fullPage: true });
      await page.getByRole("button", { name: "Release" }).click();
      await page.getByText(/^Released and delivered\./).waitFor();
      await page.getByText("Succeeded", { exact: true }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Release" }).count(), 0);
      await context.close();
    });

    const pages: [string, string, string][] = [
      ["runs", "/runs", "Runs"],
      ["run", `/runs/${orderRun}`, `Run ${orderRun}`],
      ["source_charts", `/inventory-sources/edit/${inventoryId}`, "Edit Inventory Source"],
      [
        "tracking_charts",
        `/order-tracking-sources/edit/${trackingId}`,
        "Edit Order Tracking Source",
      ],
    ];
    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await t.step(
          `${theme} theme at ${width} px: pages and charts, no axe findings`,
          async () => {
            const { context, page } = await newPage(browser, server.url, {
              viewport: { width, height: 900 },
            });
            page.setDefaultTimeout(15_000);
            await context.addInitScript((chosen) => localStorage.setItem("theme", chosen), theme);
            await logIn(page, "admin", ADMIN_PASSWORD);
            for (const [name, path, heading] of pages) {
              await page.goto(path);
              await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
              if (name === "runs") {
                if (width === 390) {
                  await page.getByRole("article", { name: `Run ${orderRun}, Acme Supply` })
                    .waitFor();
                  assert.equal(await page.getByRole("table").count(), 0);
                } else {
                  await page.getByRole("rowheader", { name: `Run ${orderRun}` }).waitFor();
                }
              }
              if (name.endsWith("charts")) {
                const runs = page.getByRole("figure", { name: "Runs per day" });
                await runs.getByText(/^30 days: \d+ runs? — /).waitFor();
                await page.getByRole("figure", { name: "Rows per day" }).waitFor();
                await runs.locator("svg.recharts-surface:not([aria-label])").waitFor();
                if (name === "tracking_charts") {
                  await page.getByRole("figure", { name: "Orders imported per day" })
                    .getByText(/^30 days: \d+ new orders? and /).waitFor();
                } else {
                  // The held run was released above: both runs succeeded.
                  await runs.getByText(
                    "30 days: 2 runs — 2 succeeded, 0 with row errors, 0 failed, 0 held.",
                  ).waitFor();
                }
              }
              const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
              assert.ok(scrollWidth <= width, `${path} is ${scrollWidth} px wide`);
              const findings = await scanA11y(page);
              await page.screenshot({
                path: `${SHOTS}runs_${name}_${theme}_${width}.png`,
                fullPage: true,
              });
              assert.deepEqual(findings, [], `${path}: ${JSON.stringify(findings)}`);
            }
            await context.close();
          },
        );
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
});
