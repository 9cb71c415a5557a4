/**
 * Issue 29's latency bounds on the embedded default (PGlite in its worker, files read in the
 * file workers, imports written in batches): while a 40,000-row order file is imported through
 * the API, `/health` answers every time and a one-order search stays near its idle time; a file
 * past FILE_WORK_SECONDS fails its run with the reason. The precise figures are in
 * `deno task bench` ("## Load"); the bounds here are generous for a loaded test machine.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";
import { ADMIN_PASSWORD } from "../support/server.ts";
import { createSource } from "../support/order_tracking.ts";
import { measureImportLoad, orderFile, quantile } from "../support/import_load.ts";

Deno.test("a 40,000-row import through the API stalls neither /health nor a one-order search", async () => {
  const server = await startTestServer();
  try {
    const load = await measureImportLoad(server, 40_000);
    assert.equal(load.importStatus, "succeeded");
    const idleSearch = quantile(load.idleSearch, 0.5);
    const worstHealth = load.health.reduce((a, b) => Math.max(a, b), 0);
    const worstSearch = load.search.reduce((a, b) => Math.max(a, b), 0);
    const summary = `health max ${worstHealth.toFixed(0)} ms over ${load.health.length}, ` +
      `search max ${worstSearch.toFixed(0)} ms (idle median ${idleSearch.toFixed(1)} ms), ` +
      `import ${(load.importMs / 1000).toFixed(1)} s`;
    // The bounds are 250 ms and 10 × idle (measured by `deno task bench`, "## Load").
    // /health gets four times the room on a test machine shared by many runs, which still fails
    // the seconds-long stalls of one shared thread (4.7 s before). A search's statements wait
    // for the import's batches, which a loaded machine slows tenfold (docs/benchmarks.md), so
    // here it only has to finish well within the session and answer every time.
    assert.ok(load.health.length >= 10, summary);
    assert.ok(worstHealth <= 1000, summary);
    assert.ok(load.search.length >= 1, summary);
    assert.ok(worstSearch <= Math.max(40 * idleSearch, 15_000), summary);
    console.log(summary);
  } finally {
    await server.close();
  }
});

Deno.test("a file past FILE_WORK_SECONDS fails its run with the reason; the next file imports", async () => {
  // 0.05 s: reading the 80,000-row file takes 0.4–1.2 s, a 20-row file in a fresh worker about
  // 4 ms on a quiet machine (more under the suite's parallel load: 0.01 s was once too little).
  const server = await startTestServer({ env: { FILE_WORK_SECONDS: "0.05" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const sourceId = await createSource(admin, { uniqueColumn: "CustomerPoNumber" });
    const upload = async (bytes: Uint8Array) => {
      const form = new FormData();
      form.append("file", new File([bytes as BlobPart], "orders.csv", { type: "text/csv" }));
      const response = await admin.request(
        "POST",
        `/api/order-tracking-sources/${sourceId}/import`,
        { rawBody: form, headers: { origin: server.url } },
      );
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body as { status: string; error: string | null };
    };
    const big = await upload(orderFile(80_000));
    assert.equal(big.status, "failed");
    assert.match(big.error ?? "", /^Reading the file took longer than 0\.05 s; it was stopped/);
    const [{ n }] = await server.db.query<{ n: number }>("select count(*)::int as n from orders");
    assert.equal(n, 0, "nothing of the stopped file was written");
    const small = await upload(orderFile(20));
    assert.equal(small.status, "succeeded");
  } finally {
    await server.close();
  }
});
