/**
 * What other users see while a large order file is imported through the API (issue 29): a real
 * server on loopback; `/health` is asked every 20 ms, and a one-order search
 * (one PO number) every 100 ms, first idle and then during a POST .../import of `rows` rows.
 * Used by `deno task bench` ("## Load") and, with generous bounds, by tests/http/load_test.ts.
 */
import { type TestServer } from "./server.ts";
import { type TestClient, testClient } from "./http.ts";
import { ADMIN_PASSWORD } from "./server.ts";
import { createSource, csv, HEADERS } from "./order_tracking.ts";

/** Latencies in ms, and how long the import took. */
export interface ImportLoad {
  idleHealth: number[];
  idleSearch: number[];
  health: number[];
  search: number[];
  importMs: number;
  importStatus: string;
  rows: number;
}

/** An order file of `rows` rows with the columns of tests/support's source, keys from `from`. */
export function orderFile(rows: number, from = 0): Uint8Array {
  const lines: (string | number)[][] = [HEADERS];
  for (let i = from; i < from + rows; i++) {
    lines.push([
      `PO-${String(i).padStart(7, "0")}`,
      `SKU-${i % 5003}`,
      `Customer ${i % 997}`,
      `Store #${i % 90}`,
      `Vendor ${i % 40}`,
      `Brand ${i % 12}`,
      `1Z${(i * 2654435761 % 2 ** 32).toString(16).toUpperCase()};9400${i}`,
      "2024-03-05",
      i % 3 ? "2024-03-09" : "",
      (i % 7) + 1,
      i % 7,
      ["Open", "Shipped", "Backordered"][i % 3],
      `X${i}`,
    ]);
  }
  return new TextEncoder().encode(csv(lines));
}

async function timed(run: () => Promise<Response | { status: number }>): Promise<number> {
  const started = performance.now();
  const response = await run();
  if (response instanceof Response) await response.body?.cancel();
  if (response.status !== 200) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

const searchOne = (client: TestClient, po: string) => () =>
  client.post("/api/order-tracking/list", {
    PageSize: 50,
    PageIndex: 1,
    SortParams: {},
    PoNumberParam: po,
  });

/** Probes `probe` one after another (with `pauseMs` between) until `done` settles. */
async function probeUntil(
  probe: () => Promise<number>,
  done: Promise<unknown>,
  pauseMs: number,
): Promise<number[]> {
  let finished = false;
  done.finally(() => finished = true).catch(() => {});
  const out: number[] = [];
  while (!finished) {
    out.push(await probe());
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return out;
}

/**
 * Seeds 2,000 orders, measures idle latencies, then imports `rows` new orders through
 * POST /api/order-tracking-sources/:id/import while probing.
 */
export async function measureImportLoad(
  server: Pick<TestServer, "url">,
  rows: number,
  password = ADMIN_PASSWORD,
): Promise<ImportLoad> {
  const admin = testClient(server.url);
  await admin.login("admin", password);
  const reader = testClient(server.url);
  await reader.login("admin", password);
  const sourceId = await createSource(admin, { uniqueColumn: "CustomerPoNumber" });
  const upload = (bytes: Uint8Array, name: string) => {
    const form = new FormData();
    form.append("file", new File([bytes as BlobPart], name, { type: "text/csv" }));
    return admin.request("POST", `/api/order-tracking-sources/${sourceId}/import`, {
      rawBody: form,
      headers: { origin: server.url },
    });
  };
  const seeded = await upload(orderFile(2000, 10_000_000), "seed.csv");
  if (seeded.status !== 200) throw new Error(`seed import answered ${seeded.status}`);
  const health = () => timed(() => fetch(`${server.url}/health`));
  const search = () => timed(searchOne(reader, "PO-10000123"));
  for (let i = 0; i < 20; i++) await health(), await search(); // warm-up
  const idleHealth: number[] = [], idleSearch: number[] = [];
  for (let i = 0; i < 50; i++) {
    idleHealth.push(await health());
    idleSearch.push(await search());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const file = orderFile(rows);
  const started = performance.now();
  const importing = upload(file, "big.csv").then((response) => {
    if (response.status !== 200) throw new Error(`import answered ${response.status}`);
    return response.body as { status: string; error: string | null };
  });
  const [during, searches, run] = await Promise.all([
    probeUntil(health, importing, 20),
    probeUntil(search, importing, 100),
    importing,
  ]);
  return {
    idleHealth,
    idleSearch,
    health: during,
    search: searches,
    importMs: performance.now() - started,
    importStatus: run.error ? `${run.status}: ${run.error}` : run.status,
    rows,
  };
}

export { quantile } from "../../bench/stats.ts";
