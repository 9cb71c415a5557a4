import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { launchBrowser, newPage } from "./browser.ts";

/** docs/design.md section 10: first load of the login page, JS ≤ 250 kB gzipped. */
const BUDGET_BYTES = 250_000;

async function gzippedSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

Deno.test("the login page's first load stays within the JS budget", async () => {
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const { context, page } = await newPage(browser, server.url);
    const scripts = new Map<string, Promise<Uint8Array>>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") {
        scripts.set(response.url(), response.body());
      }
    });
    await page.goto("/", { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Login" }).waitFor();

    let total = 0;
    for (const body of scripts.values()) total += await gzippedSize(await body);
    console.log(`login page first load: ${scripts.size} scripts, ${total} bytes gzipped`);
    assert.ok(total <= BUDGET_BYTES, `${total} bytes gzipped is over ${BUDGET_BYTES}`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
