/**
 * The webhook fields of the notification setting form (docs/notifications.md, "Webhooks"): a
 * person picks a format, enters the address and a signing secret (each with its label), saves,
 * and "Send Test to Webhook" posts to a real receiver on loopback. The stored address never
 * reaches the page. Light and dark, 1280 and 390 px: axe-core finds nothing, no sideways scroll;
 * screenshots go to .tmp/screens/.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { launchBrowser, logIn } from "./browser.ts";
import { scanA11y } from "./a11y.ts";
import { choose, saveButton } from "./support.ts";

const SCREENS = new URL("../../.tmp/screens/", import.meta.url).pathname;

Deno.test("notification setting form: webhook fields, save, test post", async () => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  const posts: { headers: Headers; body: string }[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    posts.push({ headers: r.headers, body: await r.text() });
    return new Response("ok");
  });
  const hookUrl = `http://127.0.0.1:${hook.addr.port}/services/T0/B0/hidden-part`;
  await Deno.mkdir(SCREENS, { recursive: true });
  try {
    // A person fills the form at desktop width in the light theme.
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await logIn(page, "admin", ADMIN_PASSWORD);
    await page.goto("/notification-settings/edit/0");
    await page.getByRole("heading", { name: "Webhook", level: 2 }).waitFor();
    await page.getByLabel("Notification Name").fill("Ops channel");
    await choose(page, "Source Type", "Inventory");
    assert.equal(await page.getByLabel("Webhook URL").count(), 0, "no address without a format");
    await choose(page, "Webhook Format", "Slack");
    await page.getByLabel("Webhook URL").fill("not a url");
    await saveButton(page).click();
    await page.getByText("Webhook URL must be an http:// or https:// address").waitFor();
    await page.getByLabel("Webhook URL").fill(hookUrl);
    await page.getByLabel("Signing Secret (optional)").fill("signing-key");
    await saveButton(page).click();
    await page.getByText("Notification setting saved").waitFor();
    const [{ id }] = await server.db.query<{ id: number }>(
      `select id from notification_settings where name = 'Ops channel'`,
    );

    await page.goto(`/notification-settings/edit/${id}`);
    await page.getByText("Posts to 127.0.0.1.").waitFor();
    assert.equal(await page.getByLabel("Webhook URL").inputValue(), "********");
    assert.equal(await page.getByLabel("Signing Secret (optional)").inputValue(), "********");
    assert.ok(!(await page.content()).includes("hidden-part"), "the address stays on the server");
    await page.getByRole("button", { name: "Send Test to Webhook" }).click();
    await page.getByRole("status").filter({ hasText: "Test message posted to 127.0.0.1" })
      .waitFor();
    assert.equal(posts.length, 1);
    assert.match(posts[0].headers.get("x-webhook-signature") ?? "", /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.match(JSON.parse(posts[0].body).text, /Ops channel/);
    await context.close();

    // Both themes at 1280 and 390 px: labelled, no findings, no sideways scroll.
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
        await p.goto(`/notification-settings/edit/${id}`);
        await p.getByText("Posts to 127.0.0.1.").waitFor();
        await p.getByRole("button", { name: "Send Test to Webhook" }).click();
        await p.getByRole("status").filter({ hasText: "Test message posted" }).waitFor();
        await p.waitForTimeout(300);
        for (const f of await scanA11y(p)) {
          problems.push(`${theme} ${width}: ${f.rule} (${f.help}) at ${f.targets.join(", ")}`);
        }
        const scroll = await p.evaluate(() => document.documentElement.scrollWidth);
        if (scroll > width) problems.push(`${theme} ${width}: ${scroll} px wide`);
        await p.getByRole("heading", { name: "Webhook", level: 2 }).scrollIntoViewIfNeeded();
        await p.screenshot({ path: `${SCREENS}webhook_${theme}_${width}.png` });
        await ctx.close();
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await hook.shutdown();
    await browser.close();
    await server.close();
  }
});
