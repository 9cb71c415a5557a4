/** `cli runs list` and `cli runs show` against a running server: the history in words, filters. */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource, csv, HEADERS } from "../support/order_tracking.ts";
import { upload } from "../support/inventory.ts";
import { testCli } from "./support.ts";
import type { RunListItem } from "../../shared/contract/runs.ts";

Deno.test("cli runs list and show", async (t) => {
  const server = await startTestServer();
  const cli = await testCli(server.url);
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const sourceId = await createSource(admin, { sourceName: "Acme Supply" });
    const importFile = async (text: string) =>
      ((await upload(admin, server.url, `/api/order-tracking-sources/${sourceId}/import`, {
        name: "orders.csv",
        bytes: new TextEncoder().encode(text),
      }, {})).body as { id: number }).id;
    const row = (
      po: string,
      date: string,
    ) => [po, "S", "C", "T", "V", "B", "", date, "", 1, 0, "Open", ""];
    const good = await importFile(csv([HEADERS, row("PO-1", "2026-11-01"), row("PO-2", "x")]));
    const failed = await importFile("Nothing,Useful\r\n1,2\r\n");
    const login = await cli.run(["login", "--username", "admin", "--password-stdin"], {
      stdin: ADMIN_PASSWORD + "\n",
    });
    assert.equal(login.code, 0, login.stderr);

    await t.step("list: the runs in words, newest first", async () => {
      const run = await cli.run(["runs", "list"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^RUN\s+WHEN \(UTC\)\s+AREA\s+SOURCE\s+STATE\s+RESULT/);
      assert.match(
        run.stdout,
        new RegExp(`${good}\\s.*Acme Supply\\s+With row errors\\s+2 new orders, 1 row error`),
      );
      assert.ok(run.stdout.indexOf(`\n${failed} `) < run.stdout.indexOf(`\n${good} `));
    });

    await t.step("--state failed --since 1d --json", async () => {
      const run = await cli.json(["runs", "list", "--state", "failed", "--since", "1d"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((run.body as RunListItem[]).map((r) => r.id), [failed]);
      const none = await cli.json(["runs", "list", "--until", "2020-01-01"]);
      assert.deepEqual(none.body, []);
      const area = await cli.json([
        "runs",
        "list",
        "--area",
        "order-tracking",
        "--source",
        String(sourceId),
      ]);
      assert.equal((area.body as RunListItem[]).length, 2);
      assert.equal((await cli.json(["runs", "list", "--state", "broken"])).code, 1);
    });

    await t.step("show: the result, row errors by reason and the log", async () => {
      const run = await cli.run(["runs", "show", String(good)]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Run \d+: With row errors — 2 new orders, 1 row error/);
      assert.match(run.stdout, /Source: Acme Supply \(Order Tracking, source \d+\)/);
      assert.ok(
        run.stdout.includes("Row errors: 1\n  1 × Order Date: “…” is not a date"),
        run.stdout,
      );
      assert.ok(run.stdout.includes('    row 3: "x" is not a date'), run.stdout);
    });
  } finally {
    await cli.close();
    await server.close();
  }
});
