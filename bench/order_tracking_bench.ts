/**
 * Order tracking benchmarks (docs/design.md section 10), on PostgreSQL and on PGlite side by side:
 *
 * 1. a 100k-row order CSV imported end to end (read, map, stage, upsert into the indexed
 *    table) against a plain COPY of the same rows into the same indexed, empty tables;
 * 2. the list search (three terms, AND and OR, sorted, page of 50) over 1M orders, with the
 *    search indexes and with them dropped;
 * 3. PGlite against PostgreSQL on both.
 *
 * `orderTrackingSection()` returns the "## Order tracking" section of docs/benchmarks.md;
 * run alone (`deno run -A bench/order_tracking_bench.ts`) it rewrites that section itself.
 * Sizes: BENCH_ORDER_IMPORT_ROWS (100000), BENCH_ORDER_SEARCH_ROWS (1000000); PostgreSQL from
 * BENCH_DATABASE_URL or DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import postgres from "postgres";
import type { Db } from "../api/db/client.ts";
import { openDb } from "../api/db/client.ts";
import { migrate } from "../api/db/migrate.ts";
import { importOrderFile } from "../api/order_tracking/feed/feed.ts";
import { searchOrders } from "../api/order_tracking/search.ts";
import { refreshSearchSample } from "../api/order_tracking/search_sample.ts";
import type { OrderListRequest } from "../shared/contract/order_tracking.ts";

const IMPORT_ROWS = Number(Deno.env.get("BENCH_ORDER_IMPORT_ROWS") ?? 100_000);
const SEARCH_ROWS = Number(Deno.env.get("BENCH_ORDER_SEARCH_ROWS") ?? 1_000_000);
const IMPORT_RUNS = Number(Deno.env.get("BENCH_ORDER_IMPORT_RUNS") ?? 2);
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";

export const HEADERS = [
  "PO Number",
  "Item Number",
  "Customer",
  "Ship To",
  "Supplier",
  "Brand",
  "Tracking",
  "Order Date",
  "Ship Date",
  "Qty",
  "Qty Shipped",
  "Status",
  "Warehouse Note",
];
const FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai"];
const SYLLABLES = ["ka", "lo", "mi", "ran", "sto", "vel", "dor", "pen", "tri", "wald", "ber"];
const STATUSES = ["Open", "Shipped", "Backordered", "Cancelled", "Delivered"];

/** Deterministic order rows shaped like a supplier's order status file. */
export function orderRows(count: number): string[][] {
  let seed = 11;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
  const rows: string[][] = [];
  for (let i = 0; i < count; i++) {
    const last = SYLLABLES[rnd(11)] + SYLLABLES[rnd(11)] + SYLLABLES[rnd(11)];
    const qty = 1 + rnd(20);
    rows.push([
      `PO-${String(i).padStart(7, "0")}`,
      `SKU-${String(rnd(200_000)).padStart(6, "0")}`,
      `${FIRST[rnd(11)]} ${last[0].toUpperCase()}${last.slice(1)}`,
      `Store #${rnd(900)}, ${["Springfield", "Riverside", "Fairview"][rnd(3)]}`,
      `Supplier ${rnd(200)}`,
      `Brand ${rnd(100)}`,
      rnd(3) === 0 ? "" : `1Z${rnd(1e8).toString(16).toUpperCase()}${rnd(1e8)};9400${rnd(1e9)}`,
      `${1 + rnd(12)}/${1 + rnd(28)}/2024`,
      rnd(2) ? "" : `${1 + rnd(12)}/${1 + rnd(28)}/2025`,
      String(qty),
      String(rnd(qty + 1)),
      STATUSES[rnd(5)],
      `Bay ${rnd(40)}`,
    ]);
  }
  return rows;
}

export function csvText(rows: string[][]): string {
  const cell = (text: string) => /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  return rows.map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** The same rows as COPY input for `orders` and `tracking_numbers` (ids given). */
function copyInput(rows: string[][], sourceId: number): { orders: string; numbers: string } {
  const iso = (us: string) => {
    if (!us) return "";
    const [m, d, y] = us.split("/");
    return `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  };
  const orders: string[][] = [];
  const numbers: string[][] = [];
  rows.forEach((row, i) => {
    const id = String(i + 1);
    const tracking = row[6] ? row[6].split(";") : [];
    for (const number of tracking) numbers.push([id, number]);
    orders.push([
      id,
      String(sourceId),
      row[0],
      row[0],
      row[1],
      row[2],
      row[3],
      row[4],
      row[5],
      tracking.join("\n"),
      iso(row[7]),
      iso(row[8]),
      row[9],
      row[10],
      row[11],
    ]);
  });
  return { orders: csvText(orders), numbers: csvText(numbers) };
}

// An empty tracking_search is '' (the column is not null), not NULL as CSV would read it.
const COPY_ORDERS = `copy orders (id, order_tracking_source_id, unique_key, customer_po_number,
  item_number, customer_name, ship_to_name, supplier_name, brand_name, tracking_search,
  order_date, shipped_date, qty, qty_fulfilled, line_status) %FROM% with (format csv,
  force_not_null (tracking_search))`;
const COPY_NUMBERS = "copy tracking_numbers (order_id, tracking_number) %FROM% with (format csv)";

/** A database under test: the Db interface plus a raw COPY. */
interface BenchDb {
  kind: "postgres" | "pglite";
  db: Db;
  copy(statement: string, csv: string): Promise<void>;
  close(): Promise<void>;
}

async function openPostgresBench(): Promise<BenchDb> {
  const name = `bench_orders_${crypto.randomUUID().slice(0, 8)}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.href });
  const raw = postgres(url.href, { max: 1, onnotice: () => {} });
  return {
    kind: "postgres",
    db,
    async copy(statement, csv) {
      const writable = await raw.unsafe(statement.replace("%FROM%", "from stdin")).writable();
      const done = new Promise((resolve, reject) => {
        writable.on("finish", resolve);
        writable.on("error", reject);
      });
      writable.end(csv);
      await done;
    },
    async close() {
      await db.close();
      await raw.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** PGlite as api/db/client.ts opens it, kept raw here for COPY from a blob. */
async function openPgliteBench(): Promise<BenchDb> {
  const toNumber = (value: string) => Number(value);
  const pg = await PGlite.create({
    dataDir: "memory://",
    extensions: { pg_trgm },
    parsers: { [pgliteTypes.INT8]: toNumber, [pgliteTypes.NUMERIC]: toNumber },
  });
  type Conn = Pick<PGlite, "query" | "exec">;
  const wrap = (conn: Conn, inTx: boolean): Db => ({
    kind: "pglite",
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await conn.query<T>(sql, params as unknown[])).rows,
    exec: async (sql: string) => {
      await conn.exec(sql);
    },
    transaction: <T>(fn: (tx: Db) => Promise<T>) =>
      inTx ? fn(wrap(conn, true)) : pg.transaction((tx) => fn(wrap(tx, true))),
    othersActive: () => false,
    close: () => pg.close(),
  });
  return {
    kind: "pglite",
    db: wrap(pg, false),
    async copy(statement, csv) {
      await pg.query(statement.replace("%FROM%", "from '/dev/blob'"), [], {
        blob: new Blob([csv]),
      });
    },
    close: () => pg.close(),
  };
}

export async function createSource(db: Db): Promise<number> {
  // The source's mailbox (a foreign key): no server, so it is never polled.
  const [mailbox] = await db.query<{ id: number }>(
    `insert into email_sources (username, email) values ('bench', 'bench@example.test')
     returning id`,
  );
  const [{ id }] = await db.query<{ id: number }>(
    `insert into order_tracking_sources (source_name, email_source_id, file_type, from_email,
       subject_value, attachment_name, secondary_delimiter, unique_column)
     values ('Bench', $1, 'csv', 'bench@example.test', 'Orders', 'orders', ';', 'CustomerPoNumber')
     returning id`,
    [mailbox.id],
  );
  await db.query(
    `insert into order_tracking_column_normalizations (order_tracking_source_id,
       customer_po_number, item_number, customer_name, ship_to_name, supplier_name, brand_name,
       tracking_numbers, order_date, shipped_date, qty, qty_fulfilled, line_status)
     values ($1, 'PO Number', 'Item Number', 'Customer', 'Ship To', 'Supplier', 'Brand',
       'Tracking', 'Order Date', 'Ship Date', 'Qty', 'Qty Shipped', 'Status')`,
    [id],
  );
  return id;
}

async function emptyOrders(db: Db): Promise<void> {
  await db.exec("truncate tracking_numbers, order_seen, orders restart identity");
}

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

/** Best import and best COPY time of IMPORT_RUNS alternating rounds, on empty tables. */
async function importBench(target: BenchDb): Promise<{ importS: number; copyS: number }> {
  const { db } = target;
  await migrate(db);
  const sourceId = await createSource(db);
  const rows = orderRows(IMPORT_ROWS);
  const bytes = new TextEncoder().encode(csvText([HEADERS, ...rows]));
  const copy = copyInput(rows, sourceId);
  let importS = Infinity, copyS = Infinity;
  for (let round = 0; round < IMPORT_RUNS; round++) {
    await emptyOrders(db);
    const t = await seconds(async () => {
      const outcome = await db.transaction((tx) =>
        importOrderFile(tx, {
          runId: 0,
          sourceId,
          fileName: "orders.csv",
          bytes,
          trigger: "cli",
          receivedAt: new Date(),
        })
      );
      if (outcome.counts.inserted !== IMPORT_ROWS) {
        throw new Error(`import wrote ${outcome.counts.inserted} orders: ${outcome.log.join(" ")}`);
      }
    });
    importS = Math.min(importS, t);
    await emptyOrders(db);
    copyS = Math.min(
      copyS,
      await seconds(async () => {
        await target.copy(COPY_ORDERS, copy.orders);
        await target.copy(COPY_NUMBERS, copy.numbers);
      }),
    );
    // postgres.js does not report a failed COPY on the stream: check that the rows arrived.
    const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from orders");
    if (n !== IMPORT_ROWS) throw new Error(`COPY wrote ${n} orders of ${IMPORT_ROWS}`);
    console.log(
      `  ${target.kind} round ${round + 1}: import ${t.toFixed(2)} s, COPY ${copyS.toFixed(2)} s`,
    );
  }
  await emptyOrders(db);
  return { importS, copyS };
}

/** The search indexes of migrations 0004 and 0015, to drop and measure without them. */
const SEARCH_INDEXES = ["po", "item", "customer", "ship_to", "supplier", "brand", "tracking"]
  .flatMap((column) => [`orders_${column}_trgm`, `orders_${column}_short`]);

/** Fills `orders` with `rows` generated rows (SEARCH_ROWS by default), server side. */
export async function fillOrders(db: Db, sourceId: number, rows = SEARCH_ROWS): Promise<void> {
  const syllables = `array['${SYLLABLES.join("','")}']`;
  const first = `array['${FIRST.join("','")}']`;
  // Building the indexes after the load is what a bulk load does; the bench times queries.
  // Every index of `orders` but the constraints' (the search and the sort indexes).
  const saved = await db.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes
      where tablename = 'orders' and indexname not in
        (select conname from pg_constraint where conrelid = 'orders'::regclass)`,
  );
  for (const { name } of saved) await db.exec(`drop index ${name}`);
  await db.query(
    `insert into orders (order_tracking_source_id, unique_key, customer_po_number, item_number,
       customer_name, ship_to_name, supplier_name, brand_name, tracking_search, order_date, qty,
       line_status)
     select $1, 'PO-' || lpad(i::text, greatest(7, length(i::text)), '0'),
            'PO-' || lpad(i::text, greatest(7, length(i::text)), '0'),
            'SKU-' || lpad((i * 7919 % 200000)::text, 6, '0'),
            (${first})[1 + i % 11] || ' ' || initcap((${syllables})[1 + (i / 11) % 11]
              || (${syllables})[1 + (i / 121) % 11] || (${syllables})[1 + (i / 1331) % 11]),
            'Store #' || (i * 31 % 900) || ', Springfield',
            'Supplier ' || (i * 17 % 200), 'Brand ' || (i * 13 % 100),
            case when i % 3 = 0 then ''
                 else '1Z' || upper(substr(md5(i::text), 1, 16)) end,
            date '2024-01-01' + (i % 366)::int, 1 + i % 20,
            (array['Open','Shipped','Backordered','Cancelled','Delivered'])[1 + i % 5]
       from generate_series(1::bigint, $2::bigint) as i`,
    [sourceId, rows],
  );
  await db.exec(
    `insert into tracking_numbers (order_id, tracking_number)
     select id, tracking_search from orders where tracking_search <> ''`,
  );
  for (const { def } of saved) await db.exec(def);
  await db.exec("analyze orders; analyze tracking_numbers");
}

export const SEARCH: Omit<OrderListRequest, "AndOrParam"> = {
  PageSize: 50,
  PageIndex: 1,
  // ~100 PO numbers, one customer surname (~750 orders), a tracking fragment (~10 orders)
  PoNumberParam: "PO-00012",
  ShipToNameParam: "stovelwald",
  TrackingNumberParam: "1ZA7F3",
  SortParams: { orderDate: false, customerPoNumber: true },
};

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await seconds(fn));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

interface SearchTimes {
  and: number;
  or: number;
  /** Without the search indexes: the faster of the search as it runs and plain `ilike`. */
  andNoIndex: number;
  orNoIndex: number;
  orMatches: number;
}

async function searchBench(target: BenchDb): Promise<SearchTimes> {
  const { db } = target;
  const [{ id: sourceId }] = await db.query<{ id: number }>(
    "select id from order_tracking_sources limit 1",
  );
  const fill = await seconds(() => fillOrders(db, sourceId));
  console.log(`  ${target.kind}: ${SEARCH_ROWS} orders loaded and indexed in ${fill.toFixed(0)} s`);
  // The server samples the orders in the background on its first search; here, before timing.
  const sample = await refreshSearchSample(db);
  const and = { ...SEARCH, AndOrParam: true };
  const or = { ...SEARCH, AndOrParam: false };
  const orMatches = (await searchOrders(db, or, sample)).totalRecordCount;
  if ((await searchOrders(db, or, null)).totalRecordCount !== orMatches) {
    throw new Error("the sampled and the plain search disagree");
  }
  await searchOrders(db, and, sample); // warm the cache
  const times = {
    and: await median(7, () => searchOrders(db, and, sample)),
    or: await median(7, () => searchOrders(db, or, sample)),
  };
  for (const name of SEARCH_INDEXES) await db.exec(`drop index ${name}`);
  await searchOrders(db, or, sample);
  const noIndex = async (request: OrderListRequest) => {
    const asRun = await median(3, () => searchOrders(db, request, sample));
    const plain = await median(3, () => searchOrders(db, request, null));
    console.log(
      `  ${target.kind} ${request.AndOrParam ? "AND" : "OR"} without indexes: ` +
        `${(asRun * 1000).toFixed(0)} ms as run, ${(plain * 1000).toFixed(0)} ms plain ilike`,
    );
    return Math.min(asRun, plain);
  };
  return { ...times, andNoIndex: await noIndex(and), orNoIndex: await noIndex(or), orMatches };
}

function machine(): string {
  const cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/)?.[1] ??
    "unknown CPU";
  const memGiB = (Deno.systemMemoryInfo().total / 2 ** 30).toFixed(0);
  return `${cpu}, ${navigator.hardwareConcurrency} cores, ${memGiB} GiB RAM; Deno ${Deno.version.deno}`;
}

/** Runs the benchmarks on both databases and returns the "## Order tracking" section. */
export async function orderTrackingSection(): Promise<string> {
  const results: Record<string, { importS: number; copyS: number } & SearchTimes> = {};
  let pgVersion = "";
  for (const open of [openPostgresBench, openPgliteBench]) {
    const target = await open();
    try {
      if (target.kind === "postgres") {
        pgVersion =
          (await target.db.query<{ v: string }>("select current_setting('server_version') as v"))[0]
            ?.v ??
            "";
      }
      console.log(`${target.kind}: import of ${IMPORT_ROWS} rows`);
      const imported = await importBench(target);
      console.log(`${target.kind}: search over ${SEARCH_ROWS} orders`);
      results[target.kind] = { ...imported, ...await searchBench(target) };
    } finally {
      await target.close();
    }
  }
  const pg = results.postgres, lite = results.pglite;
  const s = (n: number) => n >= 1 ? `${n.toFixed(2)} s` : `${(n * 1000).toFixed(1)} ms`;
  const x = (n: number) => `${n.toFixed(n >= 10 ? 0 : 2)} ×`;
  const yes = (ok: boolean) => ok ? "yes" : "no";
  const importRatio = (r: typeof pg) => r.importS / r.copyS;
  const speedup = (r: typeof pg, mode: "and" | "or") =>
    r[mode === "and" ? "andNoIndex" : "orNoIndex"] / r[mode];
  const rows = (label: string, pick: (r: typeof pg) => number) =>
    `| ${label} | ${s(pick(pg))} | ${s(pick(lite))} | ${x(pick(lite) / pick(pg))} |`;
  return [
    "## Order tracking",
    "",
    `Command: \`deno task bench\` (BENCH_ORDER_IMPORT_ROWS=${IMPORT_ROWS}, BENCH_ORDER_SEARCH_ROWS=${SEARCH_ROWS}). ` +
    `Machine: ${machine()}. PostgreSQL ${pgVersion} on the same machine; PGlite in memory. ` +
    `Measured ${new Date().toISOString().slice(0, 10)}.`,
    "",
    `Import: a ${
      IMPORT_ROWS.toLocaleString("en-US")
    }-row, 13-column CSV (two thirds with two tracking numbers) ` +
    "through `importOrderFile` in one transaction (read, map, parse dates and numbers, stage, " +
    "upsert, tracking numbers) into empty tables with every index of migrations 0004, 0013 (23 sort indexes) and 0015 (7 short-term indexes), against " +
    "COPY of the same rows (orders and tracking numbers, already converted) into the same empty " +
    `tables; best of ${IMPORT_RUNS} alternating rounds. Search: \`searchOrders\` (count, page, ` +
    `tracking numbers) with PO Number "${SEARCH.PoNumberParam}", Customer/Ship To ` +
    `"${SEARCH.ShipToNameParam}" and Tracking Number "${SEARCH.TrackingNumberParam}", sorted by ` +
    `order date then PO, page 1 of 50, over ${SEARCH_ROWS.toLocaleString("en-US")} orders ` +
    `(OR matches ${pg.orMatches.toLocaleString("en-US")}); median of 7 runs with the trigram ` +
    "indexes, the index reading the trigrams chosen from the column sample " +
    "(`refreshSearchSample`, taken before timing), against the same search with the indexes " +
    "dropped: the median of 3 runs of it as it runs and of 3 with plain `ilike '%term%'` " +
    "conditions, whichever is faster.",
    "",
    "| measurement | PostgreSQL | PGlite | PGlite ÷ PostgreSQL |",
    "| --- | ---: | ---: | ---: |",
    rows("import, end to end", (r) => r.importS),
    rows("COPY of the same rows", (r) => r.copyS),
    rows("search, AND, indexed", (r) => r.and),
    rows("search, OR, indexed", (r) => r.or),
    rows("search, AND, no search indexes", (r) => r.andNoIndex),
    rows("search, OR, no search indexes", (r) => r.orNoIndex),
    "",
    "| target | PostgreSQL | PGlite | met |",
    "| --- | ---: | ---: | --- |",
    `| import ≤ 1.5 × COPY | ${x(importRatio(pg))} | ${x(importRatio(lite))} | ${
      yes(importRatio(pg) <= 1.5 && importRatio(lite) <= 1.5)
    } |`,
    ...(["and", "or"] as const).map((mode) =>
      `| search ${mode.toUpperCase()} ≥ 50 × faster than without indexes | ${
        x(speedup(pg, mode))
      } | ${x(speedup(lite, mode))} | ${
        yes(speedup(pg, mode) >= 50 && speedup(lite, mode) >= 50)
      } |`
    ),
    `| PGlite ≤ 3 × PostgreSQL: import | | ${x(lite.importS / pg.importS)} | ${
      yes(lite.importS / pg.importS <= 3)
    } |`,
    `| PGlite ≤ 3 × PostgreSQL: search AND / OR | | ${x(lite.and / pg.and)} / ${
      x(lite.or / pg.or)
    } | ${yes(lite.and / pg.and <= 3 && lite.or / pg.or <= 3)} |`,
    "",
  ].join("\n");
}

/** Replaces (or appends) one "## " section of `doc`. */
function replaceSection(doc: string, title: string, section: string): string {
  const start = doc.indexOf(`\n${title}\n`);
  if (start < 0) return doc.trimEnd() + "\n\n" + section;
  const next = doc.indexOf("\n## ", start + 1);
  return doc.slice(0, start + 1) + section + (next < 0 ? "" : "\n" + doc.slice(next + 1));
}

if (import.meta.main) {
  const path = new URL("../docs/benchmarks.md", import.meta.url).pathname;
  let doc =
    "# Benchmarks\n\nFigures from `deno task bench`; targets in docs/design.md section 10.\n";
  try {
    doc = Deno.readTextFileSync(path);
  } catch { /* first run */ }
  const section = await orderTrackingSection();
  console.log(section);
  if (!Deno.env.get("BENCH_NO_WRITE")) {
    Deno.writeTextFileSync(
      path,
      replaceSection(doc, "## Order tracking", section).trimEnd() + "\n",
    );
    await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path] }).output();
  }
}
