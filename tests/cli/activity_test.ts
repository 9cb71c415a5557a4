/** `cli activity list` against a running server: the plain-words table, filters and --json. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { testCli } from "./support.ts";
import type { ActivityPage } from "../../shared/contract/activity.ts";

Deno.test("cli activity list", async (t) => {
  const server = await startTestServer();
  const cli = await testCli(server.url);
  try {
    await testClient(server.url).post("/auth/login", { username: "eve", password: "nope-nope-1" });
    const login = await cli.run(["login", "--username", "admin", "--password-stdin"], {
      stdin: ADMIN_PASSWORD + "\n",
    });
    assert.equal(login.code, 0, login.stderr);

    await t.step("lists sign-ins in words, newest first", async () => {
      const run = await cli.run(["activity", "list"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^TIME \(UTC\)\s+WHAT\s+ADDRESS/);
      assert.match(run.stdout, /admin created access token "cli on [^"]*"/);
      assert.match(run.stdout, /admin signed in\s+127\.0\.0\.1/);
      assert.match(run.stdout, /Sign-in failed for "eve"\s+127\.0\.0\.1/);
      assert.match(run.stdout, /page 1 of 1 \(\d+ entries\)/);
    });

    await t.step("--json with filters answers the API's page", async () => {
      const run = await cli.json(["activity", "list", "--action", "sign-in failed"]);
      assert.equal(run.code, 0, run.stderr);
      const page = run.body as ActivityPage;
      assert.equal(page.total, 1);
      assert.equal(page.entries[0].username, "eve");
    });

    await t.step("a bad filter is refused with exit 1", async () => {
      const run = await cli.json(["activity", "list", "--from", "yesterday"]);
      assert.equal(run.code, 1);
    });
  } finally {
    await cli.close();
    await server.close();
  }
});
