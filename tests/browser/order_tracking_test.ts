/**
 * The order list and order detail in Chromium: filter bar, AND/OR, columns, sorting, paging,
 * delete, the detail's fields and the notes editor.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, importFile } from "../support/order_tracking.ts";
import { launchBrowser, loggedInPage, MOBILE_VIEWPORT } from "./browser.ts";
import { choose, countRequests } from "./support.ts";

/** A phone's window (issue 24 measures at 390 px). */
const PHONE = { width: 390, height: 844 };

const HEADERS = ["PO #", "SKU", "Customer", "Ship To", "Vendor", "Brand", "Tracking", "Order Date"];
const ROWS = [
  [
    "PO-100",
    "WIDGET-1",
    "Alice Smith",
    "Alice Home",
    "Northwind",
    "Contoso",
    "1ZAAA;1ZBBB",
    "3/5/2024",
  ],
  [
    "PO-101",
    "WIDGET-2",
    "Bob Jones",
    "Warehouse 9",
    "Northwind",
    "Fabrikam",
    "1ZCCC",
    "12/31/2023",
  ],
  ["PO-102", "GADGET-1", "Carol King", "Alice Annex", "Adventure Works", "Contoso", "", ""],
];

/** The first cells of the body rows: the PO numbers when that column is shown first. */
async function rowTexts(page: Page): Promise<string[]> {
  return await page.locator("tbody tr").evaluateAll((rows) =>
    rows.map((row) => (row as HTMLTableRowElement).innerText.replace(/\s+/g, " ").trim())
  );
}

/** Waits until the table's rows mention exactly these PO numbers, in this order. */
async function expectPos(page: Page, expected: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    seen = (await rowTexts(page)).map((text) => /\b(PO-\d+|PG-\d+)\b/.exec(text)?.[1] ?? text);
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await page.waitForTimeout(100);
  }
  assert.deepEqual(seen, expected);
}

Deno.test("order tracking pages", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const source = await createSource(admin);
    await importFile(server.db, source, csv([HEADERS, ...ROWS]));
    await server.createUser({ username: "olga", password: "olga-password", orderUser: true });

    await t.step("the list shows orders with tracking numbers joined and US dates", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await page.getByRole("heading", { name: "Order Tracking", level: 1 }).waitFor();
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      const first = await page.locator("tbody tr", { hasText: "PO-100" }).innerText();
      assert.match(first, /1ZAAA, 1ZBBB/);
      assert.match(first, /3\/5\/2024/);
      assert.match(
        await page.locator("tbody tr", { hasText: "PO-101" }).innerText(),
        /12\/31\/2023/,
      );
      // poDate is hidden by default, every other column shown.
      const headers = await page.locator("thead th").allInnerTexts();
      assert.ok(!headers.some((h) => h.startsWith("PO Date")));
      assert.ok(headers.some((h) => h.startsWith("Customer PO Number")));
      assert.ok(headers.some((h) => h.startsWith("Notes")));
      await page.getByText("Page 1 of 1").waitFor();
      const scroll = page.getByTestId("orders-scroll");
      const maxHeight = await scroll.evaluate((el) => getComputedStyle(el).maxHeight);
      assert.equal(maxHeight, `${Math.round(800 * 0.7)}px`);
      await context.close();
    });

    await t.step("search terms are trimmed; OR is the default, AND narrows", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      const requests: Record<string, unknown>[] = [];
      page.on("request", (request) => {
        if (request.url().endsWith("/api/order-tracking/list")) {
          requests.push(JSON.parse(request.postData() ?? "{}"));
        }
      });
      await page.goto("/order-tracking");
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      await page.getByLabel("Item Number").fill("  widget ");
      await expectPos(page, ["PO-101", "PO-100"]);
      assert.equal(requests.at(-1)?.ItemNumberParam, "widget");
      assert.equal(requests.at(-1)?.AndOrParam, false);
      await page.getByLabel("Customer/Ship To").fill("alice");
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      await page.getByRole("radio", { name: "AND" }).click();
      await expectPos(page, ["PO-100"]);
      assert.equal(requests.at(-1)?.AndOrParam, true);
      await page.getByLabel("Tracking Number").fill("no such number");
      await page.getByText("No results.").waitFor();
      await page.getByText("Page 1 of 1").waitFor();
      await context.close();
    });

    await t.step("headers sort, shift-click adds a second column", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      const header = (name: string) => page.locator("thead button", { hasText: name });
      await header("Customer PO Number").click();
      await expectPos(page, ["PO-100", "PO-101", "PO-102"]);
      assert.equal(
        await page.locator("thead th", { hasText: "Customer PO Number" }).getAttribute("aria-sort"),
        "ascending",
      );
      await header("Customer PO Number").click();
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      await header("Brand Name").click();
      await header("Customer PO Number").click({ modifiers: ["Shift"] });
      await header("Customer PO Number").click({ modifiers: ["Shift"] });
      // Contoso (PO-102, PO-100 descending), then Fabrikam.
      await expectPos(page, ["PO-102", "PO-100", "PO-101"]);
      await context.close();
    });

    await t.step("the column chooser hides and shows columns", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      await page.getByRole("button", { name: "Columns" }).click();
      await page.getByRole("menuitemcheckbox", { name: "PO Date" }).click();
      await page.getByRole("menuitemcheckbox", { name: "Brand Name" }).click();
      await page.keyboard.press("Escape");
      const headers = await page.locator("thead th").allInnerTexts();
      assert.ok(headers.some((h) => h.startsWith("PO Date")));
      assert.ok(!headers.some((h) => h.startsWith("Brand Name")));
      await context.close();
    });

    await t.step("the columns saved on the account page drive the list", async () => {
      const olga = testClient(server.url);
      await olga.login("olga", "olga-password");
      const saved = await olga.post("/api/accounts/update/order-tracking-settings", {
        id: 0,
        userId: 0,
        enabledColumns: { poDate: true, brandName: false },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await page.locator("thead th", { hasText: "PO Date" }).waitFor();
      const headers = await page.locator("thead th").allInnerTexts();
      assert.ok(!headers.some((h) => h.startsWith("Brand Name")));
      assert.ok(headers.some((h) => h.startsWith("Customer PO Number")));
      // Back to the defaults for the other steps.
      await olga.post("/api/accounts/update/order-tracking-settings", {
        id: (saved.body as { id: number }).id,
        userId: 0,
        enabledColumns: { poDate: false, brandName: true },
      });
      await context.close();
    });

    await t.step("pages: size choices, page count, next and previous", async () => {
      const pager = await createSource(admin, { sourceName: "Pager" });
      const many = Array.from({ length: 27 }, (_, i) => [`PG-${String(i).padStart(2, "0")}`]);
      await importFile(server.db, pager, csv([["PO #"], ...many]));
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      // 30 orders in all also make 3 pages: wait for the search itself.
      const searched = page.waitForResponse((response) =>
        response.url().endsWith("/api/order-tracking/list") &&
        (response.request().postData() ?? "").includes('"PG-"')
      );
      await page.getByLabel("PO Number").fill("PG-");
      await searched;
      await page.getByText("Page 1 of 3").waitFor();
      assert.equal(await page.locator("tbody tr").count(), 10);
      await page.getByLabel("Rows per page").click();
      for (const size of ["10", "25", "50", "100", "250"]) {
        await page.getByRole("option", { name: size, exact: true }).waitFor();
      }
      await page.getByRole("option", { name: "25", exact: true }).click();
      await page.getByText("Page 1 of 2").waitFor();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByText("Page 2 of 2").waitFor();
      await expectPos(page, ["PG-01", "PG-00"]);
      assert.equal(await page.getByRole("button", { name: "Next" }).isDisabled(), true);
      await page.getByRole("button", { name: "Previous" }).click();
      await page.getByText("Page 1 of 2").waitFor();
      await context.close();
    });

    await t.step("delete asks first; Cancel keeps the row, Delete removes it", async () => {
      await importFile(server.db, source, csv([HEADERS, ["PO-199", "DOOMED"]]));
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await page.getByLabel("PO Number").fill("PO-199");
      await expectPos(page, ["PO-199"]);
      await page.getByRole("button", { name: "Actions for order PO-199" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByText("Confirm Deletion").waitFor();
      await dialog.getByText('Are you sure you want to delete "PO-199"?').waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "hidden" });
      await expectPos(page, ["PO-199"]);
      await page.getByRole("button", { name: "Actions for order PO-199" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByText("No results.").waitFor();
      const check = await admin.post("/api/order-tracking/list", {
        PageSize: 10,
        PageIndex: 1,
        PoNumberParam: "PO-199",
      });
      assert.equal((check.body as { totalRecordCount: number }).totalRecordCount, 0);
      await context.close();
    });

    await t.step("mobile: three search fields at most, one at least", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password", {
        viewport: MOBILE_VIEWPORT,
      });
      await page.goto("/order-tracking");
      await page.getByLabel("PO Number").waitFor();
      await page.getByLabel("Item Number").waitFor();
      await page.getByLabel("Tracking Number").waitFor();
      assert.equal(await page.getByLabel("Customer/Ship To").count(), 0);
      await page.getByRole("button", { name: "Search Fields" }).click();
      const box = (name: string) => page.getByRole("checkbox", { name });
      assert.equal(await box("Customer/Ship To").isDisabled(), true);
      await box("Item Number").click();
      await box("Tracking Number").click();
      assert.equal(await box("PO Number").isDisabled(), true);
      await box("Brand Name").click();
      await page.keyboard.press("Escape");
      await page.getByRole("textbox", { name: "Brand Name" }).waitFor();
      assert.equal(await page.getByRole("textbox", { name: "Item Number" }).count(), 0);
      await context.close();
    });

    await t.step(
      "a phone (390 px): one card per order, the page fits, actions in reach",
      async () => {
        const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password", {
          viewport: PHONE,
        });
        await page.goto("/order-tracking");
        // The earlier steps added orders; these three are searched for.
        await page.getByLabel("PO Number").fill("PO-10");
        const card = page.getByRole("region", { name: "Order PO-100" });
        await card.waitFor();
        assert.equal(await page.locator("table").count(), 0, "no table on a phone");
        assert.equal(await page.getByRole("region", { name: /^Order PO-10\d$/ }).count(), 3);
        // The page is as wide as the phone: nothing to scroll sideways.
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width,
          "no horizontal page scroll",
        );
        // The card's key fields are there with their labels, tracking numbers joined.
        const text = await card.innerText();
        assert.match(text, /Item Number\s+WIDGET-1/);
        assert.match(text, /Tracking Numbers\s+1ZAAA, 1ZBBB/);
        assert.match(text, /Order Date\s+3\/5\/2024/);
        // The row actions sit inside the card, on screen.
        const actions = card.getByRole("button", { name: "Actions for order PO-100" });
        const box = await actions.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
        // Sorting without headers: the cards' Sort by.
        await choose(page, "Sort by", "Customer PO Number");
        await page.getByRole("region", { name: "Order PO-100" }).waitFor();
        const titles = async () =>
          (await page.locator("[data-testid=order-cards] section h2").allInnerTexts()).join(",");
        await page.waitForFunction(
          () =>
            [...document.querySelectorAll("[data-testid=order-cards] section h2")]
              .map((h) => h.textContent).join(",") === "PO-100,PO-101,PO-102",
        );
        await choose(page, "Direction", "Descending");
        await page.waitForFunction(
          () =>
            [...document.querySelectorAll("[data-testid=order-cards] section h2")]
              .map((h) => h.textContent).join(",") === "PO-102,PO-101,PO-100",
        );
        assert.equal(await titles(), "PO-102,PO-101,PO-100");
        await actions.click();
        await page.getByRole("menuitem", { name: "View Order" }).click();
        await page.waitForURL(/\/order-tracking\/order\/\d+$/);
        await context.close();
      },
    );

    await t.step("View Order opens the detail with every field and Loading first", async () => {
      const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
      await page.goto("/order-tracking");
      await page.getByLabel("PO Number").fill("PO-10");
      await expectPos(page, ["PO-102", "PO-101", "PO-100"]);
      await page.route("**/api/order-tracking/order/*", async (route) => {
        // Hold the answer a moment so the loading state is observable.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      await page.getByRole("button", { name: "Actions for order PO-100" }).click();
      await page.getByRole("menuitem", { name: "View Order" }).click();
      await page.getByText("Loading...").waitFor();
      await page.waitForURL(/\/order-tracking\/order\/\d+$/);
      const field = (label: string) =>
        page.locator(".rt-DataListItem", { has: page.getByText(label, { exact: true }) })
          .locator(".rt-DataListValue");
      await field("Customer PO Number").getByText("PO-100").waitFor();
      assert.equal(await field("Tracking Numbers").innerText(), "1ZAAA, 1ZBBB");
      assert.equal(await field("Order Date").innerText(), "3/5/2024");
      assert.match(await field("Last Updated").innerText(), /^\d{1,2}\/\d{1,2}\/\d{4}, /);
      assert.equal(await field("PO Date").count(), 1);
      for (const hidden of ["Order Tracking Source Id", "Active Status", "Deleted Status"]) {
        assert.equal(await page.getByText(hidden).count(), 0);
      }
      // Edit Order opens the notes (the part a person edits) and says why only they.
      await page.getByRole("button", { name: "Edit Order" }).click();
      await page.getByText("The order's fields come from the supplier's files", { exact: false })
        .waitFor();
      await page.getByRole("textbox", { name: "Notes" }).waitFor();
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Back" }).click();
      await page.waitForURL(/\/order-tracking$/);
      await context.close();
    });

    await t.step(
      "notes: click edits, Enter saves, Escape reverts, unchanged sends nothing",
      async () => {
        const listed = await admin.post("/api/order-tracking/list", {
          PageSize: 10,
          PageIndex: 1,
          PoNumberParam: "PO-101",
        });
        const id = (listed.body as { orders: { id: number }[] }).orders[0].id;
        const { context, page } = await loggedInPage(browser, server.url, "olga", "olga-password");
        let noteCalls = 0;
        page.on("request", (request) => {
          if (request.url().endsWith("/api/order-tracking/notes")) noteCalls++;
        });
        await page.goto(`/order-tracking/order/${id}`);
        const notes = page.getByRole("button", { name: "Notes" });
        await notes.getByText("Click to add notes").waitFor();
        await notes.click();
        const editor = page.getByRole("textbox", { name: "Notes" });
        await editor.fill("Left at the back door");
        await editor.press("Enter");
        await page.getByText("Saved", { exact: true }).waitFor();
        assert.equal(await notes.getAttribute("data-saved"), "true");
        await page.waitForFunction(
          () => !document.querySelector("[data-saved]"),
          undefined,
          { timeout: 5000 },
        );
        assert.equal(noteCalls, 1);
        const stored = await admin.get(`/api/order-tracking/order/${id}`);
        assert.equal((stored.body as { notes: string }).notes, "Left at the back door");

        await notes.click();
        await editor.fill("Something else");
        await editor.press("Escape");
        await notes.getByText("Left at the back door").waitFor();
        await notes.click();
        await editor.press("Enter");
        await notes.click();
        await editor.fill("Saved by leaving the field");
        await page.getByRole("heading", { name: "Order Details" }).click();
        await notes.getByText("Saved by leaving the field").waitFor();
        await page.getByText("Saved", { exact: true }).waitFor();
        assert.equal(noteCalls, 2);

        await page.route(
          "**/api/order-tracking/notes",
          (route) =>
            route.fulfill({
              status: 500,
              contentType: "application/json",
              body: '{"message":"x"}',
            }),
        );
        await notes.click();
        await editor.fill("This will fail");
        await editor.press("Enter");
        await notes.getByText("Saved by leaving the field").waitFor();
        await context.close();
      },
    );

    await t.step("a user without orderUser is told the area is not theirs", async () => {
      await server.createUser({ username: "irma", password: "irma-password", inventoryUser: true });
      const { context, page } = await loggedInPage(browser, server.url, "irma", "irma-password");
      const calls = countRequests(page, "/api/order-tracking/list");
      await page.goto("/order-tracking");
      await page.getByRole("heading", { name: "Not part of your account", level: 1 }).waitFor();
      await page.getByText(
        "Your account does not include order tracking. An administrator can add it by turning " +
          "on Order User for your user.",
      ).waitFor();
      assert.equal(await page.getByText("No results.").count(), 0);
      assert.equal(calls.count, 0);
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
