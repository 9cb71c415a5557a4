/**
 * The URL feed section of the source pages (issue 25, docs/url_feeds.md): its labelled fields,
 * its errors (http://, a bad cron), a save, "Check Now" and the "Fetched from … every N min; last
 * check …" line; the same section on the order tracking source page; axe-core in both themes at
 * 1280 and 390 px without sideways scrolling. Screenshots go to .tmp/screenshots/url_feeds/.
 * Needs tests/services/up.sh (the certificate of the loopback HTTPS supplier).
 */
import assert from "node:assert/strict";
import { readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload } from "../support/inventory.ts";
import { createSource } from "../support/order_tracking.ts";
import { startSupplier } from "../support/url_supplier.ts";
import { scanA11y } from "./a11y.ts";
import { launchBrowser, logIn, newPage } from "./browser.ts";

const SHOTS = new URL("../../.tmp/screenshots/url_feeds/", import.meta.url).pathname;

Deno.test("URL feed section: fields, errors, save, check now, watched line", async (t) => {
  const services = readServices();
  const supplier = startSupplier(services.caPath);
  const server = await startTestServer({ env: { MAIL_CA_FILE: services.caPath } });
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    const created = await admin.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { sourceName: "Acme stock by URL" }),
    );
    const id = (created.body as { id: number }).id;
    const { context, page } = await newPage(browser, server.url);
    page.setDefaultTimeout(15_000);
    await logIn(page, "admin", ADMIN_PASSWORD);
    const url = `${supplier.base}/stock.csv`;

    await t.step("a new source says to save first", async () => {
      await page.goto("/inventory-sources/edit/0");
      await page.getByText("Save the source first; then a URL").waitFor();
    });

    await t.step("errors: http:// and a bad cron", async () => {
      await page.goto(`/inventory-sources/edit/${id}`);
      await page.getByRole("heading", { name: "URL Feed (optional)" }).waitFor();
      await page.getByLabel("Feed URL").fill("http://supplier.example/stock.csv");
      await page.getByLabel("Or Cron Schedule (UTC)").fill("61 6 * * *");
      await page.getByRole("button", { name: "Apply URL Feed" }).click();
      await page.getByText("Only https:// URLs are fetched").waitFor();
      await page.getByText('The minute field "61" is outside 0–59.').waitFor();
      assert.equal(await page.getByLabel("Feed URL").getAttribute("aria-invalid"), "true");
    });

    await t.step("save with a token header: the watched line", async () => {
      await page.getByLabel("Feed URL").fill(url);
      await page.getByLabel("Or Cron Schedule (UTC)").fill("");
      await page.getByLabel("Fetch Every (minutes)").fill("15");
      await page.getByLabel("URL Authentication").click();
      await page.getByRole("option", { name: "Token in a header" }).click();
      await page.getByLabel("Token Header Name").fill("X-Api-Key");
      await page.getByLabel("URL Password or Token").fill("browser-token-1");
      await page.getByRole("button", { name: "Apply URL Feed" }).click();
      await page.getByText("URL feed saved.").waitFor();
      await page.getByText(`Fetched from ${url} every 15 min; last check never`).waitFor();
      assert.equal(await page.getByLabel("URL Password or Token").inputValue(), "********");
    });

    await t.step("Check Now takes the file, then reads not modified", async () => {
      await page.getByRole("button", { name: "Check Now" }).click();
      await page.getByText("A new file was fetched and processed.").waitFor();
      await page.getByText(/^Fetched from .* every 15 min; last check .+, new file taken$/)
        .waitFor();
      assert.equal(supplier.state.requests.at(-1)?.headers.get("x-api-key"), "browser-token-1");
      await page.getByRole("button", { name: "Check Now" }).click();
      await page.getByText(/not modified\)?\.?$/).first().waitFor();
      await page.reload();
      await page.getByText(/^Fetched from .* every 15 min; last check .+, not modified$/)
        .waitFor();
    });

    await t.step("order tracking source: the same section", async () => {
      const sourceId = await createSource(admin, { sourceName: "Orders by URL" });
      await page.goto(`/order-tracking-sources/edit/${sourceId}`);
      await page.getByLabel("Feed URL").fill(url);
      await page.getByLabel("Or Cron Schedule (UTC)").fill("0 6 * * 1-5");
      await page.getByRole("button", { name: "Apply URL Feed" }).click();
      await page.getByText(`Fetched from ${url} on "0 6 * * 1-5" (UTC); last check never`)
        .waitFor();
      await Deno.mkdir(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}order_tracking_page.png`, fullPage: true });
    });
    await context.close();

    await t.step("axe-core, both themes, 1280 and 390 px, no sideways scroll", async () => {
      await Deno.mkdir(SHOTS, { recursive: true });
      const problems: string[] = [];
      for (const theme of ["light", "dark"] as const) {
        for (const width of [1280, 390]) {
          const ctx = await browser.newContext({
            baseURL: server.url,
            viewport: { width, height: 844 },
          });
          await ctx.addInitScript((chosen) => localStorage.setItem("theme", chosen), theme);
          const p = await ctx.newPage();
          p.setDefaultTimeout(15_000);
          await logIn(p, "admin", ADMIN_PASSWORD);
          await p.goto(`/inventory-sources/edit/${id}`);
          const line = p.getByText(/^Fetched from .* not modified$/);
          await line.waitFor();
          await p.waitForTimeout(300);
          for (const f of await scanA11y(p)) {
            problems.push(`${theme} ${width}: ${f.rule} (${f.help}) at ${f.targets.join(", ")}`);
          }
          const wide = await p.evaluate(() => document.documentElement.scrollWidth);
          if (wide > width) problems.push(`${theme} ${width}: the page is ${wide} px wide`);
          await p.getByRole("heading", { name: "URL Feed (optional)" }).scrollIntoViewIfNeeded();
          await p.locator("section", { has: p.getByRole("heading", { name: "URL Feed" }) })
            .screenshot({ path: `${SHOTS}inventory_${theme}_${width}.png` });
          await ctx.close();
        }
      }
      assert.deepEqual(problems, []);
    });
  } finally {
    await browser.close();
    await server.close();
    await supplier.server.shutdown();
  }
});
