/** `cli dashboard` against a running server with real data: states in words, and --json. */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { seedDashboard, STAFF } from "../support/dashboard.ts";
import { testCli } from "./support.ts";
import type { DashboardAnswer } from "../../shared/contract/dashboard.ts";

Deno.test("cli dashboard", async (t) => {
  const server = await startTestServer();
  const cli = await testCli(server.url);
  try {
    await seedDashboard(server);
    const login = await cli.run(["login", "--username", STAFF.username, "--password-stdin"], {
      stdin: STAFF.password + "\n",
    });
    assert.equal(login.code, 0, login.stderr);

    await t.step("a table in words, failing first, with the counts", async () => {
      const run = await cli.run(["dashboard"]);
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split("\n");
      assert.match(lines[0], /^STATE\s+KIND\s+SOURCE\s+LAST FILE \(UTC\)\s+LAST RESULT/);
      assert.match(lines[1], /^Failing/);
      assert.match(run.stdout, /Held\s+Inventory\s+Acme stock\s+stock-tuesday\.csv at /);
      assert.match(lines.at(-1) ?? "", /^2 failing, 1 held, 0 stale, 1 OK, 1 inactive$/);
    });

    await t.step("--json answers the API's summary", async () => {
      const run = await cli.json(["dashboard"]);
      assert.equal(run.code, 0, run.stderr);
      const answer = run.body as DashboardAnswer;
      assert.equal(answer.counts.failing, 2);
      assert.equal(answer.lines[0].state, "failing");
    });
  } finally {
    await cli.close();
    await server.close();
  }
});
