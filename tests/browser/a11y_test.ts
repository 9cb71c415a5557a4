/**
 * The accessibility scan of every page (issue 24): axe-core with the WCAG 2.0-2.2 A and AA rules,
 * in the light and the dark theme, at 1280 px and at a 390 px phone, with real data (a mailbox,
 * orders imported from a file, an inventory source, a submission source and vendor, notification
 * settings; the inventory sample and the vendor template show their column pickers' previews).
 * Every page must come out without a finding, and no page may scroll sideways.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { createSource, csv, HEADERS } from "../support/order_tracking.ts";
import { saveMailbox, sourcePayload as inventoryPayload, stockCsv } from "../support/inventory.ts";
import { type A11yFinding, scanA11y } from "./a11y.ts";
import { encodeBase64 } from "../../shared/base64.ts";
import { launchBrowser, logIn } from "./browser.ts";

type Json = Record<string, unknown>;

function body(answer: { status: number; body: unknown }, what: string): Json {
  assert.ok(answer.status === 200, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Json;
}

/** Data on every page: what a person sees after a few days of use. */
async function seed(admin: TestClient, origin: string) {
  const mailbox = await saveMailbox(admin, "inventory@acme-supply.example");
  const tracking = await createSource(admin, { sourceName: "Acme Supply daily status" });
  await createSource(admin, { sourceName: "Northwind shipping", activeStatus: false });
  const rows = Array.from({ length: 12 }, (_, i) => [
    `PO-${1000 + i}`,
    `ACME-WIDGET-${100 + i}-BLUE-LARGE`,
    `Customer ${i} Holdings Incorporated`,
    `Warehouse ${i % 4}, 12 Long Street Name`,
    "Northwind Traders",
    "Contoso",
    `1Z999AA1${i}234567;1Z999AA1${i}765432`,
    "3/5/2024",
    "3/9/2024",
    10 + i,
    i,
    i % 2 ? "Shipped" : "Open",
    "X",
  ]);
  const form = new FormData();
  form.set("file", new File([csv([HEADERS, ...rows])], "orders.csv"));
  const run = body(
    await admin.request("POST", `/api/order-tracking-sources/${tracking}/import`, {
      rawBody: form,
      headers: { origin },
    }),
    "import",
  );
  const inventory = body(
    await admin.post(
      "/api/inventory-sources/inventory/save",
      inventoryPayload(mailbox, { sourceName: "Acme stock feed" }),
    ),
    "inventory source",
  );
  // Two real runs, so the item pages (issue 23) show items, a change, a chart and a raw row.
  for (const rows of [[["A1", 5], ["A2", 5], ["A3", 5]], [["A1", 0], ["A2", 5], ["A3", 7]]]) {
    const upload = new FormData();
    upload.set("file", new File([stockCsv(rows as [string, number][]) as BlobPart], "stock.csv"));
    upload.set("sourceId", String(inventory.id));
    upload.set("sendEmailNotification", "false");
    upload.set("submitViaSftp", "false");
    body(
      await admin.request("POST", "/api/inventory-sources/manually-process", {
        rawBody: upload,
        headers: { origin },
      }),
      "inventory run",
    );
  }
  const submission = body(
    await admin.post("/api/order-submission/sources/save", {
      sourceName: "Customer orders portal",
      emailSourceId: mailbox,
      fromEmail: "orders@customer.example",
      subjectValue: "Daily orders",
      expectedAttachmentCount: 1,
      expectedNumberOfBatchEmails: 1,
    }),
    "submission source",
  );
  const vendor = body(
    await admin.post("/api/order-submission/vendor/save", {
      orderSubmissionSourceId: submission.id,
      vendorNameFromFile: "Acme Tools",
      sendFromEmailSourceModelId: mailbox,
      submitEmails: "orders@acmetools.example",
      submitEmailSubjectLine: "Orders",
      submitFileHeaderRowIndex: 1,
      // A template, so that the field mapping shows its column pickers and preview.
      submitFileTemplate: encodeBase64(
        Deno.readFileSync(new URL("../fixtures/orders/acme_orders.xlsx", import.meta.url)),
      ),
      submitFileTemplateFileName: "acme_orders.xlsx",
    }),
    "vendor",
  );
  const setting = body(
    await admin.post("/api/notification-settings", {
      name: "Weekly stock summary",
      sourceTypeId: 1,
      notificationInterval: "Weekly",
      notificationDayOfWeek: 1,
      notificationEnabled: true,
      // The webhook fields show only with a webhook: scanned with them.
      webhookPreset: "slack",
      webhookUrl: "https://hooks.slack.example/services/T0/B0/x",
    }),
    "notification setting",
  );
  body(
    await admin.post("/api/notification-settings", {
      name: "Vendor sending failures",
      sourceTypeId: 4,
      notificationInterval: "Daily",
    }),
    "second notification setting",
  );
  const listed = body(
    await admin.post("/api/order-tracking/list", { PageSize: 10, PageIndex: 1 }),
    "orders",
  ) as { orders: { id: number }[] };
  const users = (await admin.get("/api/accounts/list")).body as { userId: number }[];
  return {
    mailbox,
    tracking,
    inventory: inventory.id,
    submission: submission.id,
    vendor: vendor.id,
    setting: setting.id,
    order: listed.orders[0].id,
    run: run.id as number,
    user: users[0]?.userId ?? 1,
  };
}

/** Every page a person reaches, with the level-1 heading that says it has loaded. */
function pagesOf(ids: Awaited<ReturnType<typeof seed>>): [string, string | RegExp][] {
  return [
    ["/home", "Welcome to the Home Page"],
    ["/account", "Account Settings"],
    ["/sources", "Sources"],
    ["/order-tracking", "Order Tracking"],
    [`/order-tracking/order/${ids.order}`, "Order Details"],
    ["/order-tracking-sources", "Order Tracking Sources"],
    [`/order-tracking-sources/edit/${ids.tracking}`, "Edit Order Tracking Source"],
    ["/email-sources", "Email Sources"],
    [`/email-sources/edit/${ids.mailbox}`, "Edit Email Source"],
    ["/runs", "Runs"],
    [`/runs/${ids.run}`, `Run ${ids.run}`],
    ["/inventory-sources", "Inventory Sources"],
    [`/inventory-sources/edit/${ids.inventory}`, "Edit Inventory Source"],
    [`/inventory-sources/manually-process/${ids.inventory}`, "Manually Process File"],
    [`/inventory-sources/${ids.inventory}/items`, "Items of Acme stock feed"],
    [`/inventory-sources/${ids.inventory}/items/A1`, "Item A1"],
    ["/order-submission/sources", "Order Submission Sources"],
    [`/order-submission/sources/edit/${ids.submission}`, "Edit Order Submission Source"],
    ["/order-submission/vendor", "Order Submission Vendor Sources"],
    [`/order-submission/vendor/edit/${ids.vendor}`, "Edit Order Vendor Source"],
    ["/notification-settings", "Notification Settings"],
    [`/notification-settings/edit/${ids.setting}`, "Edit Notification Setting"],
    ["/admin", "Admin Dashboard"],
    ["/admin/manage/users", "Manage Users"],
    [`/admin/manage/users/edit/${ids.user}`, "Edit User"],
  ];
}

/** Waits until the page's heading shows and its loading texts are gone. */
async function settled(page: Page, heading: string | RegExp): Promise<void> {
  await page.getByRole("heading", { level: 1, name: heading }).first().waitFor();
  await page.waitForFunction(() =>
    !/Loading|Checking your session/.test(document.body.innerText) &&
    !document.querySelector("[aria-busy=true]")
  );
  // Radix dialogs and menus animate in; let the page come to rest before the contrast checks.
  await page.waitForTimeout(300);
}

/** One theme at one width: logs in, scans the login page and then every page. */
async function scanAll(
  browser: Browser,
  baseURL: string,
  theme: "light" | "dark",
  width: number,
  pages: [string, string | RegExp][],
): Promise<string[]> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 844 } });
  await context.addInitScript((chosen) => localStorage.setItem("theme", chosen), theme);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  const note = (path: string, findings: A11yFinding[], scrollWidth: number) => {
    for (const f of findings) {
      problems.push(
        `${theme} ${width}px ${path}: ${f.rule} (${f.help}) at ${f.targets.join(", ")}`,
      );
    }
    if (scrollWidth > width) {
      problems.push(`${theme} ${width}px ${path}: the page is ${scrollWidth} px wide`);
    }
  };
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  try {
    await page.goto("/");
    await page.getByRole("heading", { name: "Login" }).waitFor();
    note("/", await scanA11y(page), await scrollWidth());
    await logIn(page, "admin", ADMIN_PASSWORD);
    assert.equal(
      await page.evaluate(() => document.documentElement.classList.contains(localStorage.theme)),
      true,
      `the ${theme} theme is on`,
    );
    for (const [path, heading] of pages) {
      await page.goto(path);
      await settled(page, heading);
      note(path, await scanA11y(page), await scrollWidth());
    }
  } finally {
    await context.close();
  }
  return problems;
}

Deno.test("every page passes axe-core's WCAG 2.2 AA rules in both themes at 1280 and 390 px", async (t) => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const pages = pagesOf(await seed(admin, new URL(server.url).origin));
    for (const theme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await t.step(`${theme} theme at ${width} px`, async () => {
          const problems = await scanAll(browser, server.url, theme, width, pages);
          assert.deepEqual(problems, []);
        });
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
});
