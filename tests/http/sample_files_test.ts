/**
 * POST /api/sample-files/preview (issue 24, column pickers): a workbook's headers and first rows,
 * its header row given or detected, refusals in words, and only for users with a flag.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { upload } from "../support/inventory.ts";
import { SAMPLE_PREVIEW_ROWS, type SamplePreview } from "../../shared/files/sample_preview.ts";

const PATH = "/api/sample-files/preview";
const fixture = (path: string) =>
  Deno.readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

Deno.test("sample file preview", async (t) => {
  const server = await startTestServer();
  try {
    await server.createUser({ username: "sam", password: "sam-password", submissionUser: true });
    await server.createUser({ username: "nobody", password: "nobody-password" });
    const sam = testClient(server.url);
    await sam.login("sam", "sam-password");

    await t.step("an XLSX sample: its headers and at most five rows", async () => {
      const file = { name: "acme_orders.xlsx", bytes: fixture("orders/acme_orders.xlsx") };
      const answer = await upload(sam, server.url, PATH, file, {});
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const preview = answer.body as SamplePreview;
      assert.equal(preview.fileName, "acme_orders.xlsx");
      assert.ok(preview.headers.includes("PO #"), preview.headers.join(", "));
      assert.ok(preview.rows.length > 0 && preview.rows.length <= SAMPLE_PREVIEW_ROWS);
      assert.equal(preview.rows[0].length, preview.headers.length);
    });

    await t.step("a titled sheet: detected header row, or the one the form gives", async () => {
      const file = { name: "orders_titled.xlsx", bytes: fixture("files/orders_titled.xlsx") };
      const detected = (await upload(sam, server.url, PATH, file, {})).body as SamplePreview;
      assert.ok(detected.headerRow! > 1);
      const given = await upload(sam, server.url, PATH, file, { headerRow: "1" });
      assert.equal(given.status, 200);
      assert.equal((given.body as SamplePreview).headerRow, 1);
      const outside = await upload(sam, server.url, PATH, file, { headerRow: "999" });
      assert.equal(outside.status, 400);
      assert.match((outside.body as { message: string }).message, /Header row 999 is outside/);
    });

    await t.step("a refused file says why; no file and a bad header row are 400", async () => {
      const bomb = { name: "bomb.xlsx", bytes: fixture("files/zip_bomb_ratio.xlsx") };
      const refused = await upload(sam, server.url, PATH, bomb, {});
      assert.equal(refused.status, 400);
      assert.ok((refused.body as { message: string }).message.length > 10);
      const noFile = await sam.request("POST", PATH, {
        rawBody: new FormData(),
        headers: { origin: server.url },
      });
      assert.equal(noFile.status, 400);
      const file = { name: "a.csv", bytes: new TextEncoder().encode("A,B\n1,2\n") };
      const bad = await upload(sam, server.url, PATH, file, { headerRow: "zero" });
      assert.equal(bad.status, 400);
    });

    await t.step("a user without any flag is refused", async () => {
      const nobody = testClient(server.url);
      await nobody.login("nobody", "nobody-password");
      const file = { name: "a.csv", bytes: new TextEncoder().encode("A,B\n1,2\n") };
      assert.equal((await upload(nobody, server.url, PATH, file, {})).status, 403);
    });
  } finally {
    await server.close();
  }
});
