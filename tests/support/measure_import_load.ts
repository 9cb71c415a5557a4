/**
 * "## Load" of docs/benchmarks.md (issue 29), printed by `deno run -A tests/support/measure_import_load.ts`
 * (it drives a test server, so it lives with the test support: bench/ may not import tests/): what other users see while a 40,000-row order
 * file is imported through the API (tests/support/import_load.ts), and the home stats call with 1M
 * orders changed in the last 24 hours, on PostgreSQL and on PGlite, from the maintained counts
 * (migration 0016) and, for comparison, counted from the orders as before.
 *
 * BENCH_LOAD_ROWS (40000) sets the import, BENCH_STATS_ROWS (1000000) the orders changed today,
 * BENCH_DATABASE_URL / DATABASE_URL the PostgreSQL (postgres://postgres@127.0.0.1:5432/test).
 */
import { openDb } from "../../api/db/client.ts";
import type { Db } from "../../api/db/client.ts";
import { migrate } from "../../api/db/migrate.ts";
import { orderUpdateStats, orderUpdateStatsCounted } from "../../api/order_tracking/queries.ts";
import { freshPostgresDatabase } from "./db.ts";
import { startProcess } from "../../bench/app_process.ts";
import { createSource } from "../../bench/order_tracking_bench.ts";
import { type ImportLoad, measureImportLoad, quantile } from "./import_load.ts";

const ROWS = Number(Deno.env.get("BENCH_LOAD_ROWS") ?? 40_000);
const STATS_ROWS = Number(Deno.env.get("BENCH_STATS_ROWS") ?? 1_000_000);
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";

const max = (values: number[]) => values.reduce((a, b) => Math.max(a, b), 0);
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The import measurement on PGlite (the embedded default), or on PostgreSQL with `url`: the app
 * in a process of its own as `deno task start` runs it (jobs on), so that this process's work
 * (building and sending the file) is not counted as the server's.
 */
async function importLoad(url?: string): Promise<ImportLoad & { loadavg: string }> {
  const database = url ? await freshPostgresDatabase(url) : null;
  const dir = await Deno.makeTempDir({ prefix: "import-load-" });
  const password = "import-load-password";
  const app = await startProcess("web", {
    ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dir }),
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: password,
    LOG_LEVEL: "warn",
  });
  try {
    const before = Deno.loadavg()[0].toFixed(1);
    const load = await measureImportLoad({ url: app.url! }, ROWS, password);
    return { ...load, loadavg: `${before} → ${Deno.loadavg()[0].toFixed(1)}` };
  } finally {
    await app.stop();
    await database?.drop();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * `rows` orders changed in the last 24 hours in batches of 500 (one moment per batch, as the
 * batched import writes them), a tenth of them deleted, over three sources.
 */
async function fillChangedToday(db: Db, rows: number): Promise<void> {
  const sources = [await createSource(db)];
  for (const name of ["Second", "Third"]) {
    const [{ id }] = await db.query<{ id: number }>(
      `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
         subject_value, attachment_name, unique_column)
       select $1, email_source_id, 'csv', from_email, subject_value, attachment_name, unique_column
         from order_tracking_sources where id = $2 returning id`,
      [name, sources[0]],
    );
    sources.push(id);
  }
  // Only the home stats are timed: the search indexes would only slow the fill.
  const indexes = await db.query<{ name: string }>(
    `select indexname as name from pg_indexes where tablename = 'orders' and indexname not in
       (select conname from pg_constraint where conrelid = 'orders'::regclass)`,
  );
  for (const { name } of indexes) await db.exec(`drop index ${name}`);
  const step = 86_000 / (rows / 500);
  for (let start = 0; start < rows; start += 100_000) {
    await db.query(
      `insert into orders (order_tracking_source_id, unique_key, last_updated, deleted_status,
         deleted_at)
       select ($1::int[])[1 + i % 3], 'K' || i,
              now() - make_interval(secs => (i / 500) * $4::float8),
              i % 10 = 0, case when i % 10 = 0 then now() - make_interval(secs => (i / 500) * $4::float8) end
         from generate_series($2::int, $3::int) as i`,
      [sources, start, Math.min(rows, start + 100_000) - 1, step],
    );
  }
  await db.exec("analyze orders");
}

async function timeStats(db: Db): Promise<{ maintained: number; counted: number; same: boolean }> {
  const median = async (run: () => Promise<unknown>) => {
    for (let i = 0; i < 3; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    return quantile(times, 0.5);
  };
  const now = new Date();
  const same = JSON.stringify(await orderUpdateStats(db, now)) ===
    JSON.stringify(await orderUpdateStatsCounted(db, now));
  return {
    maintained: await median(() => orderUpdateStats(db)),
    counted: await median(() => orderUpdateStatsCounted(db)),
    same,
  };
}

async function statsOn(kind: "postgres" | "pglite") {
  const database = kind === "postgres" ? await freshPostgresDatabase(PG_URL) : null;
  const db = await openDb(database ? { url: database.url } : { dataDir: "memory://" });
  try {
    await migrate(db);
    const started = performance.now();
    await fillChangedToday(db, STATS_ROWS);
    console.log(
      `  ${kind}: ${STATS_ROWS} orders filled in ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s`,
    );
    return await timeStats(db);
  } finally {
    await db.close();
    await database?.drop();
  }
}

function importRows(label: string, load: ImportLoad & { loadavg: string }): string[] {
  const idleH = quantile(load.idleHealth, 0.5), idleS = quantile(load.idleSearch, 0.5);
  return [
    `| ${label}: import of ${load.rows} rows (load average ${load.loadavg}) | ${
      (load.importMs / 1000).toFixed(1)
    } s (${load.importStatus}) | |`,
    `| ${label}: /health idle median / p95 | ${ms(idleH)} / ${
      ms(quantile(load.idleHealth, 0.95))
    } | |`,
    `| ${label}: /health during the import: max / p95 (${load.health.length} probes) | ${
      ms(max(load.health))
    } / ${ms(quantile(load.health, 0.95))} | ≤ 250 ms: ${
      max(load.health) <= 250 ? "met" : "not met"
    } |`,
    `| ${label}: one-order search idle median | ${ms(idleS)} | |`,
    `| ${label}: one-order search during: p50 / p95 / max (${load.search.length} searches) | ${
      ms(quantile(load.search, 0.5))
    } / ${ms(quantile(load.search, 0.95))} / ${ms(max(load.search))} (max ${
      (max(load.search) / idleS).toFixed(1)
    } × idle) | ≤ 10 × idle (${ms(10 * idleS)}): ${
      max(load.search) <= 10 * idleS ? "met" : "not met"
    } |`,
  ];
}

/** Runs the measurements and returns the "## Load" section. */
export async function importLoadSection(machine: string): Promise<string> {
  console.log("load: import on PGlite");
  const lite = await importLoad();
  console.log("load: import on PostgreSQL");
  const pg = await importLoad(PG_URL);
  // BENCH_STATS_ROWS=0 leaves the home stats out (the import part alone).
  console.log("load: home stats");
  const statsPg = STATS_ROWS ? await statsOn("postgres") : null;
  const statsLite = STATS_ROWS ? await statsOn("pglite") : null;
  const load = Deno.loadavg().map((v) => v.toFixed(1)).join(" / ");
  const statsRow = (label: string, s: typeof statsPg) =>
    !s
      ? []
      : `| home stats, ${STATS_ROWS} orders changed in 24 h, ${label}: maintained counts / counting orders | ${
        ms(s.maintained)
      } / ${ms(s.counted)} | ≤ 5 ms: ${s.maintained <= 5 ? "met" : "not met"}; same answer: ${
        s.same ? "yes" : "NO"
      } |`;
  return [
    "## Load",
    "",
    `Measured ${
      new Date().toISOString().slice(0, 10)
    } by \`deno run -A tests/support/measure_import_load.ts\` ` +
    `(BENCH_STATS_ROWS=0: without the home stats). ${machine}. Load average (1/5/15 min) at the end: ${load}.`,
    "The app in a process of its own on loopback; `/health` asked every 20 ms and a one-order " +
    "search (one PO number) every 100 ms, first idle, then while POST " +
    ".../order-tracking-sources/:id/import writes a file of new orders (2,000 orders already " +
    "stored). PGlite runs in its worker, files are read in the file workers, the import " +
    "commits in batches of IMPORT_BATCH_ROWS (docs/architecture.md).",
    "",
    "| measurement | value | target |",
    "| --- | --- | --- |",
    ...importRows("PGlite", lite),
    ...importRows("PostgreSQL", pg),
    ...[statsRow("PostgreSQL", statsPg), statsRow("PGlite", statsLite)].flat(),
    "",
  ].join("\n");
}

if (import.meta.main) {
  const cores = navigator.hardwareConcurrency;
  console.log(await importLoadSection(`${cores} cores, Deno ${Deno.version.deno}`));
  Deno.exit(0);
}
