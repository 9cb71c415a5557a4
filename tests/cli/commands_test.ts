/**
 * CLI commands against a running server (issue 15): sources export → import round trip with a
 * dry run, a malformed import file imports nothing, an unknown source name, orders import with
 * row errors (exit 2), orders search, inventory process --source (dry run and for real), runs,
 * users. The token comes from SOURCE_MANAGER_TOKEN, as in CI.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { createSource } from "../support/order_tracking.ts";
import { saveMailbox, sourcePayload as inventoryPayload, stockCsv } from "../support/inventory.ts";
import { testCli } from "./support.ts";
import { writeTable } from "../../shared/files/mod.ts";
import { cutCsv, cutZip } from "../../shared/files/truncated_testing.ts";

const fixture = (name: string) => new URL(`../fixtures/orders/${name}`, import.meta.url).pathname;
type ErrorBody = { error: { message: string; exitCode: number; errors: Record<string, string[]> } };

Deno.test("cli commands over the API", async (t) => {
  const server = await startTestServer();
  const admin = testClient(server.url);
  const cli = await testCli(server.url);
  const dir = await Deno.makeTempDir({ prefix: "cli-commands-" });
  try {
    await admin.login("admin", ADMIN_PASSWORD);
    const created = await admin.post("/api/accounts/tokens", { name: "ci" });
    const env = { SOURCE_MANAGER_TOKEN: (created.body as { token: string }).token };
    const acme = await createSource(admin, { columnsToIgnore: "Internal Code, Wildcard1" });
    const mailbox = await saveMailbox(admin);
    const inv = await admin.post(
      "/api/inventory-sources/inventory/save",
      inventoryPayload(mailbox, { sourceName: "Widgets" }),
    );
    assert.equal(inv.status, 200, JSON.stringify(inv.body));

    await t.step("sources list and show, by id and by name; secrets never in clear", async () => {
      const list = await cli.json(["sources", "list", "order-tracking"], { env });
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual((list.body as { id: number }[]).map((s) => s.id), [acme]);
      const text = await cli.run(["sources", "show", "order-tracking", "acme supply"], { env });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /sourceName +Acme Supply/);
      const email = await cli.json(["sources", "show", "email", String(mailbox)], { env });
      assert.equal((email.body as { password: string }).password, "********");
      assert.ok(!email.stdout.includes("secret-password"));
    });

    await t.step("export → import round trip, dry run shows what would change", async () => {
      const file = `${dir}/tracking.json`;
      const exported = await cli.run(["sources", "export", "order-tracking", "--out", file], {
        env,
      });
      assert.equal(exported.code, 0, exported.stderr);
      const doc = JSON.parse(await Deno.readTextFile(file));
      assert.equal(doc.kind, "order-tracking");
      assert.equal(doc.sources.length, 1);
      const same = await cli.json(["sources", "import", file, "--dry-run"], { env });
      assert.equal(same.code, 0, same.stdout);
      assert.deepEqual(
        [
          (same.body as { unchanged: number }).unchanged,
          (same.body as { updated: number }).updated,
        ],
        [1, 0],
      );
      // Edited: a new subject for Acme (named by id), a new source by name.
      doc.sources[0].subjectValue = "Weekly order status";
      doc.sources.push({ ...doc.sources[0], id: 0, sourceName: "Beta Supply" });
      await Deno.writeTextFile(file, JSON.stringify(doc));
      const dry = await cli.run(["sources", "import", file, "--dry-run"], { env });
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(
        dry.stdout,
        new RegExp(
          `would update order tracking source "Acme Supply" \\(id ${acme}\\): subjectValue`,
        ),
      );
      assert.match(dry.stdout, /would create order tracking source "Beta Supply"/);
      const unchanged = (await admin.get(`/api/order-tracking-sources/get/${acme}`)).body as {
        subjectValue: string;
      };
      assert.equal(unchanged.subjectValue, "Daily order status", "a dry run changes nothing");
      const real = await cli.json(["sources", "import", file], { env });
      assert.equal(real.code, 0, real.stdout);
      assert.deepEqual(
        [(real.body as { created: number }).created, (real.body as { updated: number }).updated],
        [1, 1],
      );
      const after = (await admin.get(`/api/order-tracking-sources/get/${acme}`)).body as {
        subjectValue: string;
      };
      assert.equal(after.subjectValue, "Weekly order status");
      const again = await cli.json(["sources", "import", file, "--dry-run"], { env });
      assert.equal((again.body as { unchanged: number }).unchanged, 2, again.stdout);
    });

    await t.step("an e-mail source round trip keeps the stored secret", async () => {
      const file = `${dir}/email.json`;
      assert.equal((await cli.run(["sources", "export", "email", "--out", file], { env })).code, 0);
      const text = await Deno.readTextFile(file);
      assert.ok(!text.includes("secret-password") && !text.includes("not-used-secret"));
      const r = await cli.json(["sources", "import", file], { env });
      assert.equal(r.code, 0, r.stdout);
      const [row] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from email_sources where password_enc is not null and password_enc <> ''",
      ).catch(() => [{ n: -1 }]);
      assert.notEqual(row.n, 0);
    });

    await t.step("a malformed import file imports nothing", async () => {
      const file = `${dir}/bad.json`;
      const before = ((await admin.get("/api/order-tracking-sources/active")).body as []).length;
      const good = (await admin.get(`/api/order-tracking-sources/get/${acme}`)).body as Record<
        string,
        unknown
      >;
      await Deno.writeTextFile(
        file,
        JSON.stringify({
          kind: "order-tracking",
          sources: [
            { ...good, id: 0, sourceName: "Gamma Supply" },
            { ...good, id: 0, sourceName: "Delta Supply", fromEmail: "not an address" },
          ],
        }),
      );
      const r = await cli.json(["sources", "import", file], { env });
      assert.equal(r.code, 1);
      const error = (r.body as ErrorBody).error;
      assert.match(error.message, /1 of 2 entries are not valid .*nothing imported/);
      assert.ok(error.errors["sources[1].fromEmail"], JSON.stringify(error.errors));
      const after = ((await admin.get("/api/order-tracking-sources/active")).body as []).length;
      assert.equal(after, before);
      await Deno.writeTextFile(file, "{ not json");
      const notJson = await cli.run(["sources", "import", file]);
      assert.equal(notJson.code, 1);
      assert.match(notJson.stderr, /is not valid JSON/);
    });

    await t.step("an unknown source name: exit 1 naming it", async () => {
      const r = await cli.run(
        ["orders", "import", fixture("acme_orders.csv"), "--source", "Nope"],
        {
          env,
        },
      );
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr.trim(),
        'error: no order tracking source "Nope" (give its id or its name; list them with --json)',
      );
      const json = await cli.json(["sources", "show", "inventory", "Nope"], { env });
      assert.equal(json.code, 1);
      assert.match((json.body as ErrorBody).error.message, /no inventory source "Nope"/);
    });

    let runId = 0;
    await t.step(
      "orders import: a file with row errors exits 2; search finds the rows",
      async () => {
        const r = await cli.json(
          ["orders", "import", fixture("acme_orders.csv"), "--source", "Acme Supply"],
          { env },
        );
        assert.equal(r.code, 2, r.stdout + r.stderr);
        const run = r.body as {
          id: number;
          trigger: string;
          status: string;
          rowErrorCount: number;
        };
        assert.equal(run.trigger, "cli");
        assert.equal(run.status, "succeeded");
        assert.ok(run.rowErrorCount > 0);
        runId = run.id;
        const text = await cli.run(["runs", "show", String(runId)], { env });
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, /Row errors: \d+/);
        const search = await cli.json(["orders", "search", "--page-size", "10"], { env });
        assert.equal(search.code, 0, search.stdout);
        assert.ok((search.body as { totalRecordCount: number }).totalRecordCount >= 4);
        // Past the 10,000 results a person can page through: refused at once, saying why.
        const deep = await cli.run(["orders", "search", "--page-size", "50", "--page", "201"], {
          env,
        });
        assert.equal(deep.code, 1, deep.stdout);
        assert.match(
          deep.stderr,
          /Page 201 is beyond the first 10,000 results; narrow the search \(add terms\) to see more\./,
        );
        const deepJson = await cli.json(["orders", "search", "--page", "401"], { env });
        assert.equal(deepJson.code, 1);
        assert.equal(
          (deepJson.body as ErrorBody).error.message,
          "Page 401 is beyond the first 10,000 results; narrow the search (add terms) to see more.",
        );
        const list = await cli.json(["runs", "list", "--feed", "order-tracking"], { env });
        assert.ok((list.body as { id: number }[]).some((x) => x.id === runId));
        const clean = `${dir}/clean.csv`;
        await Deno.writeTextFile(
          clean,
          (await Deno.readTextFile(fixture("acme_orders.csv"))).split(/\r?\n/).slice(0, 3).join(
            "\r\n",
          ) + "\r\n",
        );
        const ok = await cli.run(["orders", "import", clean, "--source", String(acme)], { env });
        assert.equal(ok.code, 0, ok.stdout + ok.stderr);
        const rerun = await cli.json(["runs", "rerun", String(runId)], { env });
        assert.equal(rerun.code, 2, rerun.stdout);
        assert.equal((rerun.body as { rerunOf: number }).rerunOf, runId);
      },
    );

    await t.step("inventory process --source: dry run shows flips, then a stored run", async () => {
      const file = `${dir}/stock.csv`;
      await Deno.writeFile(file, stockCsv([["A1", 10], ["A2", 0], ["A3", 5], ["A4", 7]]));
      const dry = await cli.json(
        ["inventory", "process", file, "--source", "widgets", "--dry-run"],
        { env },
      );
      assert.equal(dry.code, 0, dry.stdout + dry.stderr);
      assert.equal((dry.body as { dryRun: boolean }).dryRun, true);
      assert.ok(Array.isArray((dry.body as { flips: unknown[] }).flips));
      const [{ n: runsBefore }] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from inventory_runs",
      );
      assert.equal(runsBefore, 0, "a dry run stores nothing");
      const real = await cli.json(["inventory", "process", file, "--source", "Widgets"], { env });
      assert.equal(real.code, 0, real.stdout + real.stderr);
      const body = real.body as { runId: number; fileData?: string; activeCount: number };
      assert.ok(body.runId > 0);
      assert.equal(body.fileData, undefined);
      const [stored] = await server.db.query<{ trigger: string }>(
        "select trigger from import_runs where id = $1",
        [body.runId],
      );
      assert.equal(stored.trigger, "cli");
      const show = await cli.run(["inventory", "show", "Widgets"], { env });
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /Recent runs:/);
      const release = await cli.json(["inventory", "release", String(body.runId)], { env });
      assert.equal(release.code, 1, "a run that is not held cannot be released");
      assert.match((release.body as ErrorBody).error.message, /is not held/);
      const both = await cli.run(["inventory", "process", file, "--source", "1", "--config", file]);
      assert.equal(both.code, 1);
      const sftp = await cli.run(["inventory", "process", file, "--source", "Widgets", "--sftp"], {
        env,
      });
      assert.equal(sftp.code, 1);
      assert.equal(
        sftp.stderr.trim(),
        "error: The source has no SFTP server to submit the file to.",
      );
    });

    await t.step(
      "inventory process --source and orders import: a file cut off in transfer is refused, the run failed with the reason, nothing delivered",
      async () => {
        const rows = Array.from(
          { length: 20 },
          (_, i) => [`A${i}`, `line one\nline two ${i}`, "5"],
        );
        const cut = `${dir}/cut.csv`;
        await Deno.writeFile(cut, cutCsv(writeTable(["Item Number", "Note", "Qty"], rows, "csv")));
        const runsOf = async () =>
          (await server.db.query<{ n: number }>("select count(*)::int as n from inventory_runs"))[0]
            .n;
        const before = await runsOf();
        const lastRunId = async () =>
          (await server.db.query<{ id: number }>("select max(id) as id from import_runs"))[0].id;
        const cutReason = /^The file ends inside a quoted field that opens in row \d+/;
        const dry = await cli.json([
          "inventory",
          "process",
          cut,
          "--source",
          "Widgets",
          "--dry-run",
        ], {
          env,
        });
        assert.equal(dry.code, 1, dry.stdout + dry.stderr);
        assert.match((dry.body as ErrorBody).error.message, cutReason);
        const real = await cli.json(["inventory", "process", cut, "--source", "Widgets"], { env });
        assert.equal(real.code, 1, real.stdout + real.stderr);
        assert.match((real.body as ErrorBody).error.message, cutReason);
        // The run is kept, failed with the reason; it has no generated file and nothing to deliver.
        const [run] = await server.db.query<{ status: string; error: string; noFile: boolean }>(
          `select r.status, r.error, i.output_bytes is null as "noFile" from import_runs r
             join inventory_runs i on i.import_run_id = r.id order by r.id desc limit 1`,
        );
        assert.deepEqual([run.status, run.noFile], ["failed", true]);
        assert.match(run.error, cutReason);
        assert.equal(await runsOf(), before + 1);
        const [jobs] = await server.db.query<{ n: number }>(
          "select count(*)::int as n from jobs where kind = 'inventory-deliver' and payload->>'runId' = $1",
          [String(await lastRunId())],
        );
        assert.equal(jobs.n, 0, "no delivery for a refused file");
        const text = await cli.run(["inventory", "process", cut, "--source", "Widgets"], { env });
        assert.equal(text.code, 1);
        assert.match(text.stderr, /^error: The file ends inside a quoted field/);

        const orders = `${dir}/orders.xlsx`;
        await Deno.writeFile(orders, cutZip(writeTable(["PO #", "Qty Ordered"], rows, "xlsx")));
        const imported = await cli.json(["orders", "import", orders, "--source", "Acme Supply"], {
          env,
        });
        assert.equal(imported.code, 1, imported.stdout + imported.stderr);
        const orderRun = imported.body as { status: string; error: string };
        assert.equal(orderRun.status, "failed");
        assert.match(orderRun.error, /^The workbook ends early \(its zip directory is missing\)/);
      },
    );

    await t.step("users create, update, show, list", async () => {
      const create = await cli.run(
        ["users", "create", "bob", "--email", "bob@example.com", "--inventory-user"],
        { env },
      );
      assert.equal(create.code, 0, create.stderr);
      const update = await cli.run(["users", "update", "bob", "--no-order-user"], { env });
      assert.equal(update.code, 0, update.stderr);
      const show = await cli.json(["users", "show", "bob"], { env });
      const bob = show.body as {
        orderUser: boolean;
        inventoryUser: boolean;
        activeStatus: boolean;
      };
      assert.deepEqual([bob.orderUser, bob.inventoryUser, bob.activeStatus], [false, true, true]);
      const list = await cli.run(["users", "list"], { env });
      assert.match(list.stdout, /^ID +USERNAME/);
      const dup = await cli.json(["users", "create", "bob", "--email", "b@example.com"], { env });
      assert.equal(dup.code, 1);
      assert.match((dup.body as ErrorBody).error.message, /already taken/);
    });

    await t.step("notifications list, mail poll of an unknown id", async () => {
      const list = await cli.json(["notifications", "list"], { env });
      assert.equal(list.code, 0, list.stdout);
      const poll = await cli.run(["mail", "poll", "999"], { env });
      assert.equal(poll.code, 1);
      assert.match(poll.stdout, /E-mail source 999: failed: .*not found/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await cli.close();
    await server.close();
  }
});
