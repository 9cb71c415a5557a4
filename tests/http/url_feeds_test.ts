/**
 * URL feeds over HTTP (issue 25, docs/url_feeds.md) against a real HTTPS server started here on
 * loopback with the test services' certificate (signed by their CA, trusted through
 * MAIL_CA_FILE): first fetch processes, 304 does not, a changed file does, the same bytes without
 * validators do not; oversize, a redirect to a refused address and a time-out fail with a clear
 * error on a run; the token header is sent; the secret never comes back. Needs
 * tests/services/up.sh (for the certificate only).
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { saveMailbox, sourcePayload, stockCsv } from "../support/inventory.ts";
import { createSource } from "../support/order_tracking.ts";
import { readServices } from "../services/services.ts";
import { tick } from "../../api/jobs/runner.ts";
import { startSupplier } from "../support/url_supplier.ts";

const CAP = 4096;

Deno.test("URL feeds: conditional fetches, limits, policy, secrets", async (t) => {
  const services = readServices();
  const supplier = startSupplier(services.caPath, CAP);
  const server = await startTestServer({
    env: {
      MAIL_CA_FILE: services.caPath,
      // Long enough for the other looks on a loaded machine, shorter than /slow's 6 s.
      URL_FEED_TIMEOUT_SECONDS: "4",
      MAX_SOURCE_FILE_BYTES: String(CAP),
    },
  });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    await server.createUser({ username: "ord", password: "ord-password-1", orderUser: true });
    const ord = testClient(server.url);
    await ord.login("ord", "ord-password-1");
    const mailbox = await saveMailbox(admin);
    const saved = await admin.post("/api/inventory-sources/inventory/save", sourcePayload(mailbox));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const id = (saved.body as { id: number }).id;
    const path = `/api/url-feeds/inventory/${id}`;
    const feed = (over: Record<string, unknown> = {}) => ({
      url: `${supplier.base}/stock.csv`,
      everyMinutes: 15,
      cron: "",
      authKind: "header",
      headerName: "X-Api-Key",
      secret: "supplier-token-123",
      ...over,
    });
    const check = async () => {
      const res = await admin.post(`${path}/check`, {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { outcome: string; error: string | null; runId: number | null };
    };
    const runOf = async (runId: number) =>
      (await admin.get(`/api/import-runs/${runId}`)).body as {
        status: string;
        trigger: string;
        error: string | null;
      };
    const urlRuns = async () =>
      (await server.db.query<{ n: number }>(
        "select count(*)::int as n from import_runs where trigger = 'url'",
      ))[0].n;

    await t.step("validation: https only, a valid cron, one schedule, auth fields", async () => {
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ url: "http://localhost/stock.csv" }, "url", /Only https/],
        [{ url: "not a url" }, "url", /full URL/],
        [{ url: "https://u:p@localhost/x" }, "url", /authentication fields/],
        [{ everyMinutes: null, cron: "" }, "everyMinutes", /interval in minutes or a cron/],
        [{ everyMinutes: null, cron: "61 * * * *" }, "cron", /minute field "61"/],
        [{ everyMinutes: null, cron: "0 6 * *" }, "cron", /five fields/],
        [{ cron: "0 6 * * *" }, "cron", /not both/],
        [{ headerName: "" }, "headerName", /required/],
        [{ secret: "" }, "secret", /required/],
        [{ authKind: "basic", username: "" }, "username", /required/],
      ];
      for (const [over, field, message] of cases) {
        const res = await admin.post(path, feed(over));
        assert.equal(res.status, 400, JSON.stringify(over));
        const errors = (res.body as { errors: Record<string, string[]> }).errors;
        assert.match(errors[field]?.join(" ") ?? "", message, JSON.stringify(res.body));
      }
      const long = await admin.post(path, feed({ url: `https://a.example/${"x".repeat(2100)}` }));
      assert.equal(long.status, 400);
    });

    await t.step("saved: the secret reads as the placeholder; others' flag refused", async () => {
      const res = await admin.post(path, feed());
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = await admin.get(path);
      assert.equal((got.body as { secret: string }).secret, "********");
      assert.ok(!JSON.stringify(got.body).includes("supplier-token-123"));
      assert.equal((await ord.get(path)).status, 403);
      assert.equal((await admin.get("/api/url-feeds/inventory/9999")).status, 404);
      const [row] = await server.db.query<{ secret: string }>(
        "select secret_enc as secret from url_feeds",
      );
      assert.ok(!row.secret.includes("supplier-token-123"));
    });

    let firstRun = 0;
    await t.step("the schedule fetches a new feed at once; the file is processed", async () => {
      await tick(server.server.deps, "url-feeds-test", () => {});
      const [run] = await server.db.query<{ id: number; status: string }>(
        "select id, status from import_runs where trigger = 'url' order by id",
      );
      assert.ok(run, "the scheduled look recorded a run");
      firstRun = run.id;
      assert.equal((await runOf(run.id)).status, "succeeded");
      const sent = supplier.state.requests.at(-1)!;
      assert.equal(sent.headers.get("x-api-key"), "supplier-token-123");
      assert.equal(sent.headers.get("if-none-match"), null);
      const got = (await admin.get(path)).body as { watch: { outcome: string } };
      assert.equal(got.watch.outcome, "fetched");
    });

    await t.step("unchanged: 304, nothing processed", async () => {
      const r = await check();
      assert.deepEqual(r, { outcome: "not-modified", error: null, runId: null });
      assert.equal(supplier.state.requests.at(-1)!.headers.get("if-none-match"), '"v1"');
      assert.equal(await urlRuns(), 1);
    });

    await t.step("changed file: processed again", async () => {
      supplier.state.body = stockCsv([["A1", 9], ["A2", 3], ["A3", 7], ["A4", 2]]);
      supplier.state.etag = '"v2"';
      const r = await check();
      assert.equal(r.outcome, "fetched");
      assert.ok(r.runId && r.runId !== firstRun);
      assert.equal((await runOf(r.runId)).status, "succeeded");
      assert.equal((await runOf(r.runId)).trigger, "url");
    });

    await t.step(
      "two looks at once (two workers, or Check now meeting the schedule): one run",
      async () => {
        supplier.state.body = stockCsv([["A1", 2], ["A2", 2], ["A3", 2], ["A4", 2]]);
        supplier.state.etag = '"v3"';
        const before = await urlRuns();
        const both = await Promise.all([check(), check()]);
        assert.equal(both.filter((r) => r.outcome === "fetched").length, 1, JSON.stringify(both));
        assert.equal(await urlRuns(), before + 1);
      },
    );

    await t.step("a server without validators: the same bytes are not processed", async () => {
      supplier.state.etag = null;
      const before = await urlRuns();
      assert.equal((await check()).outcome, "unchanged");
      assert.equal(await urlRuns(), before);
    });

    await t.step("a redirect on the same server is followed, the token kept", async () => {
      supplier.state.body = stockCsv([["A1", 1], ["A2", 1], ["A3", 1], ["A4", 1]]);
      const res = await admin.post(
        path,
        feed({ url: `${supplier.base}/moved`, secret: "********" }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = await check();
      assert.equal(r.outcome, "fetched", JSON.stringify(r));
      assert.equal(supplier.state.requests.at(-1)!.path, "/stock.csv");
      assert.equal(supplier.state.requests.at(-1)!.headers.get("x-api-key"), "supplier-token-123");
    });

    await t.step("a redirect to another origin is followed without the token", async () => {
      supplier.state.body = stockCsv([["A1", 6], ["A2", 6], ["A3", 6], ["A4", 6]]);
      const res = await admin.post(
        path,
        feed({ url: `${supplier.base}/cross`, secret: "********" }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await check()).outcome, "fetched");
      const [first, second] = supplier.state.requests.slice(-2);
      assert.equal(first.headers.get("x-api-key"), "supplier-token-123");
      assert.equal(second.path, "/stock.csv");
      assert.equal(second.headers.get("x-api-key"), null);
      assert.match(second.headers.get("host") ?? "", /^127\.0\.0\.1:/);
    });

    await t.step("switching to no authentication drops the secret", async () => {
      const other = `/api/url-feeds/inventory/${id}`;
      const res = await admin.post(other, feed({ authKind: "none", secret: "********" }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body as { secret: string }).secret, "");
      const back = await admin.post(other, feed({ url: `${supplier.base}/cross` }));
      assert.equal(back.status, 200, JSON.stringify(back.body));
    });

    await t.step("the kept secret cannot follow another origin", async () => {
      const res = await admin.post(
        path,
        feed({ url: "https://other.example/stock.csv", secret: "********" }),
      );
      assert.equal(res.status, 400);
      assert.match((res.body as { message: string }).message, /URL origin/);
    });

    const failing = async (url: string, message: RegExp) => {
      const res = await admin.post(path, feed({ url, secret: "********" }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = await check();
      assert.equal(r.outcome, "failed");
      assert.match(r.error ?? "", message);
      assert.ok(r.runId, "the first failure is recorded as a run");
      const run = await runOf(r.runId);
      assert.equal(run.status, "failed");
      assert.match(run.error ?? "", message);
      // The same failure again: on the source's line, not another run.
      assert.equal((await check()).runId, null);
    };

    await t.step("oversize: refused with a clear run error", async () => {
      await failing(`${supplier.base}/big`, /larger than the 4096-byte cap/);
    });

    await t.step("a redirect to a refused address: refused, nothing fetched there", async () => {
      await failing(`${supplier.base}/elsewhere`, /Could not connect to 10\.11\.12\.13/);
    });

    await t.step("too many redirects", async () => {
      await failing(`${supplier.base}/loop`, /redirected more than 5 times/);
    });

    await t.step("time-out", async () => {
      await failing(`${supplier.base}/slow`, /did not answer within 4 s/);
    });

    await t.step("basic auth is sent as Authorization", async () => {
      supplier.state.body = stockCsv([["A1", 4], ["A2", 4], ["A3", 4], ["A4", 4]]);
      const res = await admin.post(
        path,
        feed({ authKind: "basic", username: "acme", secret: "pw-1", headerName: "" }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await check()).outcome, "fetched");
      assert.equal(
        supplier.state.requests.at(-1)!.headers.get("authorization"),
        `Basic ${btoa("acme:pw-1")}`,
      );
    });

    await t.step("a cron feed waits for its time", async () => {
      const res = await admin.post(path, feed({ everyMinutes: null, cron: "0 0 1 1 *" }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const before = supplier.state.requests.length;
      await server.db.query("update job_schedules set next_run_at = now() where kind = $1", [
        "url-feed-pull",
      ]);
      await tick(server.server.deps, "url-feeds-test", () => {});
      assert.equal(supplier.state.requests.length, before, "not fetched before its time");
      const got = (await admin.get(path)).body as { watch: { nextCheckAt: string } };
      assert.match(got.watch.nextCheckAt, /-01-01T00:00:00/);
    });

    await t.step("an order tracking source pulls through the same channel", async () => {
      const sourceId = await createSource(admin);
      const otPath = `/api/url-feeds/order-tracking/${sourceId}`;
      assert.equal((await ord.get(otPath)).status, 200);
      const res = await ord.post(
        otPath,
        feed({ url: `${supplier.base}/stock.csv`, authKind: "none" }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const r = (await ord.post(`${otPath}/check`, {})).body as { outcome: string; runId: number };
      assert.equal(r.outcome, "fetched");
      const run = (await ord.get(`/api/import-runs/${r.runId}`)).body as { status: string };
      assert.notEqual(run.status, "queued");
      // Removing the URL removes its schedule.
      assert.equal((await ord.post(otPath, { url: "" })).status, 200);
      await tick(server.server.deps, "url-feeds-test", () => {});
      const names = await server.db.query<{ name: string }>(
        "select name from job_schedules where kind = 'url-feed-pull'",
      );
      assert.deepEqual(names.map((n) => n.name), [`url-feed-pull:inventory:${id}`]);
    });
  } finally {
    await server.close();
    await supplier.server.shutdown();
  }
});
