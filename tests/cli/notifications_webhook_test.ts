/**
 * `cli notifications webhook` and `test-webhook` against a running server and a receiver on
 * loopback: the address and secret go in through stdin, never appear in what the CLI prints,
 * and the test message arrives signed.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { testCli } from "./support.ts";

Deno.test("cli sets a setting's webhook from stdin and posts a test message", async () => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  const cli = await testCli(server.url);
  const posts: Headers[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    posts.push(request.headers);
    return new Response("ok");
  });
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const token = await admin.post("/api/accounts/tokens", { name: "ci" });
    const env = { SOURCE_MANAGER_TOKEN: (token.body as { token: string }).token };
    const created = await admin.post("/api/notification-settings", {
      name: "Ops",
      sourceTypeId: 3,
      notificationInterval: "None",
    });
    const id = String((created.body as { id: number }).id);
    const url = `http://127.0.0.1:${hook.addr.port}/services/T0/B0/very-secret`;

    const set = await cli.json(["notifications", "webhook", id, "--preset", "slack", "--secret"], {
      env,
      stdin: `${url}\nsigning-key\n`,
    });
    assert.equal(set.code, 0, set.stdout + set.stderr);
    assert.ok(!set.stdout.includes("very-secret") && !set.stdout.includes("signing-key"));
    assert.equal((set.body as { webhookHost: string }).webhookHost, "127.0.0.1");

    const list = await cli.run(["notifications", "list"], { env });
    assert.match(list.stdout, /WEBHOOK/);
    assert.match(list.stdout, /slack 127\.0\.0\.1/);

    const test = await cli.run(["notifications", "test-webhook", id], { env });
    assert.equal(test.code, 0, test.stdout + test.stderr);
    assert.match(test.stdout, /Test message posted to 127\.0\.0\.1/);
    assert.equal(posts.length, 1);
    assert.match(posts[0].get("x-webhook-signature") ?? "", /^t=\d+,v1=[0-9a-f]{64}$/);

    const removed = await cli.run(["notifications", "webhook", id, "--preset", "none"], { env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /Webhook removed/);
    const none = await cli.json(["notifications", "test-webhook", id], { env });
    assert.equal(none.code, 1);
  } finally {
    await hook.shutdown();
    await cli.close();
    await server.close();
  }
});
