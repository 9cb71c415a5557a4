/**
 * The item view in Chromium (issue 23) on real runs: files processed through the manual
 * processing page, the changes shown in its result, the items list with its filters, one item
 * with its chart, changes and raw row, a held run, and the phone layout in both themes.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv, upload } from "../support/inventory.ts";
import type { Page } from "playwright-core";
import { launchBrowser, loggedInPage } from "./browser.ts";

const USER = { username: "ivy", password: "ivy-password" };
const SHOTS = Deno.env.get("SCREENSHOT_DIR");

const csv = (name: string, bytes: Uint8Array) => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(bytes),
});

const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

Deno.test("inventory items: real runs, list, one item, run changes, phone", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    await server.createUser({ ...USER, inventoryUser: true });
    const client = testClient(server.url);
    await client.login(USER.username, USER.password);
    const mailbox = await saveMailbox(client);
    const saved = await client.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { minItemsToBeActive: 3 }),
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const id = (saved.body as { id: number }).id;

    await t.step("manual processing shows what each run changed", async () => {
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        USER.username,
        USER.password,
      );
      await page.goto(`/inventory-sources/manually-process/${id}`);
      const input = page.getByLabel("Supplier File (.csv)");
      await input.setInputFiles(csv("stock.csv", stockCsv([["A1", 5], ["A2", 1], ["A3", 5]])));
      await page.getByRole("region", { name: "Changes Before Processing" }).waitFor();
      await page.getByRole("button", { name: "Process File" }).click();
      await page.getByRole("heading", { name: /Processing Complete/ }).waitFor();
      const changes = page.getByRole("region", { name: "Items Changed by This Run" });
      await changes.getByText("This run turned no item Active or Inactive.").waitFor();

      await page.getByRole("button", { name: "Process Another" }).click();
      await input.setInputFiles(csv("stock2.csv", stockCsv([["A1", 0], ["A2", 5], ["A3", 7]])));
      await page.getByRole("region", { name: "Changes Before Processing" }).waitFor();
      await page.getByRole("button", { name: "Process File" }).click();
      await page.getByRole("heading", { name: /Processing Complete/ }).waitFor();
      await changes.getByText("1 turned Inactive, 1 turned Active.").waitFor();
      const table = changes.getByRole("table", { name: "Items changed by this run" });
      const a1 = table.getByRole("row", { name: /A1/ });
      assert.match(await a1.innerText(), /Turned Inactive/);
      assert.match(await a1.innerText(), /Quantity 0 is below the minimum quantity of 3/);
      assert.match(
        await table.getByRole("row", { name: /A2/ }).innerText(),
        /Turned Active[\s\S]*Quantity 5 is at least the minimum quantity of 3/,
      );
      await context.close();
    });

    await t.step("the items list: why, filters, search; one item", async () => {
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        USER.username,
        USER.password,
      );
      await page.goto("/inventory-sources");
      await page.getByRole("button", { name: "Actions for Acme stock" }).click();
      await page.getByRole("menuitem", { name: "Items" }).click();
      await page.waitForURL(`**/inventory-sources/${id}/items`);
      await page.getByRole("heading", { name: "Items of Acme stock", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "Items" });
      await page.getByRole("status").getByText("4 items").waitFor();
      assert.match(
        await table.getByRole("row", { name: /A4/ }).innerText(),
        /Inactive[\s\S]*Missing from the supplier's file/,
      );
      await page.getByLabel("Inactive only").check();
      await page.getByRole("status").getByText("2 items").waitFor();
      assert.deepEqual(await table.getByRole("rowheader").allInnerTexts(), ["A1", "A4"]);
      await page.getByLabel("Inactive only").uncheck();
      await page.getByLabel("Changed in the last run").check();
      // Also 2 items: wait for the new rows, not the count.
      await table.getByRole("rowheader", { name: "A2" }).waitFor();
      await table.getByRole("rowheader", { name: "A3" }).waitFor({ state: "detached" });
      assert.deepEqual(await table.getByRole("rowheader").allInnerTexts(), ["A1", "A2"]);
      await page.getByLabel("Changed in the last run").uncheck();
      await page.getByLabel("Missing from the file").check();
      await page.getByRole("status").getByText("1 item").waitFor();
      await page.getByLabel("Missing from the file").uncheck();
      await page.getByLabel("Search item number").fill("a3");
      await page.getByRole("status").getByText("1 item").waitFor();
      await page.getByLabel("Search item number").fill("");
      await page.getByRole("status").getByText("4 items").waitFor();

      await table.getByRole("link", { name: "A1" }).click();
      await page.waitForURL(`**/inventory-sources/${id}/items/A1`);
      await page.getByRole("heading", { name: "Item A1", level: 1 }).waitFor();
      const status = page.getByRole("region", { name: "Status" });
      assert.match(await status.innerText(), /Inactive/);
      assert.match(await status.innerText(), /Quantity 0 is below the minimum quantity of 3/);
      await page.getByRole("figure", { name: "Quantity of item A1 over time" }).waitFor();
      await page.getByText("2 stored quantities, 1 status change.").waitFor();
      const runs = page.getByRole("region", { name: "Runs That Changed It" });
      assert.match(await runs.innerText(), /Turned Inactive/);
      const raw = page.getByRole("region", { name: "Row in the Last Supplier File" });
      assert.match(await raw.innerText(), /Row 2 of the file/);
      assert.match(await raw.innerText(), /Qty\s+0/);
      await page.getByRole("link", { name: "Back to Items" }).click();
      await page.getByRole("heading", { name: "Items of Acme stock", level: 1 }).waitFor();
      await context.close();
    });

    await t.step("a held run: the list and the item say so", async () => {
      const held = await upload(client, server.url, "/api/inventory-sources/manually-process", {
        name: "crash.csv",
        bytes: stockCsv([["A1", 0], ["A2", 0], ["A3", 0]]),
      }, { sourceId: String(id), sendEmailNotification: "false", submitViaSftp: "false" });
      assert.equal((held.body as { held: boolean }).held, true);
      const { context, page } = await loggedInPage(
        browser,
        server.url,
        USER.username,
        USER.password,
      );
      await page.goto(`/inventory-sources/${id}/items`);
      await page.getByText("The last run is held by the guard", { exact: false }).waitFor();
      const a3 = page.getByRole("table", { name: "Items" }).getByRole("row", { name: /A3/ });
      assert.match(await a3.innerText(), /Active[\s\S]*Held by the guard: would turn Inactive/);
      await page.goto(`/inventory-sources/${id}/items/A3`);
      await page.getByText("it would turn this item Inactive", { exact: false }).waitFor();
      await context.close();
    });

    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await t.step(
          `${theme} theme at ${width} px: cards on a phone, no sideways scroll`,
          async () => {
            const { context, page } = await loggedInPage(
              browser,
              server.url,
              USER.username,
              USER.password,
              { viewport: { width, height: 844 } },
            );
            await page.evaluate((chosen) => {
              localStorage.setItem("theme", chosen);
            }, theme);
            await page.goto(`/inventory-sources/${id}/items`);
            await page.getByRole("heading", { name: "Items of Acme stock", level: 1 }).waitFor();
            if (width < 768) {
              await page.getByRole("article", { name: "Item A1" }).waitFor();
              assert.equal(await page.getByRole("table", { name: "Items" }).count(), 0);
            } else {
              await page.getByRole("table", { name: "Items" }).waitFor();
            }
            assert.ok((await scrollWidth(page)) <= width, "the items list scrolls sideways");
            if (SHOTS) {
              await page.screenshot({
                path: `${SHOTS}/items-${theme}-${width}.png`,
                fullPage: true,
              });
            }
            await page.goto(`/inventory-sources/${id}/items/A1`);
            await page.getByRole("heading", { name: "Item A1", level: 1 }).waitFor();
            await page.getByTestId("chart-plot").locator("svg").first().waitFor();
            assert.ok((await scrollWidth(page)) <= width, "the item page scrolls sideways");
            if (SHOTS) {
              await page.screenshot({
                path: `${SHOTS}/item-${theme}-${width}.png`,
                fullPage: true,
              });
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
