/**
 * `cli sources url set|show|check` against a running server and a loopback HTTPS supplier
 * (docs/url_feeds.md): the token comes from an environment variable, never printed; a check takes
 * the file, the next reads not modified. Needs tests/services/up.sh (the certificate).
 */
import assert from "node:assert/strict";
import { readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload } from "../support/inventory.ts";
import { startSupplier } from "../support/url_supplier.ts";
import { testCli } from "./support.ts";

Deno.test("cli sources url", async (t) => {
  const services = readServices();
  const supplier = startSupplier(services.caPath);
  const server = await startTestServer({ env: { MAIL_CA_FILE: services.caPath } });
  const cli = await testCli(server.url);
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const mailbox = await saveMailbox(admin);
    await admin.post(
      "/api/inventory-sources/inventory/save",
      sourcePayload(mailbox, { sourceName: "Acme stock" }),
    );
    const login = await cli.run(["login", "--username", "admin", "--password-stdin"], {
      stdin: ADMIN_PASSWORD + "\n",
    });
    assert.equal(login.code, 0, login.stderr);
    const url = `${supplier.base}/stock.csv`;

    await t.step("set with a token from the environment", async () => {
      const run = await cli.run([
        "sources",
        "url",
        "set",
        "inventory",
        "Acme stock",
        "--url",
        url,
        "--every",
        "30",
        "--auth",
        "header",
        "--header-name",
        "X-Api-Key",
        "--secret-env",
        "FEED_TOKEN",
      ], { env: { FEED_TOKEN: "cli-token-9" } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Fetched from .* every 30 min; last check never/);
      const shown = await cli.run(["sources", "url", "show", "inventory", "Acme stock"]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.ok(!shown.stdout.includes("cli-token-9"));
      assert.match(shown.stdout, /secret\s+\*{8}/);
    });

    await t.step("check: fetched, then not modified; a bad URL exits 1", async () => {
      const first = await cli.json(["sources", "url", "check", "inventory", "Acme stock"]);
      assert.equal(first.code, 0, first.stderr);
      assert.equal((first.body as { outcome: string }).outcome, "fetched");
      assert.equal(supplier.state.requests.at(-1)?.headers.get("x-api-key"), "cli-token-9");
      const second = await cli.run(["sources", "url", "check", "inventory", "Acme stock"]);
      assert.match(second.stdout, /outcome: not-modified/);
      const bad = await cli.json([
        "sources",
        "url",
        "set",
        "inventory",
        "Acme stock",
        "--url",
        "http://plain.example/x.csv",
        "--every",
        "5",
      ]);
      assert.equal(bad.code, 1);
      assert.match(JSON.stringify(bad.body), /Only https/);
    });
  } finally {
    await cli.close();
    await server.close();
    await supplier.server.shutdown();
  }
});
