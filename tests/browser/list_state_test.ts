/**
 * A list's filters, sort and page survive Back and a refresh (docs/web_decisions.md, "List state
 * in the history entry"), while the address stays the spec's route.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, importFile } from "../support/order_tracking.ts";
import { launchBrowser, loggedInPage } from "./browser.ts";

Deno.test("the order list keeps its search over Back and refresh", async () => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    const headers = [
      "PO #",
      "SKU",
      "Customer",
      "Ship To",
      "Vendor",
      "Brand",
      "Tracking",
      "Order Date",
    ];
    const rows = Array.from(
      { length: 12 },
      (_, i) => [`PO-${200 + i}`, `SKU-${i}`, "Ann", "Home", "Northwind", "Contoso", "", ""],
    );
    await importFile(server.db, source, csv([headers, ...rows]));
    await server.createUser({ username: "lena", password: "lena-password", orderUser: true });

    const { context, page } = await loggedInPage(browser, server.url, "lena", "lena-password");
    await page.goto("/order-tracking");
    // Paging before the typed search has been answered would page the previous search.
    const searched = page.waitForResponse((response) => {
      const sent = response.request().postData() ?? "";
      return response.url().endsWith("/api/order-tracking/list") &&
        sent.includes('"PoNumberParam":"PO-2"') && sent.includes('"AndOrParam":true');
    });
    await page.getByLabel("PO Number").fill("PO-2");
    await page.getByRole("radio", { name: "AND" }).click();
    await searched;
    await page.getByText("Page 1 of 2").waitFor();
    // The pager's text changes at the click; the rows only when page 2 has been answered, and a
    // menu opened on a page-1 row would close as that row goes away.
    const paged = page.waitForResponse((response) =>
      response.url().endsWith("/api/order-tracking/list") &&
      (response.request().postData() ?? "").includes('"PageIndex":2')
    );
    await page.getByRole("button", { name: "Next" }).click();
    await paged;
    await page.getByText("Page 2 of 2").waitFor();
    const actions = page.getByRole("button", { name: /^Actions for order / });
    await page.waitForFunction(
      () => document.querySelectorAll('[aria-label^="Actions for order "]').length === 2,
    );
    assert.match(page.url(), /\/order-tracking$/);

    const restored = async () => {
      await page.getByText("Page 2 of 2").waitFor();
      assert.equal(await page.getByLabel("PO Number").inputValue(), "PO-2");
      assert.equal(
        await page.getByRole("radio", { name: "AND" }).getAttribute("aria-checked"),
        "true",
      );
    };

    await actions.first().click();
    await page.getByRole("menuitem", { name: "View Order" }).click();
    await page.waitForURL(/\/order-tracking\/order\/\d+$/);
    await page.goBack();
    await page.waitForURL(/\/order-tracking$/);
    await restored();

    await page.reload();
    await restored();
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
