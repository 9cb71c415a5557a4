/**
 * The order list at scale (docs/order_tracking.md, "Order list at scale"): a battery of
 * searches covering every class the list screen sends (no terms, one to three characters,
 * terms matching most orders, AND and OR of broad terms, sorts on other columns in both
 * directions, first, middle and last page, selective terms), timed over 1M and 10M orders on
 * PostgreSQL and over PGlite's sizes, each printed with its median and its match count.
 *
 * `searchScaleSection()` returns the "## Order list at scale" section of docs/benchmarks.md
 * (`BENCH_ONLY=search-scale deno task bench`). Sizes: BENCH_SCALE_ROWS (PostgreSQL,
 * "1000000,10000000"), BENCH_SCALE_PGLITE_ROWS (PGlite, "1000000"; "" skips it),
 * BENCH_SCALE_RUNS (7). PostgreSQL from BENCH_DATABASE_URL or DATABASE_URL; each size is
 * filled into its own database `bench_scale_<rows>`, which is reused when it already holds that
 * many orders and kept afterwards with BENCH_SCALE_KEEP=1 (filling 10M orders and building their
 * indexes takes about half an hour on 2 cores), else dropped.
 */
import postgres from "postgres";
import type { Db } from "../api/db/client.ts";
import { openDb } from "../api/db/client.ts";
import { migrate } from "../api/db/migrate.ts";
import { COUNT_CAP, searchOrders } from "../api/order_tracking/search.ts";
import { forgetSeekPoints, walksDone } from "../api/order_tracking/page_seek.ts";
import { InvalidError } from "../api/db/errors.ts";
import { refreshSearchSample } from "../api/order_tracking/search_sample.ts";
import {
  lastWindowPage,
  type OrderListRequest,
  type OrderListResult,
} from "../shared/contract/order_tracking.ts";
import { createSource, fillOrders } from "./order_tracking_bench.ts";

const list = (name: string, fallback: string) =>
  (Deno.env.get(name) ?? fallback).split(",").map((s) => s.trim()).filter(Boolean).map(Number);
const PG_ROWS = list("BENCH_SCALE_ROWS", "1000000,10000000");
const PGLITE_ROWS = list("BENCH_SCALE_PGLITE_ROWS", "1000000");
const RUNS = Number(Deno.env.get("BENCH_SCALE_RUNS") ?? 7);
const KEEP = Deno.env.get("BENCH_SCALE_KEEP") === "1";
const PG_URL = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/test";

type Search = Omit<OrderListRequest, "PageSize" | "PageIndex"> & { PageIndex?: number };

/** One search of the battery; `selective` ones set the target's yardstick. */
interface Case {
  name: string;
  search: Search;
  selective?: boolean;
  /** A deep page: also timed without seek points (the first visit, `cold`). */
  deep?: boolean;
}

/** The last page the API serves at 50 rows a page (the result window): 200. */
const LAST_OFFERED = lastWindowPage(50);

/** The battery (bench/order_tracking_bench.ts fills the orders; values as it generates them). */
export const BATTERY: Case[] = [
  { name: "no terms, page 1 (the screen as it opens)", search: {} },
  { name: "no terms, Order Date descending", search: { SortParams: { orderDate: false } } },
  {
    name: "no terms, Customer Name ascending, page 100",
    search: { SortParams: { customerName: true }, PageIndex: LAST_OFFERED / 2 },
  },
  {
    name: `no terms, Qty descending, page ${LAST_OFFERED}`,
    search: { SortParams: { qty: false }, PageIndex: LAST_OFFERED },
  },
  { name: "no terms, Notes descending (all empty)", search: { SortParams: { notes: false } } },
  {
    name: "no terms, Tracking Numbers ascending",
    search: { SortParams: { trackingNumbers: true } },
  },
  { name: 'one character: Customer/Ship To "a"', search: { ShipToNameParam: "a" } },
  {
    name: 'one character "a", Item Number descending, page 100',
    search: { ShipToNameParam: "a", SortParams: { itemNumber: false }, PageIndex: 100 },
  },
  { name: 'two characters: PO Number "12"', search: { PoNumberParam: "12" } },
  {
    name: 'two characters matching almost nothing: Tracking "Q7"',
    search: { TrackingNumberParam: "Q7" },
  },
  {
    name: 'one character matching nothing: Item Number "Z"',
    search: { ItemNumberParam: "Z" },
  },
  {
    name: 'three characters, every order: Customer/Ship To "sto"',
    search: { ShipToNameParam: "sto" },
  },
  {
    name: 'broad AND: Supplier "Supplier 1" AND Brand "Brand 1"',
    search: { SupplierNameParam: "Supplier 1", BrandNameParam: "Brand 1", AndOrParam: true },
  },
  {
    // Numbers of one or two digits are the rare part of such terms (trigram_choice.ts).
    name: 'short numbers: Supplier "Supplier 7" AND Brand "Brand 42"',
    search: { SupplierNameParam: "Supplier 7", BrandNameParam: "Brand 42", AndOrParam: true },
  },
  {
    name: 'broad OR: Supplier "Supplier 1" OR Brand "Brand 2", Brand descending',
    search: {
      SupplierNameParam: "Supplier 1",
      BrandNameParam: "Brand 2",
      SortParams: { brandName: false },
    },
  },
  {
    name: 'PO Number "PO-00012", last page (2)',
    search: { PoNumberParam: "PO-00012", PageIndex: 2 },
    selective: true,
  },
  {
    name: 'selective: Item Number "SKU-012345"',
    search: { ItemNumberParam: "SKU-012345" },
    selective: true,
  },
  {
    name: 'selective AND: Tracking "1ZA7F3" AND Customer/Ship To "stovelwald"',
    search: { TrackingNumberParam: "1ZA7F3", ShipToNameParam: "stovelwald", AndOrParam: true },
    selective: true,
  },
  {
    name: "OR of three: PO-00012 OR stovelwald OR 1ZA7F3, Order Date descending",
    search: {
      PoNumberParam: "PO-00012",
      ShipToNameParam: "stovelwald",
      TrackingNumberParam: "1ZA7F3",
      SortParams: { orderDate: false },
    },
  },
];

/** One class of sort (and a broad search), whose deep pages the battery reads. */
interface SortClass {
  name: string;
  search: Search;
}

/** Every class of sort column: its index read forwards, backwards, in two halves, never empty. */
export const SORT_CLASSES: SortClass[] = [
  { name: "no sort (newest first)", search: {} },
  { name: "Customer Name ascending (text)", search: { SortParams: { customerName: true } } },
  {
    name: "Brand descending (text, empty last: two halves)",
    search: { SortParams: { brandName: false } },
  },
  { name: "Qty descending (number, many ties)", search: { SortParams: { qty: false } } },
  { name: "Order Date ascending (date)", search: { SortParams: { orderDate: true } } },
  {
    name: "Tracking Numbers descending (never empty)",
    search: { SortParams: { trackingNumbers: false } },
  },
  {
    name: 'broad AND "Supplier 1" AND "Brand 1" (6 %), newest first',
    search: { SupplierNameParam: "Supplier 1", BrandNameParam: "Brand 1", AndOrParam: true },
  },
  {
    name: 'one character "a" (76 %), Item Number descending',
    search: { ShipToNameParam: "a", SortParams: { itemNumber: false } },
  },
  {
    // Just broad: a walk to page 200 reads two thirds of the orders, so it is gathered instead.
    name: 'broad OR "Brand 42" OR "Supplier 150" (1.5 %), newest first',
    search: { BrandNameParam: "Brand 42", SupplierNameParam: "Supplier 150" },
  },
];

/** The pages read of each class: first, middle, last offered. */
const DEEP_PAGES = [1, LAST_OFFERED / 2, LAST_OFFERED];

/** The deep pages as cases of the battery (the target counts them). */
export const DEEP: Case[] = SORT_CLASSES.flatMap(({ name, search }) =>
  DEEP_PAGES.map((page) => ({
    name: `${name}, page ${page}`,
    search: { ...search, PageIndex: page },
    deep: page > 1,
  }))
);

/** Outside the target, measured to show the limit (docs/order_tracking.md). */
export const LIMITS: Case[] = [
  {
    name: "two sort columns: Order Date descending, then PO Number",
    search: { SortParams: { orderDate: false, customerPoNumber: true } },
  },
];

interface Timed {
  median: number;
  result: OrderListResult;
  /** A deep page's median without seek points (each run forgets them first). */
  cold?: number;
}

async function timeCase(db: Db, request: OrderListRequest, deep = false): Promise<Timed> {
  const sample = await refreshSearchSample(db);
  const result = await searchOrders(db, request, sample); // warm, and the answer
  // The sampled trigram choice changes speed, never results (search_test.ts checks it widely).
  const plain = await searchOrders(db, request, null);
  // (The count's bound of a broad search follows the sample, so only the rows are compared.)
  if (JSON.stringify(plain.orders) !== JSON.stringify(result.orders)) {
    throw new Error(`sampled and plain search disagree: ${JSON.stringify(request)}`);
  }
  const median = async (cold: boolean) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (cold) {
        // A first visit: no points, and no walk beside it. Forgetting walks the deep pages read
        // lately again in the background (page_seek.ts, `walkAgain`), which would share the
        // database with the timed visit; once they are done the second forget walks nothing.
        forgetSeekPoints();
        await walksDone();
        forgetSeekPoints();
      }
      const start = performance.now();
      await searchOrders(db, request, sample);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };
  const cold = deep ? await median(true) : undefined;
  // The pages before it are read once, as a person paging or jumping there leaves them.
  await searchOrders(db, request, sample);
  return { median: await median(false), result, cold };
}

/**
 * The time a page past the result window takes to be refused (median of RUNS, ms), and its
 * message: `searchOrders` throws before any statement.
 */
async function timeBeyond(db: Db, search: Search): Promise<{ median: number; message: string }> {
  const request = { PageSize: 50, ...search, PageIndex: LAST_OFFERED + 1 };
  const times: number[] = [];
  let message = "";
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    try {
      await searchOrders(db, request, null);
      throw new Error(`page ${request.PageIndex} was served`);
    } catch (e) {
      if (!(e instanceof InvalidError)) throw e;
      message = e.message;
    }
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], message };
}

/**
 * The state a large import leaves once its statistics job has run: ANALYZE, and VACUUM, which
 * the job runs on PGlite (no autovacuum there; api/order_tracking/feed/statistics_job.ts) and
 * PostgreSQL's autovacuum runs within a minute of a bulk load. Outside any transaction.
 */
async function settle(db: Db): Promise<void> {
  await db.exec("vacuum (analyze) orders");
  await db.exec("vacuum (analyze) tracking_numbers");
}

/** Opens (reusing or filling) the PostgreSQL database of `rows` orders. */
async function postgresOf(rows: number): Promise<{ db: Db; close(): Promise<void> }> {
  const name = `bench_scale_${rows}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  const exists = (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
  if (!exists) await admin.unsafe(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.href });
  await migrate(db);
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from orders");
  if (n !== rows) {
    await db.exec("truncate tracking_numbers, order_seen, orders restart identity");
    const t = performance.now();
    await db.transaction(async (tx) => {
      await tx.exec("set local maintenance_work_mem = '1GB'");
      await fillOrders(tx, await createSource(tx), rows);
    });
    console.log(
      `  postgres: ${rows} orders filled in ${((performance.now() - t) / 1000).toFixed(0)} s`,
    );
  }
  await settle(db);
  return {
    db,
    async close() {
      await db.close();
      if (!KEEP) await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function pgliteOf(rows: number): Promise<{ db: Db; close(): Promise<void> }> {
  const db = await openDb({ dataDir: "memory://" });
  await migrate(db);
  const t = performance.now();
  await fillOrders(db, await createSource(db), rows);
  await settle(db);
  console.log(
    `  pglite: ${rows} orders filled in ${((performance.now() - t) / 1000).toFixed(0)} s`,
  );
  return { db, close: () => db.close() };
}

interface Column {
  label: string;
  rows: number;
  times: Timed[];
  deep: Timed[];
  /** Per sort class: the page past the window, refused. */
  beyond: { median: number; message: string }[];
  limits: Timed[];
  /** The load average (1 minute) when the column started and ended. */
  load: [number, number];
}

async function runColumn(
  label: string,
  rows: number,
  open: () => Promise<{ db: Db; close(): Promise<void> }>,
): Promise<Column> {
  console.log(`${label}: ${rows} orders`);
  const target = await open();
  const startLoad = Deno.loadavg()[0];
  try {
    const time = async (c: Case) => {
      const timed = await timeCase(target.db, { PageSize: 50, PageIndex: 1, ...c.search }, c.deep);
      console.log(
        `  ${timed.median.toFixed(1).padStart(8)} ms  ${
          timed.cold === undefined ? "" : `(first visit ${timed.cold.toFixed(1)} ms)  `
        }${matches(timed.result).padStart(18)}  ${c.name}`,
      );
      return timed;
    };
    const times: Timed[] = [];
    for (const c of BATTERY) times.push(await time(c));
    const deep: Timed[] = [];
    for (const c of DEEP) deep.push(await time(c));
    const beyond = [];
    for (const c of SORT_CLASSES) {
      const refused = await timeBeyond(target.db, c.search);
      console.log(`  ${refused.median.toFixed(3).padStart(8)} ms  refused  ${c.name}, page 201`);
      beyond.push(refused);
    }
    const limits: Timed[] = [];
    for (const c of LIMITS) limits.push(await time(c));
    return { label, rows, times, deep, beyond, limits, load: [startLoad, Deno.loadavg()[0]] };
  } finally {
    await target.close();
  }
}

const matches = (result: OrderListResult) =>
  result.countCapped
    ? `more than ${result.totalRecordCount.toLocaleString("en-US")}`
    : result.totalRecordCount.toLocaleString("en-US");
const ms = (n: number) => n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`;

/** Slowest of the battery and its deep pages ÷ fastest selective search. */
function spread(column: Column, cold = false): number {
  const slowest = Math.max(
    ...column.times.map((t) => t.median),
    ...column.deep.map((t) => cold ? t.cold ?? t.median : t.median),
  );
  const fastest = Math.min(
    ...column.times.filter((_, i) => BATTERY[i].selective).map((t) => t.median),
  );
  return slowest / fastest;
}

/** Runs the battery at every size and returns the "## Order list at scale" section. */
export async function searchScaleSection(): Promise<string> {
  const columns: Column[] = [];
  let pgVersion = "";
  for (const rows of PG_ROWS) {
    columns.push(
      await runColumn(`PostgreSQL ${rows / 1e6}M`, rows, async () => {
        const target = await postgresOf(rows);
        pgVersion ||= (await target.db.query<{ v: string }>(
          "select current_setting('server_version') as v",
        ))[0].v;
        return target;
      }),
    );
  }
  for (const rows of PGLITE_ROWS) {
    columns.push(await runColumn(`PGlite ${rows / 1e6}M`, rows, () => pgliteOf(rows)));
  }
  const header = ["search", ...columns.flatMap((c) => [c.label, "matches"])];
  const table = (cases: Case[], pick: (c: Column) => Timed[]) =>
    cases.map((c, i) =>
      `| ${c.name}${c.selective ? " (selective)" : ""} | ${
        columns.map((col) => `${ms(pick(col)[i].median)} | ${matches(pick(col)[i].result)}`)
          .join(" | ")
      } |`
    );
  const pg = columns.filter((c) => c.label.startsWith("PostgreSQL"));
  const deepTable = DEEP.map((c, i) =>
    `| ${c.name} | ${
      columns.map((col) => {
        const t = col.deep[i];
        return `${ms(t.median)} | ${t.cold === undefined ? "" : ms(t.cold)} | ${matches(t.result)}`;
      }).join(" | ")
    } |`
  );
  const deepHeader = ["page", ...columns.flatMap((c) => [c.label, "first visit", "matches"])];
  const beyondTable = SORT_CLASSES.map((c, i) =>
    `| ${c.name}, page ${LAST_OFFERED + 1} | ${
      columns.map((col) => `${col.beyond[i].median.toFixed(3)} ms`).join(" | ")
    } |`
  );
  const targetRows = columns.flatMap((c) => {
    const s = spread(c);
    const cold = spread(c, true);
    return [
      `| ${c.label}: slowest ≤ 10 × fastest selective | ${s.toFixed(1)} × | ${
        s <= 10 ? "yes" : "no"
      } |`,
      `| ${c.label}: the same with deep pages at their first visit | ${cold.toFixed(1)} × | ${
        cold <= 10 ? "yes" : "no"
      } |`,
    ];
  });
  if (pg.length >= 2) {
    const [small, large] = [pg[0], pg[pg.length - 1]];
    const worst = Math.max(...small.times.map((t, i) => large.times[i].median / t.median));
    const slowest = Math.max(...large.times.map((t) => t.median)) /
      Math.max(...small.times.map((t) => t.median));
    targetRows.push(
      `| PostgreSQL ${large.label.split(" ")[1]} ≤ 2 × ${
        small.label.split(" ")[1]
      }: slowest search | ${slowest.toFixed(2)} × | ${slowest <= 2 ? "yes" : "no"} |`,
      `| (each search, worst ratio) | ${worst.toFixed(2)} × | |`,
    );
  }
  return [
    "## Order list at scale",
    "",
    "Command: `BENCH_ONLY=search-scale deno task bench` (BENCH_SCALE_ROWS=" +
    `${PG_ROWS.join(",")}, BENCH_SCALE_PGLITE_ROWS=${PGLITE_ROWS.join(",") || '""'}, ` +
    `BENCH_SCALE_RUNS=${RUNS}). PostgreSQL ${pgVersion} on the same machine (2 cores shared ` +
    `with other work); PGlite in memory. Measured ${new Date().toISOString().slice(0, 10)}.`,
    "",
    "Orders filled by `fillOrders` (bench/order_tracking_bench.ts), every index of the " +
    "migrations built after the load, then VACUUM (ANALYZE) (a fill replaces no rows, so this is " +
    "what the statistics job leaves on PGlite after a large import, and autovacuum on " +
    "PostgreSQL). Each search is `searchOrders` as the list " +
    "route runs it (page, count, tracking numbers; the column sample taken before timing), " +
    "page size 50, without a sort newest first; median of " +
    `${RUNS} runs after one warm-up run whose answer is checked equal to plain \`ilike\`'s. ` +
    `"more than N": the count stopped at its bound (${
      COUNT_CAP.toLocaleString("en-US")
    } or the page's end) and the answer says \`countCapped\`.`,
    "",
    `| ${header.join(" | ")} |`,
    `| --- | ${header.slice(1).map(() => "---:").join(" | ")} |`,
    ...table(BATTERY, (c) => c.times),
    "",
    'Deep pages (docs/order_tracking.md, "Deep pages"), page size 50, for every class of sort ' +
    `column: first, middle and last page offered (${LAST_OFFERED}). The median is of pages ` +
    "read from a seek point (every page before it was read once: paging, or one jump there); " +
    '"first visit" is the median of the same page with every seek point forgotten before ' +
    'each run (it walks from the start and leaves the points). "more than N" on a deep page: ' +
    "the page's end, from the one row read after it (no count).",
    "",
    `| ${deepHeader.join(" | ")} |`,
    `| --- | ${deepHeader.slice(1).map(() => "---:").join(" | ")} |`,
    ...deepTable,
    "",
    `A page past the window (${LAST_OFFERED + 1} of 50) is refused before any statement, with ` +
    `"${columns[0]?.beyond[0]?.message ?? ""}" (400 through the API); median time to refuse:`,
    "",
    `| page | ${columns.map((c) => c.label).join(" | ")} |`,
    `| --- | ${columns.map(() => "---:").join(" | ")} |`,
    ...beyondTable,
    "",
    `Load average (1 minute) at the start and end of each column: ${
      columns.map((c) => `${c.label} ${c.load[0].toFixed(1)} → ${c.load[1].toFixed(1)}`).join(
        ", ",
      )
    } (2 cores).`,
    "",
    'Outside the target, the limits (docs/order_tracking.md, "Order list at scale"):',
    "",
    `| ${header.join(" | ")} |`,
    `| --- | ${header.slice(1).map(() => "---:").join(" | ")} |`,
    ...table(LIMITS, (c) => c.limits),
    "",
    "| target | measured | met |",
    "| --- | ---: | --- |",
    ...targetRows,
    "",
  ].join("\n");
}

if (import.meta.main) console.log(await searchScaleSection());
