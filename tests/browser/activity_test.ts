/**
 * The Activity page (/admin/activity, docs/activity.md): reached from the Admin Dashboard, its
 * labelled filters narrow the list, a change reads in plain words, the table becomes cards on a
 * 390 px phone; axe-core finds nothing in the light and the dark theme at 1280 and 390 px.
 * Screenshots of the four go to `.tmp/screenshots/` for a look.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, defaultEmailSourceId, sourcePayload } from "../support/order_tracking.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";
import { choose } from "./support.ts";
import { scanA11y } from "./a11y.ts";

const SHOTS = new URL("../../.tmp/screenshots/", import.meta.url).pathname;
const CHANGED = 'admin changed order tracking source "Acme": Subject, Active';

Deno.test("activity page", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await defaultEmailSourceId(admin);
    const id = await createSource(admin, { sourceName: "Acme" });
    await admin.post(
      "/api/order-tracking-sources/save",
      sourcePayload({ Id: id, sourceName: "Acme", subjectValue: "Weekly", activeStatus: false }),
    );
    await testClient(server.url).post("/auth/login", {
      username: "mallory",
      password: "guess-1234",
    });
    await Deno.mkdir(SHOTS, { recursive: true });

    await t.step("from the Admin Dashboard; filters narrow the list to one change", async () => {
      const { context, page } = await newPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      await logIn(page, "admin", ADMIN_PASSWORD);
      await page.goto("/admin");
      await page.getByRole("link", { name: "Activity" }).click();
      await page.waitForURL("**/admin/activity");
      await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor();
      const table = page.getByRole("table", { name: "Activity" });
      await table.getByRole("rowheader", { name: CHANGED }).waitFor();
      await table.getByText("Subject: Daily order status → Weekly").waitFor();
      await table.getByText('Sign-in failed for "mallory"').waitFor();
      for (const label of ["User", "Action", "Record type", "Record ID", "From", "To"]) {
        await page.getByLabel(label, { exact: true }).waitFor();
      }
      await choose(page, "Action", "changed");
      await page.getByText("1 entry", { exact: true }).waitFor();
      await table.getByRole("rowheader", { name: CHANGED }).waitFor();
      assert.equal(await table.getByText("mallory").count(), 0);
      await page.getByRole("button", { name: "Clear filters" }).click();
      await page.getByLabel("User", { exact: true }).fill("mallory");
      await page.getByText("1 entry", { exact: true }).waitFor();
      await table.getByText('Sign-in failed for "mallory"').waitFor();
      await page.getByLabel("User", { exact: true }).fill("");
      await page.getByLabel("Record type", { exact: true }).waitFor();
      await choose(page, "Record type", "order tracking source");
      await page.getByLabel("Record ID", { exact: true }).fill(String(id));
      await page.getByText("2 entries", { exact: true }).waitFor();
      await context.close();
    });

    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await t.step(`${theme} theme at ${width} px: no axe findings`, async () => {
          const { context, page } = await newPage(browser, server.url, {
            viewport: { width, height: 900 },
          });
          page.setDefaultTimeout(10_000);
          await context.addInitScript((chosen) => localStorage.setItem("theme", chosen), theme);
          await logIn(page, "admin", ADMIN_PASSWORD);
          await page.goto("/admin/activity");
          await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor();
          if (width === 390) {
            // A phone: one card per entry, no table, nothing wider than the screen.
            await page.getByRole("article", { name: CHANGED }).waitFor();
            assert.equal(await page.getByRole("table").count(), 0);
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide`);
          } else {
            await page.getByRole("rowheader", { name: CHANGED }).waitFor();
          }
          const findings = await scanA11y(page);
          await page.screenshot({ path: `${SHOTS}activity_${theme}_${width}.png`, fullPage: true });
          assert.deepEqual(findings, []);
          await context.close();
        });
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
});
