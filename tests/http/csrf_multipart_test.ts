/**
 * The CSRF rule holds for multipart forms (issue 28: an order import posted as
 * `multipart/form-data` without `Origin` went through). Refused without the browser headers or
 * from another site; the web app's way (its own Origin) and the CLI's (a bearer token) still work.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, HEADERS } from "../support/order_tracking.ts";

Deno.test("a cross-site multipart order import is refused; the web app and the CLI still import", async () => {
  const server = await startTestServer();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const sourceId = await createSource(admin);
    const path = `/api/order-tracking-sources/${sourceId}/import`;
    const form = () => {
      const data = new FormData();
      const file = csv([HEADERS, ["PO-1", "SKU-1"]]);
      data.set("file", new File([file], "orders.csv", { type: "text/csv" }));
      return data;
    };
    const runs = async () =>
      (await server.db.query("select 1 from import_runs where source_id = $1", [sourceId])).length;

    // What a page on another site makes a browser send: the session cookie, no Origin (old
    // browsers, privacy extensions) or a cross-site Sec-Fetch-Site.
    const bare = await admin.request("POST", path, { rawBody: form() });
    assert.equal(bare.status, 403, JSON.stringify(bare.body));
    assert.match((bare.body as { message: string }).message, /Cross-site request refused/);
    const crossSite = await admin.request("POST", path, {
      rawBody: form(),
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(crossSite.status, 403);
    const otherOrigin = await admin.request("POST", path, {
      rawBody: form(),
      headers: { origin: "https://evil.example" },
    });
    assert.equal(otherOrigin.status, 403);
    assert.equal(await runs(), 0, "nothing was imported");

    // The web app: a same-origin fetch carries Origin (and Sec-Fetch-Site: same-origin).
    const web = await admin.request("POST", path, {
      rawBody: form(),
      headers: { origin: new URL(server.url).origin, "sec-fetch-site": "same-origin" },
    });
    assert.equal(web.status, 200, JSON.stringify(web.body));
    // The CLI: a bearer token, no cookie, no Origin.
    const { token } = (await admin.post("/api/accounts/tokens", { name: "cli" })).body as {
      token: string;
    };
    const cli = await testClient(server.url).request("POST", path, {
      rawBody: form(),
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(cli.status, 200, JSON.stringify(cli.body));
    assert.equal(await runs(), 2);
  } finally {
    await server.close();
  }
});
