/**
 * The order list past the count's bound, in Chromium (docs/order_tracking.md, "Order list at
 * scale"): with more than 10,000 orders the screen and the pager say "more than", Next stays
 * enabled and Last is disabled; a narrower search shows its exact count again; the pager stops at
 * the server's result window (page 200 of 50) and never asks for a deeper page. The orders are
 * inserted with SQL: importing 10,050 through files would be slow.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource } from "../support/order_tracking.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

Deno.test("order list over 10,000 orders says 'more than'", async () => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    await server.db.query(
      `insert into orders (order_tracking_source_id, unique_key, customer_po_number, supplier_name)
       select $1, 'K' || i, 'PO-' || lpad(i::text, 6, '0'),
              case when i % 1000 = 0 then 'Rare Supplier' else 'Supplier ' || (i % 7) end
         from generate_series(1, 10050) as i`,
      [source],
    );
    await server.db.exec("analyze orders");
    await server.createUser({ username: "sam", password: "sam-password", orderUser: true });
    const { context, page } = await newPage(browser, server.url);
    await logIn(page, "sam", "sam-password");
    await page.goto("/order-tracking");
    await page.getByText("More than 10,000 orders").waitFor();
    await page.getByText("Page 1 of more than 1,000").waitFor();
    assert.equal(await page.getByRole("button", { name: "Last" }).isDisabled(), true);
    assert.equal(await page.getByRole("button", { name: "Next" }).isDisabled(), false);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Page 2 of more than 1,000").waitFor();
    await page.getByLabel("Supplier Name").fill("rare supplier");
    await page.getByText("10 orders").waitFor();
    await page.getByText("Page 1 of 1").waitFor();
    assert.equal(await page.getByRole("button", { name: "Last" }).isDisabled(), true);

    // The pager never offers a page past the server's result window (200 pages of 50): a link
    // to page 5,000 opens page 200, whose Next is disabled; nothing asks for a deeper page.
    const refused: number[] = [];
    page.on("response", (response) => {
      if (response.url().includes("/api/order-tracking/list") && response.status() >= 400) {
        refused.push(response.status());
      }
    });
    await page.goto("/order-tracking?page=5000&size=50");
    await page.getByText("Page 200 of more than 200").waitFor();
    const next = page.getByRole("button", { name: "Next" });
    assert.equal(await next.isDisabled(), true);
    assert.match(await next.getAttribute("title") ?? "", /narrow the search/);
    assert.equal(await page.getByRole("button", { name: "Last" }).isDisabled(), true);
    await page.getByRole("button", { name: "Previous" }).click();
    await page.getByText("Page 199 of more than 200").waitFor();
    assert.equal(await next.isDisabled(), false);
    await next.click();
    await page.getByText("Page 200 of more than 200").waitFor();
    assert.equal(await next.isDisabled(), true);
    // the last rows of the window: 10,050 orders newest first, rows 9,951 to 10,000
    await page.getByText("PO-000051", { exact: true }).waitFor();
    assert.deepEqual(refused, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
